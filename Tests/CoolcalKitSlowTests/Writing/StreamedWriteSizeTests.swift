import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalSupport
@testable import CoolcalWriting
@testable import CoolcalWritingTests

/// Issue #48 at size: `accept`'s write into a 200 MB calendar, streamed (the kept
/// ranges copied from the file by `copy_file_range`), is byte for byte the write of the
/// same edit put together in memory (the splice of the text as read). Needs 1 GB free
/// beside the temporary directory (the calendar, its temp file, the copy compared):
/// skipped with a notice when there is less.
@Suite struct StreamedWriteSizeTests {
    static let size = 200 << 20

    /// Bytes free to this user in the temporary directory's file system.
    static var freeBytes: Int {
        var info = statvfs()
        guard statvfs(FileManager.default.temporaryDirectory.path, &info) == 0 else { return 0 }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }

    @Test(.enabled(if: StreamedWriteSizeTests.freeBytes >= 1 << 30, "needs 1 GB free in the temporary directory"))
    func aStreamedWriteOf200MBIsTheLoadedWrite() throws {
        let dir = try WriteOrderTests.scratch("stream-200mb")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/big.ics"
        try Self.generate(file)
        let edit = try CalendarFileEdit(file: file, windows: [WriteOrderTests.window], diagnostics: nil)
        _ = try edit.apply(WriteOrderTests.event("new@big"))
        let loaded = try #require(try edit.placedEdit()).data
        #expect(loaded.count > Self.size, "the edit adds an event to the calendar")
        let calls = try SystemCalls.recording { try edit.commit() }
        let copied = calls.filter { $0.name == "copy_file_range" && $0.path == file }.count
        #expect(copied >= Self.size / AtomicFile.writebackLag, "streamed: the kept bytes copied in the kernel (\(copied) calls)")
        let written = try InputFile.open(file, accepting: .regularFiles)
        #expect(written.status.size == Int64(loaded.count))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var at = 0
        var same = true
        while same {
            let n = try written.read(into: buffer)
            if n == 0 { break }
            same = at + n <= loaded.count && loaded.withUnsafeBytes { memcmp($0.baseAddress! + at, buffer.baseAddress!, n) == 0 }
            at += n
        }
        #expect(same && at == loaded.count, "the streamed file is the loaded write's bytes (differs by byte \(at))")
    }

    /// A CRLF calendar of `size` bytes and more: an hour each, October to December 2021.
    static func generate(_ path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var chunk = Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//stream-200mb//EN\r\n".utf8)
        var total = 0
        var i = 0
        while total + chunk.count < size {
            let month = 10 + i % 3, day = 10 + i % 18, hour = 10 + i % 14
            chunk.append(contentsOf: "BEGIN:VEVENT\r\nUID:event-\(i)@big\r\nSUMMARY:Event \(i) of the big calendar\r\n"
                .utf8)
            chunk.append(contentsOf: "DTSTART:2021\(month)\(day)T\(hour)0000Z\r\nDURATION:PT1H\r\nEND:VEVENT\r\n".utf8)
            i += 1
            if chunk.count >= 4 << 20 {
                try handle.write(contentsOf: chunk)
                total += chunk.count
                chunk.removeAll(keepingCapacity: true)
            }
        }
        chunk.append(contentsOf: Array("END:VCALENDAR\r\n".utf8))
        try handle.write(contentsOf: chunk)
    }
}
