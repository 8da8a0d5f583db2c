import CoolcalICal
import CoolcalModel

/// The parts of a rule that `ByRuleRecurrence` walks, as the rule's one reading has
/// them (`ICalRule.facts.parts`), and the days each period of it holds, found as libical's
/// iterator finds them. nil for any part or value outside the shapes listed there.
struct ByRuleShape {
    enum Frequency { case daily, weekly, monthly, yearly }

    /// One BYDAY item: libical's weekday number (Sunday = 1 … Saturday = 7) and its
    /// ordinal (0: every such day of the period).
    struct Day: Equatable {
        let weekday: Int
        let ordinal: Int
    }

    let frequency: Frequency
    let interval: Int
    let count: Int?
    /// WKST as libical numbers weekdays (Monday, 2, unless given).
    let weekStart: Int
    /// BYDAY in libical's order: sorted by their distance from WKST.
    let days: [Day]
    let monthDays: [Int]
    let months: Set<Int>
    let positions: [Int]

    /// nil when the rule is not one of the shapes `ByRuleRecurrence` walks.
    init?(_ parts: RuleParts) {
        guard parts.names.isSubset(of: [.freq, .interval, .count, .wkst, .byDay, .byMonthDay, .byMonth, .bySetPos]),
              !parts.names.isDisjoint(with: .byParts), parts.civilBounds,
              // Each BYDAY item once, at most the 5th either way (the most a month holds);
              // each month once.
              Set(parts.byDay).count == parts.byDay.count, parts.byDay.allSatisfy({ abs($0.ordinal) <= 5 }),
              Set(parts.byMonth).count == parts.byMonth.count else { return nil }
        let frequency: Frequency
        switch parts.frequency {
        case .daily: frequency = .daily
        case .weekly: frequency = .weekly
        case .monthly: frequency = .monthly
        case .yearly: frequency = .yearly
        case .secondly, .minutely, .hourly: return nil
        }
        let weekStart = parts.weekStart.rawValue
        let days = parts.byDay.map { Day(weekday: $0.weekday.rawValue, ordinal: $0.ordinal) }
        let monthDays = parts.byMonthDay, months = parts.byMonth, positions = parts.bySetPos
        let ordinals = days.contains { $0.ordinal != 0 }
        switch frequency {
        case .daily, .weekly:
            // A weekday once (libical sorts and steps through the list), no ordinals.
            guard !ordinals, Set(days.map(\.weekday)).count == days.count,
                  monthDays.isEmpty, positions.isEmpty, frequency == .daily || !days.isEmpty else { return nil }
        case .monthly:
            guard positions.isEmpty || !days.isEmpty || !monthDays.isEmpty else { return nil }
        case .yearly:
            // Ordinals count within each BYMONTH month only when BYMONTH is given; so
            // does BYSETPOS here (over the year's days).
            guard days.isEmpty && positions.isEmpty || !months.isEmpty else { return nil }
        }
        self.frequency = frequency
        self.interval = parts.interval
        self.count = parts.count
        self.weekStart = weekStart
        self.days = days.sorted { ($0.weekday - weekStart + 7) % 7 < ($1.weekday - weekStart + 7) % 7 }
        self.monthDays = monthDays
        self.months = Set(months)
        self.positions = positions
    }

    /// libical's weekday of a date: Sunday = 1 … Saturday = 7 (1970-01-01 was a Thursday).
    static func weekday(_ year: Int, _ month: Int, _ day: Int) -> Int {
        weekday(ofDay: CivilDateTime.daysFromCivil(year, month, day))
    }

    /// The same for a day counted from 1970-01-01.
    static func weekday(ofDay day: Int) -> Int {
        ((day + 4) % 7 + 7) % 7 + 1
    }

    /// The days of `month` the rule's BYMONTHDAY (else `defaultDay`, DTSTART's) and BYDAY
    /// give, in order, and the size of the set BYSETPOS counts in. libical counts each
    /// BYMONTHDAY that names a day of the month, twice if two name the same day; with
    /// BYDAY it counts the days themselves. (Sets of days as bits: day d is bit d.)
    func monthDays(year: Int, month: Int, defaultDay: Int) -> (days: [Int], total: Int) {
        let length = CivilDateTime.daysInMonth(year, month)
        var chosen: UInt64 = 0, total = 0
        if monthDays.isEmpty {
            if (1...length).contains(defaultDay) {
                chosen = 1 << UInt64(defaultDay)
                total = 1
            }
        } else {
            for n in monthDays where abs(n) <= length {
                chosen |= 1 << UInt64(n > 0 ? n : length + 1 + n)
                total += 1
            }
        }
        if !days.isEmpty {
            let first = ByRuleShape.weekday(year, month, 1), last = ByRuleShape.weekday(year, month, length)
            var named: UInt64 = 0
            for d in days {
                let firstMatch = (d.weekday - first + 7) % 7 + 1
                let lastMatch = length - (last - d.weekday + 7) % 7
                if d.ordinal == 0 {
                    for day in stride(from: firstMatch, through: length, by: 7) { named |= 1 << UInt64(day) }
                } else if d.ordinal > 0 {
                    let day = firstMatch + (d.ordinal - 1) * 7
                    if day <= lastMatch { named |= 1 << UInt64(day) }
                } else {
                    let day = lastMatch + (d.ordinal + 1) * 7
                    if day >= firstMatch { named |= 1 << UInt64(day) }
                }
            }
            // BYMONTHDAY limits BYDAY when both are given.
            chosen = monthDays.isEmpty ? named : chosen & named
            total = chosen.nonzeroBitCount
        }
        var result: [Int] = []
        result.reserveCapacity(chosen.nonzeroBitCount)
        while chosen != 0 {
            result.append(chosen.trailingZeroBitCount)
            chosen &= chosen - 1
        }
        return (result, total)
    }

    /// The days BYSETPOS keeps of a period's `days` (counted as `total`).
    func positioned<Day>(_ days: [Day], total: Int) -> [Day] {
        guard !positions.isEmpty else { return days }
        return days.enumerated().filter { i, _ in positions.contains(i + 1) || positions.contains(i - total) }.map(\.element)
    }
}
