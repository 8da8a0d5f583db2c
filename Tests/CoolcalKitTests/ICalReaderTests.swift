import Foundation
import Testing
@testable import CoolcalKit

@Suite struct ICalReaderTests {
    func error(_ text: String) -> String? {
        do {
            _ = try ICalReader.read(Data(text.utf8), file: "x.ics")
            return nil
        } catch let e as ICalError {
            return e.message
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        ("hello world\n", "not an iCalendar file (line 1 is not BEGIN:VCALENDAR)"),
        ("{\"title\": 1}", "not an iCalendar file (line 1 is not BEGIN:VCALENDAR)"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nDTSTART:20240101T000000Z\nEND:VEVENT\nBEGIN:VEVENT\nUID:b\n",
         "not a readable iCalendar file: truncated (BEGIN:VCALENDAR has no END:VCALENDAR)"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nEND:VEVENT\n",
         "not a readable iCalendar file: truncated (BEGIN:VCALENDAR has no END:VCALENDAR)"),
        ("BEGIN:VTODO\nUID:a\nEND:VTODO\n", "not an iCalendar file (no VCALENDAR)"),
    ])
    func unreadableCalendarsAreErrors(_ text: String, _ message: String) {
        #expect(error(text) == message)
    }

    @Test func binaryAndUTF16() {
        let utf16 = Data("BEGIN:VCALENDAR\r\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        #expect(throws: ICalError(file: "u.ics", message: "not an iCalendar file (it contains NUL bytes: binary or UTF-16?)")) {
            try ICalReader.read(utf16, file: "u.ics")
        }
    }

    @Test func emptyFileIsAnEmptyCalendar() throws {
        #expect(try ICalReader.read(Data(), file: "e.ics").events.isEmpty)
        #expect(try ICalReader.read(Data("\r\n \n".utf8), file: "e.ics").events.isEmpty)
    }

    @Test func severalCalendarsInOneFileAndProperties() throws {
        let text = """
        BEGIN:VCALENDAR
        X-WR-CALNAME:Work
        X-APPLE-CALENDAR-COLOR:#1E90FF
        BEGIN:VEVENT
        UID:a
        SUMMARY:Caf\u{e9} \\, ok
        DTSTART:20240101T100000Z
        END:VEVENT
        END:VCALENDAR
        BEGIN:VCALENDAR
        BEGIN:VEVENT
        UID:b
        DTSTART;VALUE=DATE:20240102
        STATUS:cancelled
        TRANSP:TRANSPARENT
        END:VEVENT
        END:VCALENDAR

        """
        let calendar = try ICalReader.read(Data(text.utf8), file: "m.ics")
        #expect(calendar.name == "Work")
        #expect(calendar.color == "#1E90FF")
        #expect(calendar.events.map { $0.uid ?? "" } == ["a", "b"])
        #expect(calendar.events[0].summary == "Café , ok")
        #expect(calendar.events[1].status == "CANCELLED")
        #expect(calendar.events[1].transparent)
        #expect(calendar.events[1].start?.isDate == true)
    }

    @Test func badValuesBecomeProblemsNotCrashes() throws {
        let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nDTSTART:notadate\nRRULE:FREQ=SOMETIMES\nEND:VEVENT\nEND:VCALENDAR\n"
        let calendar = try ICalReader.read(Data(text.utf8), file: "b.ics")
        #expect(calendar.events.count == 1)
        #expect(calendar.events[0].start == nil)
        #expect(!calendar.events[0].problems.isEmpty)
    }
}
