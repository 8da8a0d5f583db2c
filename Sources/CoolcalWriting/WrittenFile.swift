import Foundation
import CoolcalICal
import CoolcalScan
import CoolcalSupport
import CoolcalZones

/// The read-back of a calendar file coolcal has just written (its temp file, before
/// the rename): read in pieces into a reused buffer, each piece compared with the
/// edit it should hold and fed to the pre-filter's scan, so that the check covers
/// the bytes on disk without holding them in memory a second time.
package enum WrittenFile {
    /// The calendar in `temp` as the edit's windows see it — when the edit only added
    /// after the checkpoint, only the events it added; a `WriteError` (nothing is
    /// replaced) when the file is not byte for byte `edited`, or would not parse.
    /// `comparison`: for an edit of a streamed file, what compares the pieces (with the
    /// file's kept ranges, read again) instead of the splice's bytes in memory.
    package static func read(_ temp: String, as edited: Splice, for edit: CalendarFileEdit) throws -> ICalCalendar {
        try read(temp, as: edited, for: edit, comparison: nil)
    }

    static func read(_ temp: String, as edited: Splice, for edit: CalendarFileEdit, comparison: SourceComparison?) throws -> ICalCalendar {
        let file = edit.file
        let unreadable = WriteError(kind: .io, path: file, message: "the edited calendar would not parse; not modified")
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: ICalReader.readBufferSize, alignment: 16)
        defer { buffer.deallocate() }
        // An edit that left the bytes before the checkpoint as they were read (every cut
        // after it: new events before END:VCALENDAR) is scanned from there on, and only
        // what it added is parsed (with the file's header and zones); those bytes are
        // still compared with the edit, one by one, below.
        let resume = edit.checkpoint.flatMap { c in edited.cuts.allSatisfy { $0.range.lowerBound >= c.offset } ? c : nil }
        var filter = resume?.filter ?? ICalPreFilter(windows: edit.windows, shape: InputShape())
        filter.keepsRevisions = false
        let from = resume?.offset ?? 0
        if let resume { edit.diagnostics?.note("\(file): read back in full, scanned and parsed from byte \(resume.offset) (the bytes before it are the ones read)") }
        var at = 0
        do {
            let input = try InputFile.open(temp, accepting: .regularFiles)
            while true {
                let n = try input.read(into: buffer)
                if n == 0 { break }
                let piece = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
                guard comparison?.matches(piece, at: at) ?? edited.matches(piece, at: at) else { throw mismatch(file) }
                if at + n > from { filter.feed(UnsafeRawBufferPointer(rebasing: piece[max(0, from - at)...])) }
                at += n
            }
        } catch let error as WriteError {
            throw error
        } catch {
            throw WriteError(kind: .io, path: file, message: "cannot read back what was written (\(error)); not modified")
        }
        guard at == edited.count else { throw mismatch(file) }
        do {
            guard try (filter.shape ?? InputShape()).check(file: file) else { return ICalCalendar(zones: ZoneBook()) }
            guard let kept = filter.finish() else {
                edit.diagnostics?.note("\(file): full parse of the edited calendar (the pre-filter cannot bound what reaches the window)")
                // (A streamed edit's bytes are the temp file's: only part of them is in memory.)
                let whole = comparison == nil ? edited.data : try InputFile.read(temp, limit: ICalReader.maxParseBytes, accepting: .regularFiles)
                return try ICalReader.read(whole, file: file, windows: edit.windows, revisions: false)
            }
            return try ICalReader.read(kept, file: file, windows: edit.windows, revisions: false)
        } catch {
            throw unreadable
        }
    }

    private static func mismatch(_ file: String) -> WriteError {
        WriteError(kind: .io, path: file, message: "the temporary file does not hold what was written; not modified")
    }
}
