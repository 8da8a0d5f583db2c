import CoolcalICal
import CoolcalModel

/// `FREQ=YEARLY;BYWEEKNO=…` without BYDAY, walked in civil arithmetic: libical refuses
/// to iterate it. RFC 5545 §3.3.10 expands BYWEEKNO for a YEARLY rule and takes what the
/// rule does not say from DTSTART, so each instance is DTSTART's weekday and time of day
/// in each listed week. Weeks begin on WKST (Monday unless given); week 1 is the first
/// one with at least four days in the year, so a year has 52 or 53 weeks, `-1` is its
/// last, and week 53 (or `-53`) names nothing in a year of 52. The day can fall in the
/// year before or after (Monday of week 1 of 2019 is 2018-12-31), as ISO 8601 has it.
///
/// Only that shape: FREQ, BYWEEKNO, INTERVAL, COUNT and WKST (UNTIL is the caller's),
/// and BYWEEKNO values in ±1…53. Like libical's, the walk ends before 2583 and COUNT
/// counts the instances the rule matches (`RecurrenceSet` counts an unmatched DTSTART).
package final class WeekNumberRecurrence: RuleIterator {
    private let start: CivilDateTime
    private let isDate: Bool
    private let weeks: [Int]
    private let interval: Int
    private let count: Int?
    /// Monday = 0 … Sunday = 6.
    private let weekStart: Int
    /// DTSTART's weekday, days after the week's start.
    private let dayInWeek: Int
    /// The year whose weeks `pending` holds; `pending` is what is left of them, in order.
    private var year: Int
    private var pending: [CivilDateTime] = []
    private var given = 0
    /// Nothing before this is given (DTSTART, or where `skip` moved to).
    private var floor: CivilDateTime

    /// The parts this shape has.
    private static let takes: RuleParts.Names = [.freq, .byWeekNo, .interval, .count, .wkst]

    /// nil when the rule is not of this shape.
    package init?(rule: ICalRule, start: CivilDateTime, isDate: Bool) {
        guard let parts = rule.facts.parts, parts.names.contains(.byWeekNo),
              parts.names.isSubset(of: WeekNumberRecurrence.takes), parts.frequency == .yearly,
              parts.civilBounds, parts.count != nil || !rule.hasCount,
              start.isValid, start.year >= 1, start < RecurrenceSet.pastLibicalLimit else { return nil }
        let weekStart = parts.weekStart.fromMonday
        self.start = isDate ? start.dateOnly : start
        self.isDate = isDate
        weeks = parts.byWeekNo
        interval = parts.interval
        count = parts.count
        self.weekStart = weekStart
        dayInWeek = (WeekNumberRecurrence.weekday(of: start) - weekStart + 7) % 7
        year = start.year - interval
        floor = self.start
    }

    /// Monday = 0 … Sunday = 6 (1970-01-01 was a Thursday).
    private static func weekday(of t: CivilDateTime) -> Int {
        let d = CivilDateTime.daysFromCivil(t.year, t.month, t.day)
        return ((d + 3) % 7 + 7) % 7
    }

    /// The first day of week 1 of `year`: the week holding at least four days of the year.
    private func firstWeek(of year: Int) -> CivilDateTime {
        let january1 = CivilDateTime(year: year, month: 1, day: 1)
        let into = (WeekNumberRecurrence.weekday(of: january1) - weekStart + 7) % 7
        return january1.addingDays(into <= 3 ? -into : 7 - into)
    }

    /// The instances the listed weeks of `year` give, in order.
    private func instances(of year: Int) -> [CivilDateTime] {
        let first = firstWeek(of: year)
        let weekCount = firstWeek(of: year + 1).days(since: first) / 7
        var days = Set<Int>()
        for n in weeks {
            let week = n > 0 ? n : weekCount + 1 + n
            if (1...weekCount).contains(week) { days.insert((week - 1) * 7 + dayInWeek) }
        }
        return days.sorted().map { offset in
            var t = first.addingDays(offset)
            if !isDate { (t.hour, t.minute, t.second) = (start.hour, start.minute, start.second) }
            return t
        }
    }

    /// Moves to the first instance at or after `target` (for rules without COUNT).
    package func skip(to target: CivilDateTime) -> Bool {
        guard count == nil else { return false }
        let goal = isDate ? target.dateOnly : target
        guard goal > floor else { return true }
        floor = goal
        // The year before the goal's (its last week may reach into the goal's year),
        // in step with INTERVAL from DTSTART's year.
        let behind = goal.year - 1 - start.year
        if behind > 0 {
            let before = start.year + behind / interval * interval - interval
            if before > year { year = before }
        }
        pending.removeAll { $0 < goal }
        return true
    }

    package func next() -> CivilDateTime? {
        if let count, given >= count { return nil }
        while true {
            if let t = pending.first {
                pending.removeFirst()
                guard t < RecurrenceSet.pastLibicalLimit else { return nil }
                if t < floor { continue }
                given += 1
                return t
            }
            year += interval
            // A year's weeks start at most four days before it: past the limit, nothing is left.
            guard year < RecurrenceSet.pastLibicalLimit.year else { return nil }
            pending = instances(of: year)
        }
    }
}
