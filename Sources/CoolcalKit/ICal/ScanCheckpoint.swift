import Foundation

/// The pre-filter's scan of a calendar as it stood at one line start, kept from the
/// read of a file that is about to be edited: the start of its last `END:VCALENDAR`
/// line, where new events are inserted. The scan is a function of the bytes alone, fed
/// in any pieces (`ICalPreFilter.feed`); so for a written file whose bytes before
/// `offset` are the ones read — the read-back compares every byte with the edit first —
/// feeding the bytes from `offset` on to a copy of `filter` ends in the state a scan of
/// the whole written file ends in: same kept text, same verdict, same errors. A read-back
/// then scans what was inserted and the lines after it, not the whole file
/// (`WrittenFile`); an edit with a cut before `offset` is scanned whole.
struct ScanCheckpoint {
    /// A line start: every byte before it was fed to `filter`.
    let offset: Int
    /// Without the revisions of the events it dropped (a read-back does not want them).
    let filter: ICalPreFilter

    /// Where the last `END:VCALENDAR` line of `bytes` starts (`CalendarText.insertionPoint`'s
    /// rule); nil when there is none, and then nothing is kept.
    static func offset(in bytes: UnsafeRawBufferPointer) -> Int? {
        ContentLines.lastLine(in: bytes.bindMemory(to: UInt8.self), is: "END:VCALENDAR")
    }
}
