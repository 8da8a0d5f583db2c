import Foundation
import CoolcalICal
import CoolcalModel
import CoolcalWriting

/// Where `merge` (and `process`) applies a message about an event: where its UID already
/// lives. A new invitation goes into the first CAL (`target`, through the run's batch);
/// an update, a cancellation or an attendee's reply goes into every calendar of the run
/// holding a copy of the event that counts (`StoredCopies`: the first CAL's copy, another
/// calendar's when it names one of `me`), so that one UID is never split across two
/// calendars, and one split earlier is updated in each. The first CAL is written through
/// the batch (once, at the end); another calendar at once, as `accept` writes (its lock,
/// temp file, fsync, rename, read back; a vdir's event file; CalDAV with its etag).
/// `accept` has no batch: every calendar is written at once.
struct UIDHomes {
    let target: CalendarLocation
    let batch: CalendarBatch?
    let copies: StoredCopies
    let writer: CalendarWriter
    /// What organizers last sent: given to each update applied, and what it sent kept.
    let memory: OrganizerMemory

    /// Looks through `calendars` (the run's operands, the first being `target`) for the
    /// UIDs of `uids`; nothing is looked at with a single calendar. A first CAL that is a
    /// file with a batch is the batch's to know (read once); else it is looked through here.
    init(target: CalendarLocation, batch: CalendarBatch?, calendars: [String], uids: Set<String>,
         me: [String], writer: CalendarWriter, memory: OrganizerMemory) throws {
        self.target = target
        self.batch = batch
        self.writer = writer
        self.memory = memory
        let key = AnswerSettings.stateKey(target)
        let others = calendars.dropFirst().map(CalendarLocation.init).filter { AnswerSettings.stateKey($0) != key }
        guard !others.isEmpty else {
            copies = try StoredCopies([], uids: [], me: me, writer: writer)
            return
        }
        var locations = others.map { ($0, anyCopy: false) }
        if case .file = target, batch != nil {} else { locations.insert((target, anyCopy: true), at: 0) }
        copies = try StoredCopies(locations, uids: uids, me: me, writer: writer)
    }

    /// Whether a calendar of the run holds a copy of the event that counts.
    func stores(uid: String) -> Bool {
        batch?.stores(uid: uid) == true || !copies.homes(of: uid).isEmpty
    }

    /// The calendars a message about `uid` is applied to: the first CAL when it holds the
    /// event or no other calendar does (a new invitation), then each other calendar
    /// holding a copy that names me.
    func places(_ uid: String) -> [CalendarLocation] {
        let found = copies.homes(of: uid)
        let first = found.isEmpty || found.contains(target) || batch?.stores(uid: uid) == true
        return (first ? [target] : []) + found.filter { $0 != target }
    }

    /// The held outcome when `change` may not touch a copy held outside the first CAL
    /// (organizer binding, asked before an answer that writes nothing is given); the
    /// batch's own answer for the first CAL.
    func held(_ change: CalendarChange) -> WriteOutcome? {
        if let held = batch?.held(change) { return held }
        guard let itip = change as? ITIPChange else { return nil }
        return places(change.uid).lazy.compactMap { copies.copy(of: change.uid, in: $0).flatMap(itip.held(in:)) }.first
    }

    /// Applies `change` where its UID lives. The outcome said is the first that changed a
    /// calendar, with every calendar changed (`updated in A and B`); when none did, the
    /// first held one, else the first calendar's, with that calendar. `check` gives what
    /// is checked of each calendar written at once, as read under its lock (`accept --if-free`).
    /// An organizer's update goes with what the organizer last sent (`memory`).
    func apply(_ change: CalendarChange, window: TimeWindow,
               check: (CalendarLocation) -> (ICalCalendar) throws -> Void = { _ in { _ in } }) throws -> (WriteOutcome, [CalendarLocation]) {
        let change = try memory.prepared(change)
        var outcomes: [(WriteOutcome, CalendarLocation)] = []
        for place in places(change.uid) {
            if place == target, let batch {
                outcomes.append((try batch.apply(change), place))
            } else {
                if place != target {
                    writer.diagnostics?.note("\(place.shown): holds \(change.uid), a copy naming you: the change is written there")
                }
                outcomes.append((try writer.write(change: change, to: place, window: window, check: check(place)), place))
            }
        }
        for (outcome, _) in outcomes { memory.wrote(change, outcome) }
        let changed = outcomes.filter { $0.0.changedCalendar }
        if let first = changed.first { return (first.0, changed.map(\.1)) }
        let said = outcomes.first { $0.0.heldReason != nil } ?? outcomes.first ?? (.absent, target)
        return (said.0, [said.1])
    }
}
