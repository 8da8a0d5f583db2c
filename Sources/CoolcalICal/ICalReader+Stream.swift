import Foundation
import CoolcalModel
import CoolcalScan
import CoolcalSupport
import CoolcalZones

/// A calendar file read for an edit without holding it (issue #48): streamed through the
/// pre-filter in pieces, each piece shown to the editor first (its checksum, the blocks
/// it will edit), the scan's state kept at the last `END:VCALENDAR` line.
extension ICalReader {
    /// What `read(streaming:...)` found.
    package struct Streamed {
        /// What may reach the windows, parsed, with the dropped events' revisions.
        package var calendar: ICalCalendar
        /// The scan at `checkpointAt` (nil when not given, or not reached).
        package var checkpoint: ScanCheckpoint?
        /// Whether the file has a CR that no LF follows (`ICalPreFilter.bareCR`).
        package var bareCR: Bool
    }

    /// Reads the regular file `input` from its start to its end in pieces of
    /// `readBufferSize`, each handed to `observe` and then to the pre-filter for `windows`,
    /// whose line loop shows `lines` the lines that may start or name a block (`ICalPreFilter.lineObserver`).
    /// `checkpointAt`: a line start (the last `END:VCALENDAR`'s) where the scan is kept.
    /// nil when the file is not `size` bytes long after all (it changed while read), or
    /// when the pre-filter cannot bound what reaches the windows (the caller reads it whole).
    package static func read(streaming input: OpenInput, size: Int, file: String, windows: [TimeWindow], checkpointAt: Int?,
                             diagnostics: Diagnostics?, observe: (UnsafeRawBufferPointer) -> Void,
                             lines: ScanLineObserver) throws -> Streamed? {
        var filter = ICalPreFilter(windows: windows, shape: InputShape())
        filter.lineObserver = lines
        // A calendar on its own: a few bytes per dropped event, read again by place.
        (filter.revisionsByPlace, filter.overridesByPlace) = (true, true)
        var checkpoint: ScanCheckpoint?
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readBufferSize, alignment: 16)
        defer { buffer.deallocate() }
        var at = 0
        while true {
            let n = try input.read(into: buffer, at: Int64(at))
            if n == 0 { break }
            let piece = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
            observe(piece)
            if let c = checkpointAt, checkpoint == nil, c >= at, c < at + n {
                filter.feed(UnsafeRawBufferPointer(rebasing: piece[..<(c - at)]))
                checkpoint = ScanCheckpoint(offset: c, of: &filter)
                filter.feed(UnsafeRawBufferPointer(rebasing: piece[(c - at)...]))
            } else {
                filter.feed(piece)
            }
            at += n
        }
        guard at == size else { return nil }
        guard try (filter.shape ?? InputShape()).check(file: file) else {
            return Streamed(calendar: ICalCalendar(zones: ZoneBook()), checkpoint: checkpoint, bareCR: filter.bareCR)
        }
        let reading = rereading(input)
        guard let kept = try filter.finish(reading: reading) else { return nil }
        let bareCR = filter.bareCR
        diagnostics?.note("\(file): streamed; the pre-filter kept \(kept.count) of \(size) bytes for libical")
        // What the scan of a large file freed, handed back before libical parses what it kept.
        if size >= SplitScan.threshold { SystemCalls.returnFreedMemory() }
        // (The whole file, for line numbers, only when a cap is exceeded: as a read in memory.)
        var result = try parse(kept, file: file, whole: { try wholeFile(input) })
        // And what libical's trees took (parsed in halves: the second in another thread's arena).
        if size >= SplitScan.threshold { SystemCalls.returnFreedMemory() }
        result.skippedRevisions = try skipped(filter, result, read: reading)
        return Streamed(calendar: result, checkpoint: checkpoint, bareCR: bareCR)
    }
}
