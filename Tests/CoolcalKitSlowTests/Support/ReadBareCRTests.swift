import Foundation
import Testing
@testable import CoolcalSupport

/// A file read in halves is looked at for a bare CR by the threads that read it
/// (`readAllNotingBareCR`): the answer must be the whole text's, wherever the CR is —
/// the last byte of the first half (its LF the first of the second), the last byte of
/// the file, the middle of either half.
@Suite struct ReadBareCRTests {
    @Test func theAnswerIsTheWholeTextsAtTheCutAndTheEnds() throws {
        let dir = try ReadAllTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/cal.ics"
        let count = 2 * OpenInput.halvesFrom + 4_099
        // The second half starts on a page boundary: `count / 2` rounded down to a page.
        let cut = (count / 2) & ~(Int(getpagesize()) - 1)
        var line = Data("SUMMARY:lines end in CRLF\r\n".utf8)
        while line.count < 64 { line.insert(0x78, at: 8) }
        var base = Data()
        while base.count < count { base += line }
        base = base.prefix(count)
        base[count - 1] = 0x0A
        func set(_ data: inout Data, _ bytes: [(Int, UInt8)]) { for (at, byte) in bytes { data[at] = byte } }
        let cases: [(String, [(Int, UInt8)], Bool)] = [
            ("CRLF across the cut", [(cut - 2, 0x78), (cut - 1, 0x0D), (cut, 0x0A)], false),
            ("a CR ending the first half, no LF after", [(cut - 1, 0x0D), (cut, 0x41)], true),
            ("a CR as the file's last byte", [(count - 1, 0x0D)], true),
            ("a bare CR in the first half", [(1_000, 0x0D), (1_001, 0x41)], true),
            ("a bare CR in the second half", [(cut + 5_000, 0x0D), (cut + 5_001, 0x41)], true),
            ("none", [], false),
        ]
        for (what, bytes, bare) in cases {
            var data = base
            set(&data, bytes)
            try data.write(to: URL(fileURLWithPath: path))
            let read = try InputFile.open(path, accepting: .regularFiles).readAllNotingBareCR(limit: 1 << 40)
            #expect(ReadAllTests.sameBytes(read.data, data), "\(what): the bytes")
            #expect(read.bareCR == bare, "\(what)")
            #expect(data.withUnsafeBytes { BareCR.present(in: $0) } == bare, "\(what): the definition")
        }
    }

    @Test func aSmallFileIsNotLookedAt() throws {
        let dir = try ReadAllTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/cal.ics"
        try Data("BEGIN:VCALENDAR\rEND:VCALENDAR\r".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try InputFile.open(path, accepting: .regularFiles).readAllNotingBareCR(limit: 1 << 20).bareCR == nil)
    }
}
