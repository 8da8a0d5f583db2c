import CoolcalModel

/// The days an RRULE's instances can fall on, as its BYDAY (weekdays; ordinals left out),
/// BYMONTH and BYMONTHDAY say — for the pre-filter, which may keep too much but never
/// drop an event that reaches the window. Whatever the FREQ, these parts either limit
/// the instances or expand them (RFC 5545 §3.3.10's table), and either way every instance
/// lies on a day they allow; BYSETPOS, BYYEARDAY and BYWEEKNO only choose among such
/// days. With FREQ=DAILY or longer and no BYHOUR, BYMINUTE or BYSECOND, every instance
/// starts at DTSTART's time of day (wall clock; a time a DST gap skips is moved by less
/// than the zone's offsets differ, which the pre-filter widens by anyway).
package struct RuleDays: Equatable, Sendable {
    /// Bit 0 is Monday.
    package var weekdays: UInt8 = allWeekdays
    /// Bit 0 is January.
    package var months: UInt16 = allMonths
    /// Bits 0–30: days 1–31; bits 32–62: days −1 to −31 (from the month's end).
    package var monthDays: UInt64 = allMonthDays
    /// False once the rule names BYHOUR, BYMINUTE or BYSECOND, or repeats more often than daily.
    package var fixedTime = true
    /// False for a rule that may have no instance at all, or one libical refuses or warns
    /// about (BYSETPOS, BYYEARDAY, BYWEEKNO; a BYMONTHDAY past the 28th or beside BYDAY;
    /// a BYDAY position past the 4th, or one in a DAILY or WEEKLY rule): the full parse
    /// then says so, and dropping the series would lose the warning.
    package var judged = true
    private var ordinals = false
    private var monthDayGiven = false
    private var weekdayGiven = false

    static let allWeekdays: UInt8 = 0x7F
    static let allMonths: UInt16 = 0xFFF
    static let allMonthDays: UInt64 = 0x7FFF_FFFF_7FFF_FFFF

    package init() {}

    /// Whether the rule's BY parts leave some days out (else nothing is gained here).
    package var restricts: Bool { weekdays != Self.allWeekdays || months != Self.allMonths || monthDays != Self.allMonthDays }

    /// Adds a BYDAY entry's weekday, by the two (upper-case, checked) letters of its name.
    /// The first one replaces "every day".
    package mutating func addWeekday(_ a: UInt8, _ b: UInt8, first: Bool) {
        let day: UInt8
        switch (a, b) {
        case (0x4D, _): day = 0
        case (0x54, 0x55): day = 1
        case (0x57, _): day = 2
        case (0x54, _): day = 3
        case (0x46, _): day = 4
        case (0x53, 0x41): day = 5
        default: day = 6
        }
        if first { weekdays = 0 }
        weekdays |= 1 << day
        weekdayGiven = true
    }

    /// A BYDAY entry's position (`2` of `2TU`).
    package mutating func addPosition(_ n: Int64) {
        ordinals = true
        if abs(n) > 4 { judged = false }
    }

    /// Adds a BYMONTH value (1–12). The first one replaces "every month".
    package mutating func addMonth(_ month: Int64, first: Bool) {
        if first { months = 0 }
        months |= 1 << UInt16(month - 1)
    }

    /// Adds a BYMONTHDAY value (1–31 or −1 to −31). The first one replaces "every day".
    package mutating func addMonthDay(_ day: Int64, first: Bool) {
        if abs(day) > 28 { judged = false }
        monthDayGiven = true
        if first { monthDays = 0 }
        monthDays |= day > 0 ? 1 << UInt64(day - 1) : 1 << UInt64(32 - day - 1)
    }

    /// What the whole rule says, once read: `frequency` in seconds (as `RuleValue`'s).
    package mutating func settle(frequency: Int64) {
        if frequency < 86_400 { fixedTime = false }
        let monthly = frequency >= 31 * 86_400
        if (ordinals || monthDayGiven) && !monthly { judged = false }
        if monthDayGiven && weekdayGiven { judged = false }
    }

    /// Whether `day` is one the parts allow.
    package func allows(_ day: CivilDateTime) -> Bool {
        // 1970-01-01 was a Thursday (3, from Monday).
        let days = Int(day.secondsAsUTC.dividedFloor(by: 86_400))
        let weekday = ((days + 3) % 7 + 7) % 7
        guard weekdays & (1 << UInt8(weekday)) != 0, months & (1 << UInt16(day.month - 1)) != 0 else { return false }
        let fromEnd = CivilDateTime.daysInMonth(day.year, day.month) - day.day + 1
        return monthDays & (1 << UInt64(day.day - 1)) != 0 || monthDays & (1 << UInt64(32 + fromEnd - 1)) != 0
    }

    /// Whether an instance could overlap `window`: one starting at DTSTART's time of day
    /// (`start`, wall-clock seconds), after DTSTART and not after `last`, on an allowed
    /// day, spanning `before` seconds before its start to `after` after it (widened for
    /// the zones it may be read in). True when that cannot be told cheaply.
    package func mayReach(_ window: TimeWindow, start: Int64, before: Int64, after: Int64, last: Int64?) -> Bool {
        guard fixedTime, judged, restricts else { return true }
        let time = start - start.dividedFloor(by: 86_400) * 86_400
        let low = max(window.start - after, start + 1)
        let high = min(window.end + before, last ?? .max)
        guard low <= high else { return false }
        let first = (low - time + 86_399).dividedFloor(by: 86_400), final = (high - time).dividedFloor(by: 86_400)
        guard final - first < 400 else { return true }
        guard first <= final else { return false }
        for d in first...final where allows(CivilDateTime(utcSeconds: d * 86_400 + time)) { return true }
        return false
    }
}

extension Int64 {
    /// Division rounding towards minus infinity.
    fileprivate func dividedFloor(by d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
}
