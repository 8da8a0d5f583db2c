import Foundation
import CoolcalICal
import CoolcalModel
import CoolcalScan
import CoolcalSupport

/// A large calendar file read for an edit without holding it (issue #48): one pass over
/// its pieces takes its checksum and feeds the pre-filter, which parses only what may
/// reach the windows, notes bare CRs, and shows the lines that may start or name a block
/// to the search for the top-level blocks of the events the edit is about and the
/// VTIMEZONEs (`BlockSearch`). Only those blocks, the
/// first line and the tail from the last `END:VCALENDAR` are then read into memory
/// (`SparseFile`); "already there", "held", "unchanged" and a new event's place are
/// decided from them, and a write copies everything else from the file in the kernel.
struct StreamedCalendarRead {
    let calendar: ICalCalendar
    let checkpoint: ScanCheckpoint?
    /// The file's bytes where the edit looks (the rest reads as zeros until filled).
    let text: CalendarText
    let backing: SparseFile
    /// Whether a CR that no LF follows was seen.
    let bareCR: Bool

    /// How far from the end the last `END:VCALENDAR` line is looked for.
    static let tail = 256 << 10

    /// nil when the file cannot be read this way and is read whole: no `END:VCALENDAR`
    /// line in its last `tail` bytes, a file that changed size while read, one the
    /// pre-filter cannot bound, or no memory for its buffer.
    static func read(_ input: OpenInput, file: String, windows: [TimeWindow], expecting: [CalendarText.Identity],
                     diagnostics: Diagnostics?) throws -> StreamedCalendarRead? {
        let size = Int(input.status.size)
        guard size > 0, !windows.isEmpty, let insertion = try lastEnd(input, size: size) else { return nil }
        // The blocks of each event the edit is about, by its UID alone as well.
        var identities: [CalendarText.Identity] = [], seen = Set<CalendarText.Identity>()
        for identity in expecting + expecting.map({ CalendarText.Identity(uid: $0.uid, marker: nil) })
        where seen.insert(identity).inserted { identities.append(identity) }
        var checksum = Checksum()
        // The scan's lines go to the search through a pointer: no closure over a variable
        // (its exclusivity checked at run time on every line).
        let lines = UnsafeMutablePointer<Lines>.allocate(capacity: 1)
        lines.initialize(to: Lines(search: BlockSearch(identities, zones: true)))
        defer { lines.deinitialize(count: 1); lines.deallocate() }
        guard let streamed = try ICalReader.read(streaming: input, size: size, file: file, windows: windows, checkpointAt: insertion,
                                                 diagnostics: diagnostics, observe: { checksum.update($0) },
                                                 lines: ScanLineObserver({ context, start, count, offset in
                                                     context.assumingMemoryBound(to: Lines.self).pointee.see(start, count, at: offset)
                                                 }, context: UnsafeMutableRawPointer(lines))) else { return nil }
        guard let backing = SparseFile(input: input, count: size, scanned: checksum, diagnostics: diagnostics) else { return nil }
        let search = lines.pointee.search
        let found = search.found()
        backing.load(0..<(lines.pointee.firstLineEnd ?? size))
        for range in found.joined() { backing.load(range) }
        for range in search.zones { backing.load(range) }
        backing.load(insertion..<size)
        // The blocks were read after the scan: a file written in place meanwhile (its size
        // or time no longer those opened) is read again whole, as any file that changed
        // while read, so that nothing is decided on bytes the scan did not see.
        guard !backing.changed, (try? FileStatus(descriptor: input.fileDescriptor))?.sameVersion(as: input.status) == true else {
            return nil
        }
        let memo = CalendarText.Memo()
        for (identity, blocks) in zip(identities, found) { memo.candidates[identity] = blocks }
        memo.zones = search.zones
        memo.insertion = insertion
        memo.backing = backing
        diagnostics?.note("\(file): \(backing.loaded) of \(size) bytes held for the edit")
        return StreamedCalendarRead(calendar: streamed.calendar, checkpoint: streamed.checkpoint,
                                    text: CalendarText(bytes: backing.data(), memo: memo), backing: backing, bareCR: streamed.bareCR)
    }

    /// The lines the scan shows (`ScanLineObserver`), whole, to the block search; where
    /// the first one ends (tests feed it too).
    struct Lines {
        var search: BlockSearch
        var firstLineEnd: Int?
        /// Where the line after the last one shown starts.
        var next = 0

        /// A line as the pre-filter's loop shows it: its bytes, its LF included, its offset.
        mutating func see(_ start: UnsafePointer<UInt8>, _ count: Int, at offset: Int) {
            // Lines not shown came between: none of them continued the last line shown.
            if offset != next { search.interrupt() }
            next = offset + count
            if offset == 0 { firstLineEnd = count }
            var contentEnd = count
            if contentEnd > 0 && start[contentEnd - 1] == 0x0A { contentEnd -= 1 }
            if contentEnd > 0 && start[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            search.see(UnsafeBufferPointer(start: start, count: contentEnd), offset..<next, nextIsFold: nil)
        }
    }

    /// Where the last `END:VCALENDAR` line starts, found in the file's last `tail` bytes
    /// (a line that starts there, not one cut by the start of those bytes); nil if not.
    private static func lastEnd(_ input: OpenInput, size: Int) throws -> Int? {
        let from = max(0, size - tail)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size - from, alignment: 16)
        defer { buffer.deallocate() }
        guard try input.read(filling: buffer, at: Int64(from)) == buffer.count, let at = ContentLines.lastLine(in: UnsafeBufferPointer(buffer.bindMemory(to: UInt8.self)), is: "END:VCALENDAR"),
              at > 0 || from == 0 else { return nil }
        return from + at
    }
}
