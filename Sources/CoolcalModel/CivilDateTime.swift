import Foundation

/// Wall-clock date and time fields, as iCalendar writes them, with exact
/// proleptic-Gregorian arithmetic (no time zone involved).
public struct CivilDateTime: Hashable, Comparable, Sendable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    /// 9999-12-31: the last date DESIGN.md's JSON form can write.
    public static let lastDate = CivilDateTime(year: 9999, month: 12, day: 31)

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Seconds since 1970-01-01T00:00:00 if these fields were UTC.
    public var secondsAsUTC: Int64 {
        Int64(CivilDateTime.daysFromCivil(year, month, day)) * 86_400
            + Int64(hour * 3600 + minute * 60 + second)
    }

    /// The fields of a UTC instant given in seconds since the epoch.
    public init(utcSeconds: Int64) {
        let days = utcSeconds >= 0 ? utcSeconds / 86_400 : (utcSeconds - 86_399) / 86_400
        let rest = Int(utcSeconds - days * 86_400)
        let (y, m, d) = CivilDateTime.civilFromDays(Int(days))
        self.init(year: y, month: m, day: d, hour: rest / 3600, minute: rest % 3600 / 60, second: rest % 60)
    }

    /// The date part only (time set to midnight).
    public var dateOnly: CivilDateTime { CivilDateTime(year: year, month: month, day: day) }

    /// The same wall-clock time `days` calendar days later.
    public func addingDays(_ days: Int) -> CivilDateTime {
        let (y, m, d) = CivilDateTime.civilFromDays(CivilDateTime.daysFromCivil(year, month, day) + days)
        return CivilDateTime(year: y, month: m, day: d, hour: hour, minute: minute, second: second)
    }

    /// Whole days from `other`'s date to this date.
    public func days(since other: CivilDateTime) -> Int {
        CivilDateTime.daysFromCivil(year, month, day) - CivilDateTime.daysFromCivil(other.year, other.month, other.day)
    }

    public static func < (a: CivilDateTime, b: CivilDateTime) -> Bool {
        a.secondsAsUTC < b.secondsAsUTC
    }

    /// `YYYY-MM-DD`.
    public var dateString: String {
        pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` (the caller knows the fields are UTC).
    public var utcString: String {
        dateString + "T" + pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2) + "Z"
    }

    /// True when the fields name a real date and time of day.
    public var isValid: Bool {
        (1...12).contains(month) && day >= 1 && day <= CivilDateTime.daysInMonth(year, month)
            && (0...23).contains(hour) && (0...59).contains(minute) && (0...60).contains(second)
    }

    package static func daysInMonth(_ y: Int, _ m: Int) -> Int {
        switch m {
        case 2: return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days.
    package static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    package static func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? yoe + era * 400 + 1 : yoe + era * 400, m, d)
    }
}

private func pad(_ value: Int, _ width: Int) -> String {
    let s = String(value)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}

extension CivilDateTime {
    /// `YYYYMMDD`, RFC 5545's DATE.
    public var basicDate: String {
        String(format: "%04d%02d%02d", year, month, day)
    }

    /// `YYYYMMDDTHHMMSS`, RFC 5545's DATE-TIME without its zone.
    public var basicDateTime: String {
        basicDate + String(format: "T%02d%02d%02d", hour, minute, second)
    }
}
