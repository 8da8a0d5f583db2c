import Foundation
import Testing
@testable import CoolcalSupport

/// `readAll` reads a file of `halvesFrom` bytes or more in two halves on two threads:
/// the bytes must be the file's, in order, at every size around the cut and the page
/// boundary it is put on; a file that grew after it was opened is read to its new end,
/// and one that shrank gives what it still has.
@Suite struct ReadAllTests {
    static func scratch() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-readall-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Bytes no two offsets of a page share a pattern of: a misplaced piece shows.
    static func bytes(_ count: Int, seed: UInt64) -> Data {
        var state = seed
        return Data((0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        })
    }

    /// Whether the bytes are the same, as a plain Bool: a failed `#expect` over two
    /// collections of megabytes would have the test library diff them, which takes hours.
    static func sameBytes(_ got: Data, _ want: Data) -> Bool {
        got.count == want.count && got == want
    }

    @Test func everySizeAroundTheCutIsReadWhole() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/cal.ics"
        let page = Int(getpagesize())
        let base = OpenInput.halvesFrom
        for count in [base - 1, base, base + 1, base + page - 1, base + page, base + page + 1, base + 2 * page + 3, 3 * base + 12_345] {
            let want = Self.bytes(count, seed: UInt64(count))
            try want.write(to: URL(fileURLWithPath: path))
            let got = try InputFile.open(path, accepting: .regularFiles).readAll(limit: 1 << 40)
            #expect(Self.sameBytes(got, want), "\(count) bytes")
        }
    }

    @Test func aFileThatGrewAfterItWasOpenedIsReadToItsNewEnd() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/cal.ics"
        let first = Self.bytes(OpenInput.halvesFrom + 5_000, seed: 1), more = Self.bytes(3 << 20, seed: 2)
        try first.write(to: URL(fileURLWithPath: path))
        let input = try InputFile.open(path, accepting: .regularFiles)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: more)
        try handle.close()
        #expect(input.status.size == Int64(first.count), "the status is the one taken at opening")
        let got = try input.readAll(limit: 1 << 40)
        #expect(Self.sameBytes(got, first + more))
        // And a limit counts what it grew by.
        let again = try InputFile.open(path, accepting: .regularFiles)
        try Data(count: 1).append(to: path)
        #expect(throws: InputTooLarge.self) { _ = try again.readAll(limit: first.count + more.count) }
    }

    @Test func aFileThatShrankAfterItWasOpenedGivesWhatItStillHas() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/cal.ics"
        let whole = Self.bytes(2 * OpenInput.halvesFrom, seed: 3)
        // Cut inside the second half, then inside the first.
        for keep in [OpenInput.halvesFrom + OpenInput.halvesFrom / 2, OpenInput.halvesFrom / 3] {
            try whole.write(to: URL(fileURLWithPath: path))
            let input = try InputFile.open(path, accepting: .regularFiles)
            #expect(truncate(path, off_t(keep)) == 0)
            let got = try input.readAll(limit: 1 << 40)
            #expect(Self.sameBytes(got, whole.prefix(keep)), "kept \(keep) of \(whole.count)")
        }
    }
}

private extension Data {
    func append(to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: self)
    }
}
