import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalCalendars
@testable import CoolcalTestSupport

/// Issue #28: `FREQ=YEARLY;BYWEEKNO=n` without BYDAY is valid (RFC 5545 §3.3.10): the
/// weekday and time come from DTSTART. libical refuses to expand it, so later years read
/// as free; coolcal walks it itself (`WeekNumberRecurrence`). Expected dates are ISO 8601
/// week dates (checked against Python's `date.fromisocalendar`), worked by hand for WKST=SU.
@Suite struct WeekNumberTests {
    func starts(_ lines: String..., from: String, to: String, tz: String = "UTC") throws -> (starts: [String], warnings: [String]) {
        let body = "BEGIN:VEVENT\r\nUID:w\r\nDTSTAMP:20110101T000000Z\r\n" + lines.map { $0 + "\r\n" }.joined() + "END:VEVENT\r\n"
        let r = try expand(body, from: from, to: to, tz: tz)
        return (r.occurrences.map(\.start.jsonString), r.warnings)
    }

    @Test func mondayOfWeekTwentyEveryYear() throws {
        // The repro (peer-vobject/repro/byweekno-no-byday.ics).
        let r = try starts("DTSTART:20110516T090000Z", "DTEND:20110516T100000Z", "RRULE:FREQ=YEARLY;BYWEEKNO=20",
                           from: "2011-01-01T00:00:00Z", to: "2017-01-01T00:00:00Z")
        #expect(r.starts == ["2011-05-16T09:00:00Z", "2012-05-14T09:00:00Z", "2013-05-13T09:00:00Z",
                             "2014-05-12T09:00:00Z", "2015-05-11T09:00:00Z", "2016-05-16T09:00:00Z"])
        #expect(r.warnings.isEmpty)
    }

    @Test func aLaterWindowIsReachedDirectly() throws {
        let r = try starts("DTSTART:20110516T090000Z", "RRULE:FREQ=YEARLY;BYWEEKNO=20",
                           from: "2024-01-01T00:00:00Z", to: "2026-01-01T00:00:00Z")
        #expect(r.starts == ["2024-05-13T09:00:00Z", "2025-05-12T09:00:00Z"])
    }

    @Test func theLastWeekIsFiftyTwoOrFiftyThree() throws {
        // 2015-12-28 is Monday of ISO week 53; 2020 has 53 weeks, 2016-2019 have 52.
        let r = try starts("DTSTART;VALUE=DATE:20151228", "RRULE:FREQ=YEARLY;BYWEEKNO=-1",
                           from: "2015-01-01T00:00:00Z", to: "2021-06-01T00:00:00Z")
        #expect(r.starts == ["2015-12-28", "2016-12-26", "2017-12-25", "2018-12-24", "2019-12-23", "2020-12-28"])
    }

    @Test func weekFiftyThreeOnlyInYearsThatHaveIt() throws {
        // Thursday 2015-12-31 in week 53; the next years with a week 53 are 2020 and 2026.
        let r = try starts("DTSTART:20151231T120000Z", "RRULE:FREQ=YEARLY;BYWEEKNO=53;COUNT=3",
                           from: "2015-01-01T00:00:00Z", to: "2030-01-01T00:00:00Z")
        #expect(r.starts == ["2015-12-31T12:00:00Z", "2020-12-31T12:00:00Z", "2026-12-31T12:00:00Z"])
    }

    @Test func weekOneMayBeginInTheYearBefore() throws {
        // Monday of week 1: 2018-12-31 (of 2019), 2019-12-30 (of 2020), then 4 and 3 January.
        let r = try starts("DTSTART:20181231T080000Z", "RRULE:FREQ=YEARLY;BYWEEKNO=1",
                           from: "2018-06-01T00:00:00Z", to: "2022-06-01T00:00:00Z")
        #expect(r.starts == ["2018-12-31T08:00:00Z", "2019-12-30T08:00:00Z", "2021-01-04T08:00:00Z", "2022-01-03T08:00:00Z"])
    }

    @Test func weeksStartOnWKST() throws {
        // With Sunday weeks, week 1 of 2026 begins Sunday 4 January (28 Dec-3 Jan holds only
        // three days of 2026), so Monday of week 2 is 12 January; with Monday weeks it is 5 January.
        let sunday = try starts("DTSTART:20250106T090000Z", "RRULE:FREQ=YEARLY;BYWEEKNO=2;WKST=SU",
                                from: "2025-01-01T00:00:00Z", to: "2027-06-01T00:00:00Z")
        #expect(sunday.starts == ["2025-01-06T09:00:00Z", "2026-01-12T09:00:00Z", "2027-01-11T09:00:00Z"])
        let monday = try starts("DTSTART:20250106T090000Z", "RRULE:FREQ=YEARLY;BYWEEKNO=2",
                                from: "2025-01-01T00:00:00Z", to: "2027-06-01T00:00:00Z")
        #expect(monday.starts == ["2025-01-06T09:00:00Z", "2026-01-05T09:00:00Z", "2027-01-11T09:00:00Z"])
    }

    @Test func intervalUntilCountAndZone() throws {
        let every2 = try starts("DTSTART:20110516T090000Z", "RRULE:FREQ=YEARLY;BYWEEKNO=20;INTERVAL=2",
                                from: "2011-01-01T00:00:00Z", to: "2016-01-01T00:00:00Z")
        #expect(every2.starts == ["2011-05-16T09:00:00Z", "2013-05-13T09:00:00Z", "2015-05-11T09:00:00Z"])
        let until = try starts("DTSTART:20110516T090000Z", "RRULE:FREQ=YEARLY;BYWEEKNO=20;UNTIL=20130513T090000Z",
                               from: "2011-01-01T00:00:00Z", to: "2020-01-01T00:00:00Z")
        #expect(until.starts == ["2011-05-16T09:00:00Z", "2012-05-14T09:00:00Z", "2013-05-13T09:00:00Z"])
        // DTSTART (Monday 3 January 2011) is not in week 20: it is the first of COUNT=3.
        let counted = try starts("DTSTART:20110103T090000Z", "RRULE:FREQ=YEARLY;BYWEEKNO=20;COUNT=3",
                                 from: "2011-01-01T00:00:00Z", to: "2020-01-01T00:00:00Z")
        #expect(counted.starts == ["2011-01-03T09:00:00Z", "2011-05-16T09:00:00Z", "2012-05-14T09:00:00Z"])
        // 09:00 in Berlin is 07:00Z in May (CEST).
        let zoned = try starts("DTSTART;TZID=Europe/Berlin:20110516T090000", "RRULE:FREQ=YEARLY;BYWEEKNO=20",
                               from: "2012-01-01T00:00:00Z", to: "2013-01-01T00:00:00Z")
        #expect(zoned.starts == ["2012-05-14T07:00:00Z"])
    }

    @Test func otherShapesAreNotTakenOn() throws {
        func taken(_ rule: String) throws -> Bool {
            let body = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
                + vevent("x", "DTSTART:20110516T090000Z", "RRULE:" + rule) + "END:VCALENDAR\r\n"
            let event = try #require(try ICalReader.read(Data(body.utf8), file: "x.ics").events.first)
            let parsed = try #require(event.rules.first)
            return WeekNumberRecurrence(rule: parsed, start: try #require(event.start).fields, isDate: false) != nil
        }
        #expect(try taken("FREQ=YEARLY;BYWEEKNO=20,-1;WKST=SU;COUNT=4"))
        #expect(try !taken("FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO"))
        #expect(try !taken("FREQ=YEARLY;BYWEEKNO=20;BYMONTH=5"))
        #expect(try !taken("FREQ=YEARLY"))
    }
}
