import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalSupport
@testable import CoolcalWriting

/// Writes that stream (issue #48): the ranges an edit keeps of the file it replaces are
/// copied into the temp file by `copy_file_range` through the funnel, and, when the
/// kernel cannot copy between the two files, by `pread` and `write`; either way the temp
/// file holds the edit byte for byte, and the guarantees' order stays (`WriteOrderTests`).
/// Serialized: one test turns the funnel's `copy_file_range` off for the process.
@Suite(.serialized) struct StreamedWriteTests {
    /// A temp file made of bytes from memory around a range copied from another file:
    /// the kernel copied the range (the trace has `copy_file_range` from the source into
    /// the temp file, and no `pread` of the source), and the file is the three pieces.
    @Test func aRangeIsCopiedInTheKernel() throws {
        let dir = try WriteOrderTests.scratch("copy")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (source, bytes) = try Self.source(in: dir)
        let target = dir + "/out.ics"
        let calls = try Self.writeAround(source: source, range: 1000..<(bytes.count - 1000), to: target)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Self.expected(bytes, 1000..<(bytes.count - 1000)))
        let copies = calls.filter { $0.name == "copy_file_range" && $0.path == source }
        #expect(!copies.isEmpty && copies.allSatisfy { Self.isTemp($0.target, of: target) }, "copied into the temp file: \(copies)")
        #expect(!calls.contains { $0.name == "pread" && $0.path == source }, "nothing read and written instead")
    }

    /// With `copy_file_range` refused (as `ENOSYS`; `EXDEV`, `EOPNOTSUPP` and `EINVAL`
    /// take the same path), the range is read from the source and written: the trace has
    /// the refused call, then `pread`s of the source and `write`s of the temp file, and
    /// the file is the same bytes as the kernel's copy made.
    @Test func aRefusedCopyFallsBackToReadAndWrite() throws {
        let dir = try WriteOrderTests.scratch("fallback")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (source, bytes) = try Self.source(in: dir)
        let target = dir + "/out.ics"
        SystemCalls.refusingCopyFileRange.store(true, ordering: .sequentiallyConsistent)
        defer { SystemCalls.refusingCopyFileRange.store(false, ordering: .sequentiallyConsistent) }
        let calls = try Self.writeAround(source: source, range: 1000..<(bytes.count - 1000), to: target)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Self.expected(bytes, 1000..<(bytes.count - 1000)))
        let mine = calls.filter { $0.path == source || Self.isTemp($0.path, of: target) }.map(\.name)
        let refused = try #require(mine.firstIndex(of: "copy_file_range"), "the copy was tried: \(mine)")
        let read = try #require(mine.lastIndex(of: "pread"), "the source was read: \(mine)")
        #expect(refused < read && mine[read...].contains("write"), "read, then written, after the refusal: \(mine)")
        #expect(mine.filter { $0 == "copy_file_range" }.count == 1, "refused once, not retried: \(mine)")
    }

    /// A source that ends before the range does is not the file that was read: `Changed`
    /// (the writers read and decide again), and no temp file is left.
    @Test func aSourceShorterThanTheRangeIsChanged() throws {
        let dir = try WriteOrderTests.scratch("short")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (source, bytes) = try Self.source(in: dir)
        let target = dir + "/out.ics"
        #expect(throws: AtomicFile.Changed.self) {
            _ = try Self.writeAround(source: source, range: 1000..<(bytes.count + 10), to: target)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["src.ics"])
    }

    /// `accept`'s write into a calendar of 1 MB: the kept ranges come from the file by
    /// `copy_file_range` (and not a `write` of them: the temp file's writes carry only
    /// the new event), the calls keep the guarantees' order, and the file is the
    /// calendar as it was with the event inserted before its `END:VCALENDAR`.
    @Test func acceptCopiesTheCalendarAroundTheNewEvent() throws {
        let dir = try WriteOrderTests.scratch("accept")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (file, bytes) = try Self.source(in: dir)
        let calls = try SystemCalls.recording {
            _ = try CalendarWriter(lockTimeout: 5).write(change: WriteOrderTests.event("new@t"), to: .file(file),
                                                       window: WriteOrderTests.window)
        }
        try WriteOrderTests.checkOrder(calls, target: file, lock: dir + "/.src.ics.coolcal-lock", directory: dir)
        #expect(calls.contains { $0.name == "copy_file_range" && $0.path == file && Self.isTemp($0.target, of: file) })
        let after = try Data(contentsOf: URL(fileURLWithPath: file))
        let end = Data("END:VCALENDAR\r\n".utf8)
        let head = bytes.prefix(bytes.count - end.count)
        #expect(after.prefix(head.count) == head && after.suffix(end.count) == end)
        let inserted = String(decoding: after.dropFirst(head.count).dropLast(end.count), as: UTF8.self)
        #expect(inserted.hasPrefix("BEGIN:VEVENT\r\n") && inserted.hasSuffix("END:VEVENT\r\n") && inserted.contains("UID:new@t\r\n"))
        #expect(inserted.utf8.count < 4096, "only the new event was inserted")
    }

    /// Another program rewrites the calendar in place (same file, same length, one letter
    /// else) after coolcal read it: the copied ranges are not what was read, and that is
    /// a change to read again (`Changed`, which the writers retry), not a failed write;
    /// the file is left as the other program wrote it.
    @Test func aCalendarRewrittenInPlaceAfterTheReadIsAChange() throws {
        let dir = try WriteOrderTests.scratch("in-place")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (file, bytes) = try Self.source(in: dir)
        let edit = try CalendarFileEdit(file: file, windows: [WriteOrderTests.window], diagnostics: nil)
        _ = try edit.apply(WriteOrderTests.event("new@t"))
        let at = try #require(bytes.range(of: Data("SUMMARY:Event 3\r\n".utf8))).lowerBound + 8
        var theirs = bytes
        theirs[at] = UInt8(ascii: "F")
        let handle = try #require(FileHandle(forUpdatingAtPath: file))
        try handle.seek(toOffset: UInt64(at))
        try handle.write(contentsOf: Data([UInt8(ascii: "F")]))
        try handle.close()
        #expect(throws: AtomicFile.Changed.self) { try edit.commit() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == theirs)
    }

    /// A calendar of about 1 MB (CRLF) at `DIR/src.ics`, and its bytes.
    static func source(in dir: String) throws -> (String, Data) {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//stream//EN\r\n"
        var i = 0
        while text.utf8.count < 1 << 20 {
            text += "BEGIN:VEVENT\r\nUID:event-\(i)@stream\r\nSUMMARY:Event \(i)\r\n"
                + "DTSTART:20210101T\(String(format: "%02d", i % 24))0000Z\r\nDURATION:PT1H\r\nEND:VEVENT\r\n"
            i += 1
        }
        text += "END:VCALENDAR\r\n"
        let path = dir + "/src.ics"
        let bytes = Data(text.utf8)
        try bytes.write(to: URL(fileURLWithPath: path))
        return (path, bytes)
    }

    static let before = Data("<before>".utf8), after = Data("<after>".utf8)

    /// `before`, then `range` of `source` copied, then `after`, written to `target` by
    /// `AtomicFile.write(streaming:)`: the funnel's calls meanwhile.
    static func writeAround(source: String, range: Range<Int>, to target: String) throws -> [SystemCalls.Call] {
        let input = try InputFile.open(source, accepting: .regularFiles)
        return try SystemCalls.recording {
            try AtomicFile.write(to: target, keeping: nil, unchanged: { true }, streaming: { output in
                try before.withUnsafeBytes { try output.write($0) }
                try output.copy(from: input.fileDescriptor, sourcePath: source, at: Int64(range.lowerBound), count: range.count)
                try after.withUnsafeBytes { try output.write($0) }
            })
        }
    }

    static func expected(_ bytes: Data, _ range: Range<Int>) -> Data {
        before + bytes[range] + after
    }

    static func isTemp(_ path: String?, of target: String) -> Bool {
        let url = URL(fileURLWithPath: target)
        let prefix = url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".coolcal-"
        return path.map { $0.hasPrefix(prefix) && $0.hasSuffix(".tmp") } ?? false
    }
}
