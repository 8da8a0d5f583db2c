import Foundation
import CoolcalModel

/// The pre-filter's scan of a calendar as it stood at one line start, kept from the
/// read of a file that is about to be edited: the start of its last `END:VCALENDAR`
/// line, where new events are inserted. The scan is a function of the bytes alone, fed
/// in any pieces (`ICalPreFilter.feed`); so for a written file whose bytes before
/// `offset` are the ones read — the read-back compares every byte with the edit first —
/// feeding the bytes from `offset` on to a copy of `filter` ends in the verdict and the
/// errors a scan of the whole written file ends in. Its kept text is that scan's without
/// the events kept before `offset` (held here `withoutKeptEvents`): the file's header,
/// zones and other components, and what the edit added — which the read-back parses, in
/// the file's zones, instead of parsing again what the read parsed. A read-back then
/// scans and parses what was inserted, not the whole file (`WrittenFile`); an edit with
/// a cut before `offset` is scanned whole.
package struct ScanCheckpoint {
    /// A line start: every byte before it was fed to `filter`.
    package let offset: Int
    /// Without the revisions of the events it dropped and without the events it kept
    /// (a read-back wants neither).
    package let filter: ICalPreFilter

    /// The checkpoint at `offset` (a line start), `filter` having been fed every byte before it.
    package init(offset: Int, filter: ICalPreFilter) {
        self.offset = offset
        self.filter = filter
    }

    /// The checkpoint of the scan `scanning` at `offset` (a line start: every byte before
    /// it fed), without its line observer. That scan then keeps its records of the events
    /// seen as they are at its end (`HeldOverrides.seenShared`): the checkpoint holds the
    /// same records (shared, not copied), so converting them would add memory, not free it.
    package init(offset: Int, of scanning: inout ICalPreFilter) {
        var resumed = scanning.withoutRevisions().withoutKeptEvents()
        resumed.lineObserver = nil
        self.init(offset: offset, filter: resumed)
        scanning.overrides.seenShared = true
    }

    /// Where the last `END:VCALENDAR` line of `bytes` starts (`CalendarText.insertionPoint`'s
    /// rule); nil when there is none, and then nothing is kept.
    package static func offset(in bytes: UnsafeRawBufferPointer) -> Int? {
        ContentLines.lastLine(in: bytes.bindMemory(to: UInt8.self), is: "END:VCALENDAR")
    }
}
