import CoolcalModel

/// The parts of a rule that `ByRuleRecurrence` walks, read from libical's own text of
/// it (`ICalRule.facts.parts`), and the days each period of it holds, found as libical's
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

    private static let names = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

    init?(parts: [String]) {
        var frequency: Frequency?
        var interval = 1, count: Int?, weekStart = 2
        var days: [Day] = [], monthDays: [Int] = [], months: [Int] = [], positions: [Int] = []
        var hasBy = false
        for part in parts {
            guard let eq = part.firstIndex(of: "=") else { return nil }
            let name = part[..<eq], value = part[part.index(after: eq)...]
            let items = value.split(separator: ",", omittingEmptySubsequences: false)
            switch name {
            case "FREQ":
                switch value {
                case "DAILY": frequency = .daily
                case "WEEKLY": frequency = .weekly
                case "MONTHLY": frequency = .monthly
                case "YEARLY": frequency = .yearly
                default: return nil
                }
            case "INTERVAL":
                guard let n = Int(value), n > 0, n < 10_000 else { return nil }
                interval = n
            case "COUNT":
                guard let n = Int(value), n > 0 else { return nil }
                count = n
            case "WKST":
                guard let d = ByRuleShape.names.firstIndex(of: String(value)) else { return nil }
                weekStart = d + 1
            case "BYDAY":
                for item in items {
                    guard let day = ByRuleShape.day(item), !days.contains(day) else { return nil }
                    days.append(day)
                }
            case "BYMONTHDAY":
                monthDays = items.compactMap { Int($0) }
                guard monthDays.count == items.count, monthDays.allSatisfy({ $0 != 0 && abs($0) <= 31 }) else { return nil }
            case "BYMONTH":
                months = items.compactMap { Int($0) }
                guard months.count == items.count, Set(months).count == months.count, months.allSatisfy((1...12).contains) else { return nil }
            case "BYSETPOS":
                positions = items.compactMap { Int($0) }
                guard positions.count == items.count, positions.allSatisfy({ $0 != 0 && abs($0) <= 366 }) else { return nil }
            default: return nil
            }
            if name.hasPrefix("BY") { hasBy = true }
        }
        guard let frequency, hasBy else { return nil }
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
        self.interval = interval
        self.count = count
        self.weekStart = weekStart
        self.days = days.sorted { ($0.weekday - weekStart + 7) % 7 < ($1.weekday - weekStart + 7) % 7 }
        self.monthDays = monthDays
        self.months = Set(months)
        self.positions = positions
    }

    /// `TU`, `2TU`, `-1FR` (a position up to 5 either way: the most a month holds).
    private static func day(_ item: Substring) -> Day? {
        guard item.count >= 2, let weekday = names.firstIndex(of: String(item.suffix(2))) else { return nil }
        let number = item.dropLast(2)
        guard number.isEmpty || (number.count <= 2 && Int(number).map { $0 != 0 && abs($0) <= 5 } == true) else { return nil }
        return Day(weekday: weekday + 1, ordinal: Int(number) ?? 0)
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
