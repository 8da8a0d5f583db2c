import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalWriting

@Suite struct WritingTests {
    @Test func blocksAndInsertionPoint() {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nBEGIN:VALARM\r\nEND:VALARM\r\nEND:VEVENT\r\nbegin:vevent\r\nUID:b\r\nEND:VEVENT  \r\nEND:VCALENDAR\r\n"
        let calendar = CalendarText(bytes: Array(text.utf8))
        let blocks = calendar.veventBlocks().map { String(decoding: calendar.bytes[$0], as: UTF8.self) }
        #expect(blocks == [
            "BEGIN:VEVENT\r\nUID:a\r\nBEGIN:VALARM\r\nEND:VALARM\r\nEND:VEVENT\r\n",
            "begin:vevent\r\nUID:b\r\nEND:VEVENT  \r\n",
        ])
        #expect(calendar.insertionPoint() == text.utf8.count - "END:VCALENDAR\r\n".utf8.count)
        #expect(calendar.lineEnding == "\r\n")
        #expect(CalendarText(bytes: Array("BEGIN:VCALENDAR\nEND:VCALENDAR\n".utf8)).lineEnding == "\n")
    }

    /// A file of a MiB or more is searched for a bare CR and for the stored copies of the
    /// changes to come on another thread while it is read: the answers are the same.
    @Test func aLargeFileIsCheckedBesideTheRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-beside-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let events = (0..<9000).map { "BEGIN:VEVENT\r\nUID:e\($0)@t\r\nDTSTAMP:20240101T000000Z\r\nDTSTART:20240101T100000Z\r\nSUMMARY:Event \($0) of a long calendar\r\nEND:VEVENT\r\n" }
        func file(_ name: String, bareCR: Bool) throws -> String {
            var body = events
            if bareCR { body[3000] = body[3000].replacingOccurrences(of: "SUMMARY:", with: "X-A:a\rb\r\nSUMMARY:") }
            let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n" + body.joined() + "END:VCALENDAR\r\n"
            #expect(text.utf8.count >= CalendarFileEdit.searchBeside)
            try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/" + name))
            return dir + "/" + name
        }
        let window = TimeWindow(start: 1_704_096_000, end: 1_704_110_400)
        let identity = CalendarText.Identity(uid: "e4321@t", marker: nil)
        let refused = #expect(throws: ICalError.self) {
            try CalendarFileEdit(file: try file("cr.ics", bareCR: true), windows: [window], diagnostics: nil, expecting: [identity])
        }
        #expect(refused?.message.contains("uses CR-only line endings") == true)
        let edit = try CalendarFileEdit(file: try file("plain.ics", bareCR: false), windows: [window], diagnostics: nil, expecting: [identity])
        let plain = CalendarText(bytes: try Data(contentsOf: URL(fileURLWithPath: dir + "/plain.ics")))
        #expect(plain.candidateBlocks(uid: "e4321@t", marker: nil).count == 1)
        #expect(edit.foundBeside(identity) == plain.candidateBlocks(uid: "e4321@t", marker: nil), "found on the other thread")
    }

    @Test(arguments: [
        ("coolcal-invite-12@host", "coolcal-invite-12@host"),
        ("../../etc/passwd", "_._.._etc_passwd"),
        ("a/b\u{0}c\nd", "a_b_c_d"),
        ("..", "_."),
        ("", "event"),
        ("日本", "__"),
    ])
    func vdirNamesAreSafe(_ uid: String, _ name: String) {
        #expect(VdirNaming.safeName(uid) == name)
        #expect(!VdirNaming.safeName(uid).contains("/"))
    }

    @Test func titlesCannotInjectComponents() throws {
        let event = NewEvent(uid: "u", summary: "x\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:evil", start: .instant(0),
                             end: .instant(3600), sequence: 0, stamp: Date(timeIntervalSince1970: 0), inviteID: "1")
        let text = ICalWriter.calendar(containing: ICalWriter.vevent(event))
        let parsed = try ICalReader.read(Data(text.utf8), file: "x")
        #expect(parsed.events.count == 1)
        // libical writes CRLF inside text as \n (its one known normalisation): the text survives.
        #expect(parsed.events.first?.summary == "x\nEND:VEVENT\nBEGIN:VEVENT\nUID:evil")
    }

    @Test func allDayEventsAreWrittenAsDates() throws {
        let event = NewEvent(uid: "d", summary: "Day", start: .date(CivilDateTime(year: 2022, month: 8, day: 20)),
                             end: .date(CivilDateTime(year: 2022, month: 8, day: 21)), sequence: 0,
                             stamp: Date(timeIntervalSince1970: 0), inviteID: "2")
        let text = ICalWriter.vevent(event, lineEnding: "\n")
        #expect(text.contains("\nDTSTART;VALUE=DATE:20220820\n"))
        #expect(text.contains("\nDTEND;VALUE=DATE:20220821\n"))
        #expect(!text.contains("\r"))
    }
}
