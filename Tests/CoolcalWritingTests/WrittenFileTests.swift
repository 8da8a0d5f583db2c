import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalSupport
@testable import CoolcalWriting

/// The read-back of a written temporary file: it must be the edit byte for byte and
/// read as a calendar, or nothing is replaced.
@Suite struct WrittenFileTests {
    static let calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
        + "BEGIN:VTIMEZONE\r\nTZID:Custom\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:+0500\r\n"
        + "TZOFFSETTO:+0500\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"
        + "BEGIN:VEVENT\r\nUID:a\r\nDTSTART:20240101T100000Z\r\nSUMMARY:A\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    static let block = Array("BEGIN:VEVENT\r\nUID:new\r\nDTSTART:20240102T100000Z\r\nSUMMARY:New\r\nEND:VEVENT\r\n".utf8)

    /// The calendar's file, an edit of it, and the splice that adds `insert` before its END:VCALENDAR.
    static func setUp(_ insert: [UInt8]) throws -> (edit: CalendarFileEdit, splice: Splice, temp: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-written-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let data = Data(calendar.utf8)
        try data.write(to: URL(fileURLWithPath: dir + "/cal.ics"))
        let edit = try CalendarFileEdit(file: dir + "/cal.ics", windows: [TimeWindow(start: 1_704_067_200, end: 1_704_326_400)], diagnostics: nil)
        let at = calendar.utf8.count - "END:VCALENDAR\r\n".utf8.count
        let splice = try #require(Splice(base: data, cuts: [(at..<at, insert)]))
        return (edit, splice, dir + "/.cal.ics.tmp")
    }

    func failure(_ body: () throws -> Void) -> String? {
        do { try body() } catch let error as WriteError { return error.message } catch { return "\(error)" }
        return nil
    }

    @Test func theEditAsWrittenReads() throws {
        let (edit, splice, temp) = try Self.setUp(Self.block)
        try splice.data.write(to: URL(fileURLWithPath: temp))
        // The window (2024-01-01 to 2024-01-04) holds both events; the edit only added
        // before END:VCALENDAR, so what libical parses of the temp file is what it added,
        // in the file's zones (the event read is not parsed again).
        let written = try WrittenFile.read(temp, as: splice, for: edit)
        #expect(written.events.compactMap(\.uid) == ["new"])
        #expect(written.zones.zone(for: "Custom") != nil)
        // An edit before the checkpoint (an empty cut at the start): the whole file.
        let whole = try #require(Splice(base: splice.base, cuts: [(0..<0, [])] + splice.cuts))
        #expect(try WrittenFile.read(temp, as: whole, for: edit).events.compactMap(\.uid).sorted() == ["a", "new"])
    }

    @Test func aByteOtherThanTheEditIsRefused() throws {
        let (edit, splice, temp) = try Self.setUp(Self.block)
        var wrong = [UInt8](splice.data)
        wrong[wrong.count / 2] ^= 0x20
        try Data(wrong).write(to: URL(fileURLWithPath: temp))
        #expect(failure { _ = try WrittenFile.read(temp, as: splice, for: edit) }
                == "the temporary file does not hold what was written; not modified")
        // Cut short: the bytes it has are right, the rest is missing.
        try Data([UInt8](splice.data).dropLast(3)).write(to: URL(fileURLWithPath: temp))
        #expect(failure { _ = try WrittenFile.read(temp, as: splice, for: edit) }
                == "the temporary file does not hold what was written; not modified")
    }

    @Test func anEditThatWouldNotParseIsRefused() throws {
        let (edit, splice, temp) = try Self.setUp(Array("X-NOTE:a\u{0}b\r\n".utf8))
        try splice.data.write(to: URL(fileURLWithPath: temp))
        #expect(failure { _ = try WrittenFile.read(temp, as: splice, for: edit) } == "the edited calendar would not parse; not modified")
    }
}
