import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalCalendars
@testable import CoolcalTestSupport

/// Issue #28: RFC 5545 §3.3.10, "The DTSTART property value always counts as the first
/// occurrence." A COUNT rule whose DTSTART does not match it gives COUNT instances in
/// all, DTSTART first (as sabre/vobject and KCalendarCore count), not DTSTART plus COUNT.
/// Expected dates worked out by hand from a calendar.
@Suite struct CountedStartTests {
    func starts(_ lines: String..., from: String, to: String, tz: String = "UTC") throws -> [String] {
        let body = "BEGIN:VEVENT\r\nUID:c\r\nDTSTAMP:20240101T000000Z\r\n" + lines.map { $0 + "\r\n" }.joined() + "END:VEVENT\r\n"
        return try expand(body, from: from, to: to, tz: tz).occurrences.map(\.start.jsonString)
    }

    @Test func aFridayStartOfAMondayRuleIsTheFirstOfItsCount() throws {
        // The repro (peer-vobject/repro/count-unsynced-dtstart.ics): 2014-08-01 is a Friday.
        #expect(try starts("DTSTART:20140801T090000Z", "DTEND:20140801T100000Z", "RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=MO",
                           from: "2014-07-01T00:00:00Z", to: "2015-01-01T00:00:00Z")
                == ["2014-08-01T09:00:00Z", "2014-08-04T09:00:00Z", "2014-08-11T09:00:00Z", "2014-08-18T09:00:00Z"])
    }

    @Test func aMatchingStartIsCountedOnce() throws {
        // 2014-08-04 is a Monday: the rule's first instance is DTSTART itself.
        #expect(try starts("DTSTART:20140804T090000Z", "RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=MO",
                           from: "2014-07-01T00:00:00Z", to: "2015-01-01T00:00:00Z")
                == ["2014-08-04T09:00:00Z", "2014-08-11T09:00:00Z", "2014-08-18T09:00:00Z", "2014-08-25T09:00:00Z"])
    }

    @Test func aWindowAfterTheStartEndsAtTheSameInstance() throws {
        // Counting does not depend on where the window begins.
        #expect(try starts("DTSTART:20140801T090000Z", "RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=MO",
                           from: "2014-08-10T00:00:00Z", to: "2014-09-30T00:00:00Z")
                == ["2014-08-11T09:00:00Z", "2014-08-18T09:00:00Z"])
    }

    @Test func countOneIsTheStartAlone() throws {
        #expect(try starts("DTSTART:20140801T090000Z", "RRULE:FREQ=WEEKLY;COUNT=1;BYDAY=MO",
                           from: "2014-07-01T00:00:00Z", to: "2015-01-01T00:00:00Z") == ["2014-08-01T09:00:00Z"])
    }

    @Test func monthlyByMonthDayAllDayAndZoned() throws {
        // 10 January is not a 15th: 10 Jan, 15 Jan, 15 Feb.
        #expect(try expand(vevent("m", "DTSTART;VALUE=DATE:20240110", "RRULE:FREQ=MONTHLY;BYMONTHDAY=15;COUNT=3"),
                           from: "2024-01-01T00:00:00Z", to: "2025-01-01T00:00:00Z").occurrences.map(\.start.jsonString)
                == ["2024-01-10", "2024-01-15", "2024-02-15"])
        // 09:00 Berlin (CET, +01:00) on Wednesday 3 Jan 2024, then Tuesdays and Thursdays.
        #expect(try starts("DTSTART;TZID=Europe/Berlin:20240103T090000", "RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=3",
                           from: "2024-01-01T00:00:00Z", to: "2024-02-01T00:00:00Z")
                == ["2024-01-03T08:00:00Z", "2024-01-04T08:00:00Z", "2024-01-09T08:00:00Z"])
    }

    @Test func libicalAloneCountsTheSame() throws {
        // Without the civil walk every rule goes through libical's iterator: same answer.
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n"
            + vevent("c", "DTSTART:20140801T090000Z", "RRULE:FREQ=WEEKLY;COUNT=3;BYDAY=MO") + "END:VCALENDAR\r\n"
        let calendar = try ICalReader.read(Data(text.utf8), file: "c.ics")
        let window = TimeWindow(start: try utc("2014-07-01T00:00:00Z"), end: try utc("2015-01-01T00:00:00Z"))
        for civil in [true, false] {
            let found = CivilExpansion.expansion(calendar, window, zone: try #require(TimeZone(identifier: "UTC")),
                                                      civil: civil, maxSteps: 10_000, queryBudget: 100_000)
            #expect(found.occurrences.map { $0.split(separator: " ")[1] }
                    == ["2014-08-01T09:00:00Z", "2014-08-04T09:00:00Z", "2014-08-11T09:00:00Z"])
        }
    }
}
