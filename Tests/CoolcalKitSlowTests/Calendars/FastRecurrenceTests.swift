import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalCalendars
@testable import CoolcalTestSupport
@testable import CoolcalScanTests
@testable import CoolcalCalendarsTests

/// `CivilRecurrence` against libical's iterator, and whole expansions with it against
/// expansions with libical alone: thousands of random simple rules (seeded, so a
/// failure repeats), starts on Feb 29 and the 31st, in DST gaps and overlaps,
/// windows, zones, UNTIL as a date, in UTC and local, EXDATE and RDATE, and step
/// limits small enough to cut. libical is the reference throughout.
@Suite struct FastRecurrenceTests {
    /// The pre-filter tests' seeded SplitMix64, with the draws these tests make.
    struct Random {
        var seeded: PreFilterTests.Seeded
        init(state: UInt64) { seeded = PreFilterTests.Seeded(state: state) }
        mutating func next() -> UInt64 { seeded.next() }
        mutating func int(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(next() % UInt64(range.count))
        }
        mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }
        mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }
    }

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    static func stamp(_ t: CivilDateTime, date: Bool) -> String {
        let d = "\(t.year)" + two(t.month) + two(t.day)
        return date ? d : d + "T" + two(t.hour) + two(t.minute) + two(t.second)
    }

    /// A start biased to the awkward days: month ends, Feb 29, DST change days.
    static func start(_ r: inout Random, years: ClosedRange<Int>) -> CivilDateTime {
        var year = r.int(years)
        var (month, day) = (r.int(1...12), r.int(1...28))
        switch r.int(0...5) {
        case 0: day = CivilDateTime.daysInMonth(year, month)
        case 1:
            while !(year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) { year += 1 }
            (month, day) = (2, 29)
        case 2: (month, day) = r.pick([(3, 10), (3, 31), (3, 26), (11, 3), (10, 27), (10, 5), (4, 7)])
        default: break
        }
        let hour = r.pick([0, 1, 2, 2, 3, 9, 12, 23])
        return CivilDateTime(year: year, month: month, day: day, hour: hour, minute: r.pick([0, 30, 59]), second: r.pick([0, 0, 17]))
    }

    static func rule(_ r: inout Random, count: Bool) -> String {
        var text = "FREQ=" + r.pick(["DAILY", "WEEKLY", "MONTHLY", "YEARLY"])
        if r.chance(50) { text += ";INTERVAL=\(r.chance(90) ? r.int(1...5) : r.int(6...400))" }
        if count { text += ";COUNT=\(r.chance(80) ? r.int(1...60) : r.int(61...3000))" }
        if r.chance(30) { text += ";WKST=" + r.pick(["MO", "SU", "TH"]) }
        return text
    }

    static func read(_ body: String) throws -> ICalCalendar {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + body + "END:VCALENDAR\r\n"
        return try ICalReader.read(Data(text.utf8), file: "fast.ics")
    }

    @Test func iteratorGivesLibicalsStarts() throws {
        var r = Random(state: 15)
        var compared = 0, skipped = 0
        for _ in 0..<3000 {
            let isDate = r.chance(25)
            let start = Self.start(&r, years: 1900...2199)
            let count = r.chance(50)
            let text = Self.rule(&r, count: count)
            let property = "DTSTART" + (isDate ? ";VALUE=DATE:" : ":") + Self.stamp(start, date: isDate)
            let event = try #require(try Self.read(vevent("i", property, "RRULE:" + text)).events.first)
            let rule = try #require(event.rules.first)
            guard let civil = CivilRecurrence(rule: rule, start: start, isDate: isDate) else { continue }
            let libical = try #require(RecurrenceIterator(rule: rule, start: start, isDate: isDate))
            if !count && r.chance(60) {
                let target = CivilDateTime(utcSeconds: start.secondsAsUTC + Int64(r.int(0...400 * 86_400)) * Int64(r.int(1...60)))
                _ = libical.skip(to: target)
                _ = civil.skip(to: target)
                skipped += 1
            }
            var a: [CivilDateTime] = [], b: [CivilDateTime] = []
            for _ in 0..<400 {
                let x = civil.next(), y = libical.next()
                if let x { a.append(x) }
                if let y { b.append(y) }
                if x == nil && y == nil { break }
            }
            #expect(a == b, "\(text) from \(Self.stamp(start, date: isDate))")
            if a != b { return }
            compared += 1
        }
        // Most of the random rules are simple enough, and many were skipped into.
        #expect(compared > 2000)
        #expect(skipped > 400)
    }

    @Test func theSimplestRulesOnlyAreTakenOn() throws {
        func civil(_ rule: String, _ start: String) throws -> Bool {
            let event = try #require(try Self.read(vevent("t", "DTSTART:" + start, "RRULE:" + rule)).events.first)
            let parsed = try #require(event.rules.first)
            return CivilRecurrence(rule: parsed, start: try #require(event.start).fields, isDate: false) != nil
        }
        #expect(try civil("FREQ=WEEKLY;INTERVAL=2;COUNT=5", "20240105T090000"))
        #expect(try civil("FREQ=MONTHLY", "20240128T090000"))
        #expect(try !civil("FREQ=MONTHLY", "20240129T090000"))
        #expect(try !civil("FREQ=YEARLY", "20240229T090000"))
        #expect(try !civil("FREQ=WEEKLY;BYDAY=MO,WE", "20240101T090000"))
        #expect(try !civil("FREQ=HOURLY", "20240101T090000"))
        #expect(try !civil("FREQ=MONTHLY;BYSETPOS=1;BYDAY=MO", "20240101T090000"))
        #expect(try !civil("FREQ=DAILY", "18991231T090000"))
        #expect(try !civil("FREQ=DAILY", "20161231T235960"))
    }
    /// One expansion of `body`, with civil rules or with libical alone (`CivilExpansion`:
    /// CountedStartTests, in the quick tier, uses it too).
    static func expansion(_ calendar: ICalCalendar, _ window: TimeWindow, zone: TimeZone, civil: Bool,
                          maxSteps: Int, queryBudget: Int) -> (occurrences: [String], warnings: [String]) {
        CivilExpansion.expansion(calendar, window, zone: zone, civil: civil, maxSteps: maxSteps, queryBudget: queryBudget)
    }

    @Test func expansionsAreTheSameAsLibicals() throws {
        var r = Random(state: 2026)
        let zones = ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Tokyo", "UTC"]
        var nonEmpty = 0, cut = 0
        for round in 0..<300 {
            // Ten series per calendar, so that the query's step budget is shared.
            var body = ""
            for n in 0..<10 {
                let isDate = r.chance(15)
                let start = Self.start(&r, years: 1990...2040)
                let zone: String? = isDate || r.chance(20) ? nil : r.pick(zones)
                let tzid = zone.map { ";TZID=" + $0 } ?? ""
                var lines = ["DTSTART" + (isDate ? ";VALUE=DATE:" : tzid + ":") + Self.stamp(start, date: isDate)]
                lines.append(isDate ? "DURATION:P\(r.int(1...3))D" : "DURATION:PT\(r.pick([30, 60, 90, 1440]))M")
                let count = r.chance(40)
                var rule = "RRULE:" + Self.rule(&r, count: count)
                if !count && r.chance(60) {
                    let until = start.addingDays(r.int(-3...4000))
                    switch r.int(0...2) {
                    case 0: rule += ";UNTIL=" + Self.stamp(until, date: true)
                    case 1: rule += ";UNTIL=" + Self.stamp(until, date: isDate) + (isDate ? "" : "Z")
                    default: rule += ";UNTIL=" + Self.stamp(until, date: isDate)
                    }
                }
                lines.append(rule)
                if r.chance(40) {
                    let ex = start.addingDays(r.pick([0, 1, 7, 14, 28, 31, 365]) * r.int(0...3))
                    lines.append("EXDATE" + (isDate ? ";VALUE=DATE:" : tzid + ":") + Self.stamp(ex, date: isDate))
                }
                if r.chance(25) {
                    let rd = start.addingDays(r.int(1...900))
                    lines.append("RDATE" + (isDate ? ";VALUE=DATE:" : tzid + ":") + Self.stamp(rd, date: isDate))
                }
                body += "BEGIN:VEVENT\r\nUID:s\(round)-\(n)\r\nDTSTAMP:20240101T000000Z\r\n"
                    + lines.map { $0 + "\r\n" }.joined() + "END:VEVENT\r\n"
            }
            let calendar = try Self.read(body)
            let from = CivilDateTime(year: r.int(1989...2045), month: r.int(1...12), day: r.int(1...28)).secondsAsUTC
            let lengths: [Int64] = [21_600, 86_400, 3_456_000, 34_560_000]
            let length: Int64 = r.pick(lengths)
            let window = TimeWindow(start: from, end: from + length)
            let zone = try #require(TimeZone(identifier: r.pick(zones)))
            let maxSteps = r.chance(30) ? r.int(1...300) : 400_000
            let queryBudget = r.chance(20) ? r.int(10...3_000) : 1_000_000
            let fast = Self.expansion(calendar, window, zone: zone, civil: true, maxSteps: maxSteps, queryBudget: queryBudget)
            let slow = Self.expansion(calendar, window, zone: zone, civil: false, maxSteps: maxSteps, queryBudget: queryBudget)
            #expect(fast.occurrences == slow.occurrences, "round \(round)")
            #expect(fast.warnings == slow.warnings, "round \(round)")
            if fast.occurrences != slow.occurrences || fast.warnings != slow.warnings { return }
            if !fast.occurrences.isEmpty { nonEmpty += 1 }
            if fast.occurrences.contains(where: { !$0.hasSuffix(" -") }) { cut += 1 }
        }
        // The windows found instances, and limits cut some series short.
        #expect(nonEmpty > 150)
        #expect(cut > 10)
    }
    /// A counted series long before the window is passed over at once, not step by step:
    /// at every step budget around the exact one it needs, for the query and per series,
    /// it gives what libical's walk gives (the same instances, the same cut, the same warning).
    @Test func countedSeriesPassedOverAtOnceSpendTheSameSteps() throws {
        let body = ["RRULE:FREQ=DAILY;COUNT=100", "RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=40", "RRULE:FREQ=MONTHLY;COUNT=30"]
            .enumerated().map { n, rule in
                "BEGIN:VEVENT\r\nUID:p\(n)\r\nDTSTAMP:20240101T000000Z\r\nDTSTART:20240101T090000Z\r\nDURATION:PT1H\r\n\(rule)\r\nEND:VEVENT\r\n"
            }.joined()
        let calendar = try Self.read(body)
        let zone = try #require(TimeZone(identifier: "UTC"))
        // 2024-03-01 .. 03-05: the daily series' instances 60–64 (the 61st to 65th step).
        let window = TimeWindow(start: try utc("2024-03-01T00:00:00Z"), end: try utc("2024-03-05T00:00:00Z"))
        var cut = 0
        for budget in 55...75 {
            let perQuery = Self.expansion(calendar, window, zone: zone, civil: true, maxSteps: 400_000, queryBudget: budget)
            #expect(perQuery == Self.expansion(calendar, window, zone: zone, civil: false, maxSteps: 400_000, queryBudget: budget),
                    "query budget \(budget)")
            let perSeries = Self.expansion(calendar, window, zone: zone, civil: true, maxSteps: budget, queryBudget: 1_000_000)
            #expect(perSeries == Self.expansion(calendar, window, zone: zone, civil: false, maxSteps: budget, queryBudget: 1_000_000),
                    "series limit \(budget)")
            if perQuery.warnings.contains(where: { $0.contains("stopped expanding") }) { cut += 1 }
        }
        #expect(cut > 3, "some budgets cut the expansion")
    }

    /// Tied copies share their span with other events' instances: each instance is
    /// given once (the first copy's), every other event's kept, in start, then UID order.
    @Test func copiesAmongSharedSpansAreGivenOnce() throws {
        func event(_ uid: String, _ summary: String, _ more: String...) -> String {
            "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20220101T000000Z\r\nDTSTART:20220820T150000Z\r\n"
                + "DURATION:PT1H\r\nSUMMARY:\(summary)\r\n" + more.map { $0 + "\r\n" }.joined() + "END:VEVENT\r\n"
        }
        let body = event("b@t", "First") + event("a@t", "Other") + event("b@t", "Second")
            + event("c@t", "Daily", "RRULE:FREQ=DAILY;COUNT=2") + event("c@t", "Daily again", "RRULE:FREQ=DAILY;COUNT=2")
        let window = TimeWindow(start: try utc("2022-08-20T00:00:00Z"), end: try utc("2022-08-23T00:00:00Z"))
        let found = OccurrenceExpander(options: ExpansionOptions(floatingZone: try #require(TimeZone(identifier: "UTC"))),
                                       diagnostics: Diagnostics())
            .occurrences(in: window, calendars: [LoadedCalendar(name: "c.ics", color: nil, files: [try Self.read(body)])])
        #expect(found.map { "\($0.uid ?? "-") \($0.start.jsonString) \($0.summary ?? "-")" } == [
            "a@t 2022-08-20T15:00:00Z Other",
            "b@t 2022-08-20T15:00:00Z First",
            "c@t 2022-08-20T15:00:00Z Daily",
            "c@t 2022-08-21T15:00:00Z Daily",
        ])
    }
}
