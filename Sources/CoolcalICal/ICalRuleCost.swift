internal import CLibical
import CoolcalModel

/// What an RRULE costs libical before it gives an instance. libical's iterator walks
/// every candidate time one step of the rule's frequency at a time (~3 µs each) and
/// returns only when one passes the BY-filters — so a rule that can never match
/// (`FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30`) never returns, and a sparse sub-daily one
/// (`FREQ=MINUTELY;BYMONTH=1`) walks half a million candidates per instance. Such rules
/// are refused before libical sees them; `RecurrenceSet` counts the candidates of the
/// others against its step limits.
extension ICalRule {
    /// Candidate times libical may walk for one instance, at most.
    public static let maxCandidatesPerInstance = 100_000 // the messages say 100,000

    /// Seconds per step of the rule's frequency for SECONDLY … DAILY; nil for longer ones.
    public var stepSeconds: Int64? {
        guard let unit = facts.unit else { return nil }
        return unit * Int64(max(interval, 1))
    }

    package static func unitSeconds(of text: String) -> Int64? {
        if text.hasPrefix("FREQ=SECONDLY") { return 1 }
        if text.hasPrefix("FREQ=MINUTELY") { return 60 }
        if text.hasPrefix("FREQ=HOURLY") { return 3_600 }
        if text.hasPrefix("FREQ=DAILY") { return 86_400 }
        return nil
    }

    /// Why libical would walk without bound (or nearly) for this rule from `start`, or nil.
    /// (What does not depend on `start` was worked out when the rule was read: `facts`.)
    public func unboundedReason(start: CivilDateTime) -> String? {
        if let fixed = facts.fixedReason { return fixed }
        guard let sub = facts.subDaily else { return nil }
        guard let timeGap = ICalRule.candidateGap(start: start, step: sub.step, hours: sub.hours, minutes: sub.minutes, seconds: sub.seconds) else {
            return "it can never match: its steps from DTSTART never reach its BYHOUR/BYMINUTE/BYSECOND"
        }
        var candidates = timeGap
        if sub.dayFilterActive {
            guard let dayGap = sub.dayGap else { return "it can never match: no date has \(sub.dayFilterDescribed)" }
            candidates += Int64(dayGap) * 86_400 / sub.step
        }
        if candidates > Int64(ICalRule.maxCandidatesPerInstance) {
            return "its instances can be \(candidates) steps of its frequency apart, more than the 100,000 allowed"
        }
        return nil
    }

    /// The most instances one period of a MONTHLY, WEEKLY or DAILY rule can hold before
    /// BYSETPOS picks, or nil where coolcal does not bound it (YEARLY, sub-daily).
    static func largestSet(_ r: icalrecurrencetype) -> Int? {
        let end = Int16(truncatingIfNeeded: ICAL_RECURRENCE_ARRAY_MAX.rawValue)
        func list<T>(_ array: T) -> [Int16] {
            withUnsafeBytes(of: array) { Array($0.bindMemory(to: Int16.self).prefix { $0 != end }) }
        }
        let times = max(1, list(r.by_hour).count) * max(1, list(r.by_minute).count) * max(1, list(r.by_second).count)
        let days = list(r.by_day)
        let monthDays = list(r.by_month_day).count
        switch r.freq {
        case ICAL_MONTHLY_RECURRENCE:
            // A numbered BYDAY (2MO, -1FR) is one day a month, a plain one at most five.
            let byDay = days.reduce(0) { $0 + (icalrecurrencetype_day_position($1) == 0 ? 5 : 1) }
            let perMonth = days.isEmpty ? (monthDays == 0 ? 1 : monthDays) : (monthDays == 0 ? byDay : min(byDay, monthDays))
            return perMonth * times
        case ICAL_WEEKLY_RECURRENCE:
            return max(1, Set(days.map { icalrecurrencetype_day_day_of_week($0).rawValue }).count) * times
        case ICAL_DAILY_RECURRENCE:
            return times
        default:
            return nil
        }
    }

    /// The most steps from one matching time of day to the next (cyclic), or nil when
    /// the steps from `start` never reach a matching time of day.
    private static func candidateGap(start: CivilDateTime, step: Int64, hours: Set<Int>, minutes: Set<Int>, seconds: Set<Int>) -> Int64? {
        if hours.isEmpty && minutes.isEmpty && seconds.isEmpty { return 1 }
        let day: Int64 = 86_400
        func gcd(_ a: Int64, _ b: Int64) -> Int64 { b == 0 ? a : gcd(b, a % b) }
        let period = day / gcd(step % day, day)
        let t0 = Int64(start.hour * 3600 + start.minute * 60 + start.second)
        var first: Int64?, last: Int64 = 0, gap: Int64 = 0
        for k in 0..<period {
            let t = (t0 + k * (step % day)) % day
            let h = Int(t / 3600), m = Int(t / 60 % 60), s = Int(t % 60)
            guard hours.isEmpty || hours.contains(h), minutes.isEmpty || minutes.contains(m),
                  seconds.isEmpty || seconds.contains(s) else { continue }
            if let _ = first { gap = max(gap, k - last) } else { first = k }
            last = k
        }
        guard let first else { return nil }
        return max(gap, period - last + first)
    }
}

/// The date-level BY-filters of a rule (BYMONTH, BYMONTHDAY, BYYEARDAY, BYDAY's
/// weekdays). For DAILY and shorter rules they limit; for longer ones they expand,
/// but every date a rule can give still passes all of them, so "no date passes"
/// means the rule never matches whatever its frequency (BYDAY's numbers, BYWEEKNO
/// and BYSETPOS only take dates away).
package struct DayFilter: Hashable, Sendable {
    package var months: Set<Int>
    package var monthDays: Set<Int>
    package var yearDays: Set<Int>
    /// 1 = Sunday … 7 = Saturday.
    package var weekdays: Set<Int>

    package var isActive: Bool { !months.isEmpty || !monthDays.isEmpty || !yearDays.isEmpty || !weekdays.isEmpty }

    package var described: String {
        var parts: [String] = []
        func list(_ s: Set<Int>) -> String { s.sorted().map(String.init).joined(separator: ",") }
        if !months.isEmpty { parts.append("BYMONTH=\(list(months))") }
        if !monthDays.isEmpty { parts.append("BYMONTHDAY=\(list(monthDays))") }
        if !yearDays.isEmpty { parts.append("BYYEARDAY=\(list(yearDays))") }
        return parts.joined(separator: " and ")
    }

    private static let lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

    package func passes(month: Int, day: Int, yearDay: Int, leap: Bool) -> Bool {
        let monthLength = DayFilter.lengths[month - 1] + (leap && month == 2 ? 1 : 0)
        let yearLength = leap ? 366 : 365
        return (months.isEmpty || months.contains(month))
            && (monthDays.isEmpty || monthDays.contains(day) || monthDays.contains(day - monthLength - 1))
            && (yearDays.isEmpty || yearDays.contains(yearDay) || yearDays.contains(yearDay - yearLength - 1))
    }

    /// Some date of a common or a leap year passes the month and day filters (every
    /// such date falls on every weekday in some year).
    package var matchesSomeDate: Bool {
        if monthDays.isEmpty && yearDays.isEmpty { return true }
        for leap in [false, true] {
            var yearDay = 0
            for month in 1...12 {
                for day in 1...(DayFilter.lengths[month - 1] + (leap && month == 2 ? 1 : 0)) {
                    yearDay += 1
                    if passes(month: month, day: day, yearDay: yearDay, leap: leap) { return true }
                }
            }
        }
        return false
    }

    /// The most days from one passing date to the next, over the 400-year Gregorian
    /// cycle (weekdays included); nil when none passes.
    package var longestGapInDays: Int? {
        var first: Int?, last = 0, gap = 0, index = 0
        for year in 2000..<2400 {
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            var yearDay = 0
            for month in 1...12 {
                for day in 1...(DayFilter.lengths[month - 1] + (leap && month == 2 ? 1 : 0)) {
                    yearDay += 1
                    // 2000-01-01 was a Saturday (7).
                    let weekday = (index + 6) % 7 + 1
                    if (weekdays.isEmpty || weekdays.contains(weekday)) && passes(month: month, day: day, yearDay: yearDay, leap: leap) {
                        if first != nil { gap = max(gap, index - last) } else { first = index }
                        last = index
                    }
                    index += 1
                }
            }
        }
        guard let first else { return nil }
        return max(gap, index - last + first)
    }
}
