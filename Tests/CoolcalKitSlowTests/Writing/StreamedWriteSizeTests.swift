import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalSupport
@testable import CoolcalWriting
@testable import CoolcalWritingTests

/// Issue #48 at size: `accept`'s write into a 200 MB calendar, streamed (only the
/// blocks the edit looks at in memory, the kept ranges copied from the file by
/// `copy_file_range`), is byte for byte the write of the same edit of the file read
/// whole. Needs 1 GB free beside the temporary directory (two calendars, a temp file):
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
        let file = dir + "/big.ics", whole = dir + "/whole.ics"
        try Self.generate(file)
        try FileManager.default.copyItem(atPath: file, toPath: whole)
        let change = WriteOrderTests.event("new@big")
        let edit = try CalendarFileEdit(file: file, windows: [WriteOrderTests.window], diagnostics: nil, expecting: [change.identity])
        let loaded = try CalendarFileEdit(file: whole, windows: [WriteOrderTests.window], diagnostics: nil, expecting: [change.identity],
                                          streamFrom: .max)
        #expect(try edit.apply(change) == .added && loaded.apply(change) == .added)
        #expect(edit.streamed && edit.heldBytes < 64 << 10, "streamed: \(edit.heldBytes) bytes held")
        #expect(!loaded.streamed && loaded.heldBytes > Self.size)
        let calls = try SystemCalls.recording { try edit.commit() }
        try loaded.commit()
        let copied = calls.filter { $0.name == "copy_file_range" && $0.path == file }.count
        #expect(copied >= Self.size / AtomicFile.writebackLag, "streamed: the kept bytes copied in the kernel (\(copied) calls)")
        let (a, b) = (try InputFile.open(file, accepting: .regularFiles), try InputFile.open(whole, accepting: .regularFiles))
        #expect(a.status.size == b.status.size && a.status.size > Int64(Self.size))
        let buffers = (UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16),
                       UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16))
        defer { buffers.0.deallocate(); buffers.1.deallocate() }
        var at = 0
        var same = true
        while same {
            let n = try a.read(into: buffers.0, at: Int64(at)), m = try b.read(into: buffers.1, at: Int64(at))
            same = n == m
            if !same || n == 0 { break }
            same = memcmp(buffers.0.baseAddress!, buffers.1.baseAddress!, n) == 0
            at += n
        }
        #expect(same && Int64(at) == a.status.size, "the streamed file is the loaded write's bytes (differs by byte \(at))")
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
