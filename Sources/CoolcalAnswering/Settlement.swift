import CoolcalSchedule
import CoolcalSpool

/// What `merge` records and says of one invitation once the calendar is written.
struct Settlement {
    var item: MergeItem
    /// Whether it depends on that write (when the write failed, it stays pending).
    var written: Bool
    /// Said on stderr when it is reported (why it could not be read).
    var warning: String?
    /// Its part of the state (answer, outbox, written event), recorded with the others';
    /// given false, no answer is mailed (a later message of the run superseded it).
    var record: (Bool) throws -> Void = { _ in }
    /// A later message of the same event in this run was applied: nothing is mailed for this one.
    var superseded = false
    /// What the spool keeps of it; nil: it stays (`--policy report`).
    var finished: MergeFinished?
    /// The conflicts its note reports (an answered invitation's).
    var conflicts: ConflictReport?

    init(item: MergeItem, written: Bool) {
        self.item = item
        self.written = written
    }
}
