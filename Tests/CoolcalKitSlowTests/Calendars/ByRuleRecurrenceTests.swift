import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalCalendars
@testable import CoolcalTestSupport

/// `ByRuleRecurrence` against libical's iterator: thousands of random BY-rules (seeded,
/// so a failure repeats) from starts on month ends, Feb 29 and DST change days, with
/// negative positions, WKST, INTERVAL, COUNT and skips; whole expansions with the civil
/// walks on and off over windows, zones, UNTIL, EXDATE and RDATE, with limits that cut;
/// and the walker being the one chosen for the common shapes. libical is the reference.
@Suite struct ByRuleRecurrenceTests {
    typealias Random = FastRecurrenceTests.Random
    static let weekdays = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    /// A few distinct items of `pool`, in a random order.
    static func some<T: Equatable>(_ r: inout Random, _ pool: [T], _ most: Int) -> [T] {
        var out: [T] = []
        for _ in 0..<r.int(1...most) {
            let item = r.pick(pool)
            if !out.contains(item) { out.append(item) }
        }
        return out
    }

    static func list(_ items: [Int]) -> String { items.map(String.init).joined(separator: ",") }

    /// A random rule of the shapes the walker takes, now and then one it must refuse.
    static func rule(_ r: inout Random, count: Bool) -> String {
        let freq = r.pick(["DAILY", "WEEKLY", "WEEKLY", "MONTHLY", "MONTHLY", "YEARLY"])
        var text = "FREQ=" + freq
        if r.chance(40) { text += ";INTERVAL=\(r.chance(85) ? r.int(1...4) : r.int(5...30))" }
        if count { text += ";COUNT=\(r.chance(80) ? r.int(1...60) : r.int(61...500))" }
        if r.chance(40) { text += ";WKST=" + r.pick(weekdays) }
        let days = some(&r, weekdays, 7).joined(separator: ",")
        switch freq {
        case "DAILY":
            if r.chance(85) { text += ";BYDAY=" + days }
            if r.chance(30) || !text.contains("BYDAY") { text += ";BYMONTH=" + list(some(&r, Array(1...12), 4)) }
        case "WEEKLY":
            text += ";BYDAY=" + days
            if r.chance(15) { text += ";BYMONTH=" + list(some(&r, Array(1...12), 4)) }
        case "MONTHLY":
            let ordinals = some(&r, [-5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 0, 0], 2)
            let monthDays = some(&r, r.chance(70) ? Array(-28...28).filter { $0 != 0 } : [29, 30, 31, -29, -30, -31, 1, -1], 3)
            switch r.int(0...5) {
            case 0: text += ";BYDAY=" + ordinals.map { ($0 == 0 ? "" : "\($0)") + r.pick(weekdays) }.joined(separator: ",")
            case 1: text += ";BYMONTHDAY=" + list(monthDays)
            case 2: text += ";BYDAY=" + days + ";BYSETPOS=" + list(some(&r, [1, 2, 3, -1, -2, -3], 2))
            case 3: text += ";BYMONTHDAY=" + list(monthDays) + ";BYSETPOS=" + list(some(&r, [1, -1, 2, -2], 2))
            case 4: text += ";BYDAY=" + days + ";BYMONTHDAY=" + list(some(&r, Array(1...28), 6))
            default: text += ";BYMONTH=" + list(some(&r, Array(1...12), 5))
            }
            if r.chance(20) && !text.contains("BYMONTH=") { text += ";BYMONTH=" + list(some(&r, Array(1...12), 6)) }
        default:
            text += ";BYMONTH=" + list(some(&r, Array(1...12), 3))
            switch r.int(0...3) {
            case 0: text += ";BYDAY=" + some(&r, [-1, -2, 1, 2, 3, 4, 5, -5, 0], 2).map { ($0 == 0 ? "" : "\($0)") + r.pick(weekdays) }.joined(separator: ",")
            case 1: text += ";BYMONTHDAY=" + list(some(&r, Array(-28...28).filter { $0 != 0 }, 3))
            case 2: text += ";BYDAY=" + r.pick(weekdays) + ";BYMONTHDAY=" + list(some(&r, Array(1...28), 7))
            default: break
            }
            if r.chance(25) { text += ";BYSETPOS=" + list(some(&r, [1, 2, -1, -2, 3, 5, -7], 2)) }
        }
        // Shapes to refuse: the walker must say no, not guess.
        if r.chance(4) { text += r.pick([";BYHOUR=9", ";BYMINUTE=15", ";BYYEARDAY=100", ";BYSETPOS=1"]) }
        return text
    }

    static func event(_ text: String, _ start: CivilDateTime, isDate: Bool) throws -> ICalRule? {
        let property = "DTSTART" + (isDate ? ";VALUE=DATE:" : ":") + FastRecurrenceTests.stamp(start, date: isDate)
        let calendar = try FastRecurrenceTests.read(vevent("b", property, "RRULE:" + text))
        return calendar.events.first?.rules.first
    }

    /// Both iterators' first `limit` starts (after the same skip, when given); nil when
    /// the walker refuses the rule. Where libical refuses one the walker takes, the
    /// walker's starts are set against none; `skip` must work (or not) for both alike.
    static func compare(_ rule: ICalRule, _ start: CivilDateTime, isDate: Bool, skip: CivilDateTime?, limit: Int = 300)
        -> (ours: [CivilDateTime], libical: [CivilDateTime])? {
        guard let ours = ByRuleRecurrence(rule: rule, start: start, isDate: isDate) else { return nil }
        guard let libical = RecurrenceIterator(rule: rule, start: start, isDate: isDate) else {
            return ([start] + (ours.next().map { [$0] } ?? []), [])
        }
        if let skip {
            let a = ours.skip(to: skip), b = libical.skip(to: skip)
            if a != b { return ([], [start]) }
        }
        var a: [CivilDateTime] = [], b: [CivilDateTime] = []
        for _ in 0..<limit {
            let x = ours.next(), y = libical.next()
            if let x { a.append(x) }
            if let y { b.append(y) }
            if x == nil && y == nil { break }
        }
        return (a, b)
    }

    @Test func iteratorGivesLibicalsStarts() throws {
        var r = Random(state: 30)
        var compared = 0, skipped = 0, refused = 0, counted = 0, unmatchedStarts = 0
        for _ in 0..<4000 {
            let isDate = r.chance(20)
            let start = FastRecurrenceTests.start(&r, years: 1900...2199)
            let count = r.chance(35)
            let text = Self.rule(&r, count: count)
            guard let rule = try Self.event(text, start, isDate: isDate) else { continue }
            var skip: CivilDateTime?
            if !count && r.chance(50) {
                let seconds = Int64(r.int(0...400 * 86_400)) * Int64(r.int(1...40)) - (r.chance(10) ? 86_400 * 30 : 0)
                skip = CivilDateTime(utcSeconds: start.secondsAsUTC + seconds)
            }
            guard let (a, b) = Self.compare(rule, start, isDate: isDate, skip: skip) else {
                refused += 1
                continue
            }
            #expect(a == b, "\(text) from \(FastRecurrenceTests.stamp(start, date: isDate))\(skip.map { " skipped to \($0.basicDateTime)" } ?? "")")
            if a != b { return }
            compared += 1
            if skip != nil { skipped += 1 }
            if count { counted += 1 }
            if a.first.map({ $0 != (isDate ? start.dateOnly : start) }) == true { unmatchedStarts += 1 }
        }
        print("by-rule iterator: seed 30, 4000 random rules, \(compared) compared with libical (\(skipped) after a skip, "
              + "\(counted) with COUNT, \(unmatchedStarts) from a start that is not an instance), \(refused) left to libical")
        #expect(compared > 3000)
        #expect(skipped > 700)
        #expect(counted > 800)
        #expect(unmatchedStarts > 1000)
        #expect(refused > 50, "the shapes the walker refuses were drawn")
    }

    /// The common shapes are walked here, not silently handed back to libical; the
    /// others are refused.
    @Test func theCommonShapesAreWalkedHere() throws {
        let start = CivilDateTime(year: 2024, month: 1, day: 5, hour: 9)
        func chosen(_ text: String, civil: Bool = true) throws -> RuleIterator? {
            let rule = try #require(try Self.event(text, start, isDate: false))
            return RecurrenceSet.iterator(for: rule, from: start, isDate: false, civilRules: civil)
        }
        for text in ["FREQ=WEEKLY;BYDAY=TU", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE,FR;WKST=SU", "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR",
                     "FREQ=MONTHLY;BYDAY=2TU", "FREQ=MONTHLY;BYDAY=-1FR;COUNT=10", "FREQ=MONTHLY;BYDAY=TU", "FREQ=MONTHLY;BYMONTHDAY=-1",
                     "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "FREQ=MONTHLY;BYMONTHDAY=1,15;BYSETPOS=2",
                     "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "FREQ=YEARLY;BYMONTH=11;BYMONTHDAY=11", "FREQ=YEARLY;BYMONTH=1,7",
                     "FREQ=YEARLY;BYMONTH=3;BYDAY=SU;BYSETPOS=-1",
                     "FREQ=MONTHLY;BYMONTH=1,4,7,10"] {
            #expect(try chosen(text) is ByRuleRecurrence, "\(text)")
            #expect(try chosen(text, civil: false) is RecurrenceIterator, "\(text) with civil rules off")
        }
        #expect(try chosen("FREQ=WEEKLY;COUNT=3") is CivilRecurrence)
        for text in ["FREQ=WEEKLY;BYDAY=TU;BYHOUR=9,17", "FREQ=YEARLY;BYYEARDAY=100", "FREQ=YEARLY;BYDAY=20MO",
                     "FREQ=MONTHLY;BYDAY=TU;BYMINUTE=5", "FREQ=YEARLY;BYDAY=SU;BYSETPOS=-1",
                     "FREQ=HOURLY;BYDAY=MO", "FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO", "FREQ=WEEKLY;BYDAY=MO,MO"] {
            #expect(try !(chosen(text) is ByRuleRecurrence), "\(text)")
        }
        let early = try #require(try Self.event("FREQ=WEEKLY;BYDAY=TU", start, isDate: false))
        #expect(ByRuleRecurrence(rule: early, start: CivilDateTime(year: 1899, month: 12, day: 31, hour: 9), isDate: false) == nil)
        #expect(ByRuleRecurrence(rule: early, start: CivilDateTime(year: 2016, month: 12, day: 31, hour: 23, minute: 59, second: 60),
                                 isDate: false) == nil)
    }

    /// Whole expansions with the civil walks on and off: the same occurrences, cuts and
    /// warnings, ten BY-rule series to a calendar so that the query's step budget is shared.
    @Test func expansionsAreTheSameAsLibicals() throws {
        var r = Random(state: 3030)
        let zones = ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Tokyo", "UTC"]
        var nonEmpty = 0, cut = 0, walked = 0
        for round in 0..<160 {
            var body = ""
            for n in 0..<10 {
                let isDate = r.chance(15)
                let start = FastRecurrenceTests.start(&r, years: 1990...2040)
                let zone: String? = isDate || r.chance(20) ? nil : r.pick(zones)
                let tzid = zone.map { ";TZID=" + $0 } ?? ""
                var lines = ["DTSTART" + (isDate ? ";VALUE=DATE:" : tzid + ":") + FastRecurrenceTests.stamp(start, date: isDate)]
                lines.append(isDate ? "DURATION:P\(r.int(1...3))D" : "DURATION:PT\(r.pick([30, 60, 90, 1440]))M")
                let count = r.chance(35)
                var rule = "RRULE:" + Self.rule(&r, count: count)
                if !count && r.chance(50) {
                    let until = start.addingDays(r.int(-3...4000))
                    switch r.int(0...2) {
                    case 0: rule += ";UNTIL=" + FastRecurrenceTests.stamp(until, date: true)
                    case 1: rule += ";UNTIL=" + FastRecurrenceTests.stamp(until, date: isDate) + (isDate ? "" : "Z")
                    default: rule += ";UNTIL=" + FastRecurrenceTests.stamp(until, date: isDate)
                    }
                }
                lines.append(rule)
                if r.chance(40) {
                    let ex = start.addingDays(r.pick([0, 1, 7, 14, 28, 31, 365]) * r.int(0...3))
                    lines.append("EXDATE" + (isDate ? ";VALUE=DATE:" : tzid + ":") + FastRecurrenceTests.stamp(ex, date: isDate))
                }
                if r.chance(25) {
                    let rd = start.addingDays(r.int(1...900))
                    lines.append("RDATE" + (isDate ? ";VALUE=DATE:" : tzid + ":") + FastRecurrenceTests.stamp(rd, date: isDate))
                }
                body += "BEGIN:VEVENT\r\nUID:b\(round)-\(n)\r\nDTSTAMP:20240101T000000Z\r\n"
                    + lines.map { $0 + "\r\n" }.joined() + "END:VEVENT\r\n"
            }
            let calendar = try FastRecurrenceTests.read(body)
            walked += calendar.events.filter { e in
                e.rules.contains { rule in e.start.map { ByRuleRecurrence(rule: rule, start: $0.fields, isDate: $0.isDate) != nil } ?? false }
            }.count
            let from = CivilDateTime(year: r.int(1989...2045), month: r.int(1...12), day: r.int(1...28)).secondsAsUTC
            let window = TimeWindow(start: from, end: from + r.pick([21_600, 86_400, 3_456_000, 34_560_000] as [Int64]))
            let zone = try #require(TimeZone(identifier: r.pick(zones)))
            let maxSteps = r.chance(30) ? r.int(1...300) : 400_000
            let queryBudget = r.chance(20) ? r.int(10...3_000) : 1_000_000
            let fast = FastRecurrenceTests.expansion(calendar, window, zone: zone, civil: true, maxSteps: maxSteps, queryBudget: queryBudget)
            let slow = FastRecurrenceTests.expansion(calendar, window, zone: zone, civil: false, maxSteps: maxSteps, queryBudget: queryBudget)
            #expect(fast.occurrences == slow.occurrences, "round \(round)")
            #expect(fast.warnings == slow.warnings, "round \(round)")
            if fast.occurrences != slow.occurrences || fast.warnings != slow.warnings { return }
            if !fast.occurrences.isEmpty { nonEmpty += 1 }
            if fast.occurrences.contains(where: { !$0.hasSuffix(" -") }) { cut += 1 }
        }
        print("by-rule expansions: seed 3030, 160 calendars of 10 series, \(walked) series walked here, "
              + "\(nonEmpty) windows with occurrences, \(cut) with a cut series")
        #expect(walked > 1200)
        #expect(nonEmpty > 80)
        #expect(cut > 5)
    }
}
