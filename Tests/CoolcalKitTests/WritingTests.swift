import Foundation
import Testing
@testable import CoolcalKit

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
