import CoolcalModel
import CoolcalICal
import Foundation
import Testing
@testable import CoolcalScanTests

/// Issue 14, class 10: leading blank lines and a malformed DTEND, read the same on the
/// pre-filtered path and the full parse (occurrences and warnings equal), and Outlook's
/// busy status (class 7b) surviving the pre-filter.
@Suite struct LenientReadingTests {
    static let event = "BEGIN:VEVENT\r\nUID:a\r\nDTSTART:20220820T170000Z\r\nDTEND:20220820T180000Z\r\nSUMMARY:kept\r\nEND:VEVENT\r\n"
    static let far = "BEGIN:VEVENT\r\nUID:far\r\nDTSTART:20200101T170000Z\r\nDTEND:20200101T180000Z\r\nSUMMARY:dropped\r\nEND:VEVENT\r\n"
    static let calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"

    @Test(arguments: [
        // Blank lines before BEGIN:VCALENDAR: CRLF, LF, spaces and tabs, after a BOM.
        "\r\n" + calendar + far + event + "END:VCALENDAR\r\n",
        "\n\n \t\n" + calendar + far + event + "END:VCALENDAR\n",
        "\u{FEFF}\r\n" + calendar + far + event + "END:VCALENDAR\r\n",
        // libical's own test data: a DTEND with a digit too many; and a date series' DTEND cut short.
        calendar + far + "BEGIN:VEVENT\r\nUID:bad\r\nDTSTART:20220820T100000Z\r\nDTEND:20220820T1100000Z\r\nSUMMARY:bad end\r\nEND:VEVENT\r\n"
            + "BEGIN:VEVENT\r\nUID:bad-far\r\nDTSTART:19970701T100000Z\r\nDTEND:19970701T1100000Z\r\nSUMMARY:old\r\nEND:VEVENT\r\n"
            + "BEGIN:VEVENT\r\nUID:day\r\nDTSTART;VALUE=DATE:20220820\r\nDTEND;VALUE=DATE:2022082\r\nSUMMARY:d\r\nEND:VEVENT\r\n"
            + "END:VCALENDAR\r\n",
        // Outlook's status, beside an event the filter drops.
        calendar + far + "BEGIN:VEVENT\r\nUID:free\r\nDTSTART:20220820T100000Z\r\nDTEND:20220820T110000Z\r\n"
            + "X-MICROSOFT-CDO-BUSYSTATUS:FREE\r\nSUMMARY:f\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
    ])
    func bothPathsAgree(_ text: String) throws {
        let window = TimeWindow(start: 1_660_953_600, end: 1_661_040_000) // 2022-08-20 UTC
        let full = try PreFilterTests().occurrences(text, window, filtered: false, tz: "UTC")
        let fast = try PreFilterTests().occurrences(text, window, filtered: true, tz: "UTC")
        #expect(full.0 == fast.0)
        #expect(full.1 == fast.1)
        #expect(!full.0.isEmpty)
        #expect(!full.0.contains { $0.contains("dropped") })
    }

    @Test func malformedEndsSayWhatWasAssumed() throws {
        let text = Self.calendar
            + "BEGIN:VEVENT\r\nUID:bad\r\nDTSTART:20220820T100000Z\r\nDTEND:20220820T1100000Z\r\nSUMMARY:bad end\r\nEND:VEVENT\r\n"
            + "BEGIN:VEVENT\r\nUID:day\r\nDTSTART;VALUE=DATE:20220820\r\nDTEND;VALUE=DATE:2022082\r\nEND:VEVENT\r\n"
            + "BEGIN:VEVENT\r\nUID:good\r\nDTSTART:20220820T100000Z\r\nDTEND:20220820T110000Z\r\nEND:VEVENT\r\n"
            + "END:VCALENDAR\r\n"
        let calendar = try ICalReader.read(Data(text.utf8), file: "x.ics")
        #expect(calendar.warnings.count == 2)
        #expect(calendar.warnings.first?.hasPrefix("x.ics: event \"bad end\" (bad): DTEND is not valid (") == true)
        #expect(calendar.warnings.first?.hasSuffix("); read as if it had none: it ends when it starts") == true)
        #expect(calendar.warnings.last?.hasPrefix("x.ics: event \"(no title)\" (day): DTEND is not valid (") == true)
        #expect(calendar.warnings.last?.hasSuffix("read as if it had none: it lasts one day") == true)
    }
}
