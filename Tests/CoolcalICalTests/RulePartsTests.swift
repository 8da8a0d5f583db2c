import Foundation
import Testing
@testable import CoolcalICal

/// The one reading of an RRULE's text (`RuleParts`, issue #47). The expected values come
/// from RFC 5545 §3.3.10's grammar and prose, not from the reading's output:
/// - FREQ is required and has seven values. INTERVAL is a positive integer. COUNT is
///   1*DIGIT.
/// - A BY list has one or more items separated by commas. Its numbers have a sign only
///   where the grammar allows one (monthdaynum, yeardaynum, weeknum, setposday, and
///   weekdaynum's ordwk), have at most 2 or 3 digits, and stay in their ranges.
/// - A part MUST NOT occur more than once. UNTIL and COUNT MUST NOT both occur.
/// - Parts come in any order. WKST defaults to MO and INTERVAL to 1.
/// Names are upper case here: the reading is of libical's writing, which prints them that
/// way. The last test checks that libical really does.
@Suite struct RulePartsTests {
    @Test(arguments: RuleParts.Frequency.allCases)
    func everyFrequency(_ f: RuleParts.Frequency) throws {
        let names = [RuleParts.Frequency.secondly: "SECONDLY", .minutely: "MINUTELY", .hourly: "HOURLY", .daily: "DAILY",
                     .weekly: "WEEKLY", .monthly: "MONTHLY", .yearly: "YEARLY"]
        let parts = try #require(RuleParts("FREQ=" + (names[f] ?? "")))
        #expect(parts.frequency == f)
        #expect(parts.names == [.freq])
    }

    @Test func defaultsAreTheRFCs() throws {
        let parts = try #require(RuleParts("FREQ=WEEKLY"))
        #expect(parts.interval == 1)
        #expect(parts.count == nil)
        #expect(parts.weekStart == .monday)
        #expect(parts.byDay.isEmpty && parts.byMonthDay.isEmpty && parts.byMonth.isEmpty && parts.bySetPos.isEmpty)
        #expect(parts.byWeekNo.isEmpty && parts.byYearDay.isEmpty && parts.byHour.isEmpty)
        #expect(parts.byMinute.isEmpty && parts.bySecond.isEmpty)
    }

    @Test func freqIsRequiredAndOneOfSeven() {
        #expect(RuleParts("COUNT=3") == nil)
        #expect(RuleParts("FREQ=FORTNIGHTLY") == nil)
        #expect(RuleParts("FREQ=") == nil)
        #expect(RuleParts("FREQ=daily") == nil) // libical writes it upper case
    }

    @Test func everyPartInAnyOrder() throws {
        let text = "BYSETPOS=-1;WKST=SU;BYMONTH=3,12;BYWEEKNO=-53,53;BYYEARDAY=+1,-366;BYMONTHDAY=1,-31;"
            + "BYDAY=MO,2TU,-1FR;BYHOUR=0,23;BYMINUTE=0,59;BYSECOND=0,60;INTERVAL=2;COUNT=10;FREQ=YEARLY"
        let parts = try #require(RuleParts(text))
        #expect(parts.frequency == .yearly)
        #expect(parts.count == 10)
        #expect(parts.interval == 2)
        #expect(parts.weekStart == .sunday)
        #expect(parts.byDay == [RuleParts.Day(.monday), RuleParts.Day(.tuesday, 2), RuleParts.Day(.friday, -1)])
        #expect(parts.byMonthDay == [1, -31])
        #expect(parts.byYearDay == [1, -366])
        #expect(parts.byWeekNo == [-53, 53])
        #expect(parts.byMonth == [3, 12])
        #expect(parts.bySetPos == [-1])
        #expect(parts.byHour == [0, 23])
        #expect(parts.byMinute == [0, 59])
        #expect(parts.bySecond == [0, 60]) // 60: a leap second
        #expect(parts.names == [.freq, .count, .interval, .wkst, .bySecond, .byMinute, .byHour, .byDay, .byMonthDay,
                                .byYearDay, .byWeekNo, .byMonth, .bySetPos])
        #expect(parts.names.isSuperset(of: .byParts))
    }

    @Test func intervalIsAPositiveInteger() throws {
        #expect(try #require(RuleParts("FREQ=DAILY;INTERVAL=10000")).interval == 10_000)
        for bad in ["0", "-1", "+2", "2.5", "x", ""] {
            #expect(RuleParts("FREQ=DAILY;INTERVAL=" + bad) == nil, "INTERVAL=\(bad)")
        }
    }

    @Test func countIsDigits() throws {
        #expect(try #require(RuleParts("FREQ=DAILY;COUNT=12")).count == 12)
        #expect(try #require(RuleParts("FREQ=DAILY;COUNT=0")).count == 0) // 1*DIGIT; the walks decline it
        for bad in ["-1", "+1", "x", ""] {
            #expect(RuleParts("FREQ=DAILY;COUNT=" + bad) == nil, "COUNT=\(bad)")
        }
    }

    @Test func untilAndCountNotTogether() throws {
        #expect(RuleParts("FREQ=DAILY;UNTIL=20300101T000000Z;COUNT=3") == nil)
        let until = try #require(RuleParts("FREQ=DAILY;UNTIL=20300101T000000Z"))
        #expect(until.names == [.freq, .until])
        #expect(until.count == nil)
    }

    @Test func weekdays() throws {
        let codes: [(String, RuleParts.Weekday)] = [("SU", .sunday), ("MO", .monday), ("TU", .tuesday), ("WE", .wednesday),
                                                    ("TH", .thursday), ("FR", .friday), ("SA", .saturday)]
        for (code, day) in codes {
            #expect(try #require(RuleParts("FREQ=WEEKLY;WKST=" + code)).weekStart == day)
            #expect(try #require(RuleParts("FREQ=WEEKLY;BYDAY=" + code)).byDay == [RuleParts.Day(day)])
        }
        #expect(RuleParts("FREQ=WEEKLY;WKST=mo") == nil)
        #expect(RuleParts("FREQ=WEEKLY;WKST=MON") == nil)
        // libical's numbers (Sunday = 1 … Saturday = 7), and ISO 8601's order from 0.
        #expect(RuleParts.Weekday.sunday.rawValue == 1 && RuleParts.Weekday.saturday.rawValue == 7)
        #expect(RuleParts.Weekday.monday.fromMonday == 0 && RuleParts.Weekday.sunday.fromMonday == 6)
    }

    @Test func byDayOrdinals() throws {
        let parts = try #require(RuleParts("FREQ=YEARLY;BYDAY=+1MO,53SU,-53SA,20MO,-05TH"))
        #expect(parts.byDay == [RuleParts.Day(.monday, 1), RuleParts.Day(.sunday, 53), RuleParts.Day(.saturday, -53),
                                RuleParts.Day(.monday, 20), RuleParts.Day(.thursday, -5)])
        // Repeats are the walks' concern; the grammar allows them.
        #expect(try #require(RuleParts("FREQ=WEEKLY;BYDAY=MO,MO")).byDay == [RuleParts.Day(.monday), RuleParts.Day(.monday)])
        for bad in ["0MO", "54MO", "-54MO", "100MO", "+-1MO", "1", "M", "MON", "mo", "1 MO", "MO,", ",MO", "MO,,TU", ""] {
            #expect(RuleParts("FREQ=MONTHLY;BYDAY=" + bad) == nil, "BYDAY=\(bad)")
        }
    }

    /// Each numeric BY part: a value at each end of its range, and just past each end.
    @Test(arguments: [
        ("BYMONTHDAY", ["1", "31", "-1", "-31", "+7"], ["0", "32", "-32", "007", "x"]),
        ("BYYEARDAY", ["1", "366", "-366", "+1"], ["0", "367", "-367", "0001"]),
        ("BYWEEKNO", ["1", "53", "-53", "+1"], ["0", "54", "-54"]),
        ("BYMONTH", ["1", "12"], ["0", "13", "-1", "+1"]),
        ("BYSETPOS", ["1", "366", "-366"], ["0", "367", "-367"]),
        ("BYHOUR", ["0", "23"], ["24", "-1"]),
        ("BYMINUTE", ["0", "59"], ["60", "-1"]),
        ("BYSECOND", ["0", "60"], ["61", "-1"]),
    ])
    func numberRanges(part: String, good: [String], bad: [String]) {
        #expect(RuleParts("FREQ=YEARLY;\(part)=\(good.joined(separator: ","))") != nil, "\(part) \(good)")
        for value in bad + ["", "1,", ",1", "1,,2", "1 "] {
            #expect(RuleParts("FREQ=YEARLY;\(part)=\(value)") == nil, "\(part)=\(value)")
        }
    }

    @Test func aPartTwiceIsNotARule() {
        #expect(RuleParts("FREQ=DAILY;FREQ=WEEKLY") == nil)
        #expect(RuleParts("FREQ=DAILY;INTERVAL=2;INTERVAL=2") == nil)
        #expect(RuleParts("FREQ=WEEKLY;BYDAY=MO;BYDAY=TU") == nil)
        #expect(RuleParts("FREQ=YEARLY;BYWEEKNO=1;BYWEEKNO=2") == nil)
    }

    @Test func aPartWithoutValueSignIsNotARule() {
        #expect(RuleParts("FREQ=DAILY;BYDAY") == nil)
        #expect(RuleParts("FREQ") == nil)
    }

    @Test func otherNamesAreKeptUnread() throws {
        for text in ["RSCALE=GREGORIAN;FREQ=MONTHLY;SKIP=FORWARD", "FREQ=MONTHLY;X-NAME=anything", "FREQ=MONTHLY;byday=MO"] {
            let parts = try #require(RuleParts(text), "\(text)")
            #expect(parts.names == [.freq, .other], "\(text)")
            #expect(parts.frequency == .monthly)
            #expect(parts.byDay.isEmpty)
        }
    }

    @Test func emptyPartsAreSkipped() throws {
        #expect(try #require(RuleParts("FREQ=DAILY;")).names == [.freq])
    }

    /// The text the walks get is libical's writing of what the file says: lowercase names
    /// and values are printed upper case, and UNTIL is kept apart.
    @Test func readFromLibicalsWriting() throws {
        let body = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:r@x\r\nDTSTAMP:20200101T000000Z\r\n"
            + "DTSTART:20200106T090000Z\r\nRRULE:freq=monthly;byday=+2tu,-1fr;until=20301231T000000Z;wkst=su\r\n"
            + "END:VEVENT\r\nEND:VCALENDAR\r\n"
        let event = try #require(try ICalReader.read(Data(body.utf8), file: "r.ics").events.first)
        let rule = try #require(event.rules.first)
        let parts = try #require(rule.facts.parts)
        #expect(parts.frequency == .monthly)
        #expect(parts.byDay == [RuleParts.Day(.tuesday, 2), RuleParts.Day(.friday, -1)])
        #expect(parts.weekStart == .sunday)
        #expect(parts.names == [.freq, .byDay, .wkst])
        #expect(rule.until != nil)
    }

    /// libical takes some values past the RFC's ranges and writes them out again, such as
    /// month 13 and week 54. The reading has no parts for those rules, so no walk takes them.
    @Test func libicalsOutOfRangeValuesAreNotRead() throws {
        for rrule in ["FREQ=YEARLY;BYMONTH=13", "FREQ=YEARLY;BYWEEKNO=54"] {
            let body = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:r@x\r\nDTSTAMP:20200101T000000Z\r\n"
                + "DTSTART:20200106T090000Z\r\nRRULE:\(rrule)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            let event = try #require(try ICalReader.read(Data(body.utf8), file: "r.ics").events.first)
            let rule = try #require(event.rules.first, "\(rrule)")
            #expect(rule.textWithoutUntil == rrule)
            #expect(rule.facts.parts == nil, "\(rrule)")
        }
    }
}
