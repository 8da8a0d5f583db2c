internal import CLibical
import CoolcalModel
import CoolcalScan

/// One RRULE. libical iterates it; UNTIL is kept apart because libical compares
/// UNTIL against floating wall-clock fields, which is wrong for zoned DTSTARTs.
public struct ICalRule: Hashable, Sendable {
    /// The rule without UNTIL, as libical writes it (`FREQ=WEEKLY;BYDAY=SA`).
    public var textWithoutUntil: String
    public var until: ICalTime?
    public var hasCount: Bool
    public var interval: Int
    /// What expanding it asks of it each time, read once (`ICalRule+Facts`).
    package var facts: Facts

    init?(_ recur: icalrecurrencetype) {
        guard recur.freq != ICAL_NO_RECURRENCE else { return nil }
        var rule = recur
        if icaltime_is_null_time(rule.until) == 0 {
            let isUTC = icaltime_is_utc(rule.until) != 0
            until = ICalTime(
                fields: CivilDateTime(icaltime: rule.until), isDate: rule.until.is_date != 0,
                reference: isUTC ? .utc : .floating)
        } else {
            until = nil
        }
        rule.until = icaltime_null_time()
        guard let text = ICalWalk.copy(icalrecurrencetype_as_string(&rule)) else { return nil }
        textWithoutUntil = text
        hasCount = rule.count > 0
        interval = Int(rule.interval)
        facts = Facts.read(text: text, interval: interval)
    }
}

extension ICalRule {
    /// Why RFC 5545 (§3.3.10) does not allow this rule, or nil. libical iterates some
    /// such rules (`FREQ=HOURLY;BYDAY=-1SU`) for seconds and then answers wrongly, so
    /// they are not expanded at all.
    static func disallowed(_ r: icalrecurrencetype) -> String? {
        let end = Int16(truncatingIfNeeded: ICAL_RECURRENCE_ARRAY_MAX.rawValue)
        func used<T>(_ array: T) -> [Int16] {
            withUnsafeBytes(of: array) { Array($0.bindMemory(to: Int16.self).prefix { $0 != end }) }
        }
        let monthlyOrYearly = r.freq == ICAL_MONTHLY_RECURRENCE || r.freq == ICAL_YEARLY_RECURRENCE
        if !monthlyOrYearly && used(r.by_day).contains(where: { icalrecurrencetype_day_position($0) != 0 }) {
            return "BYDAY with a number needs FREQ=MONTHLY or YEARLY"
        }
        if r.freq != ICAL_YEARLY_RECURRENCE && !used(r.by_week_no).isEmpty {
            return "BYWEEKNO needs FREQ=YEARLY"
        }
        if [ICAL_DAILY_RECURRENCE, ICAL_WEEKLY_RECURRENCE, ICAL_MONTHLY_RECURRENCE].contains(r.freq) && !used(r.by_year_day).isEmpty {
            return "BYYEARDAY is not allowed with FREQ=DAILY, WEEKLY or MONTHLY"
        }
        if r.freq == ICAL_WEEKLY_RECURRENCE && !used(r.by_month_day).isEmpty {
            return "BYMONTHDAY is not allowed with FREQ=WEEKLY"
        }
        return nil
    }
}

extension CivilDateTime {
    init(icaltime t: icaltimetype) {
        self.init(
            year: Int(t.year), month: Int(t.month), day: Int(t.day),
            hour: t.is_date != 0 ? 0 : Int(t.hour), minute: t.is_date != 0 ? 0 : Int(t.minute),
            second: t.is_date != 0 ? 0 : Int(t.second))
    }

    func icaltime(isDate: Bool) -> icaltimetype {
        var t = icaltime_null_time()
        t.year = Int32(year)
        t.month = Int32(month)
        t.day = Int32(day)
        if isDate {
            t.is_date = 1
        } else {
            t.hour = Int32(hour)
            t.minute = Int32(minute)
            t.second = Int32(second)
        }
        return t
    }
}

/// Walks the wall-clock start times of an RRULE with libical's iterator. Owns the
/// iterator and frees it in deinit.
public final class RecurrenceIterator {
    private let iterator: OpaquePointer
    private let isDate: Bool

    /// nil when libical refuses the rule or start.
    public init?(rule: ICalRule, start: CivilDateTime, isDate: Bool) {
        ICalRuntime.ensureConfigured()
        let recur = rule.textWithoutUntil.withCString { icalrecurrencetype_from_string($0) }
        guard recur.freq != ICAL_NO_RECURRENCE,
              let it = icalrecur_iterator_new(recur, start.icaltime(isDate: isDate)) else { return nil }
        iterator = it
        self.isDate = isDate
    }

    deinit {
        icalrecur_iterator_free(iterator)
    }

    /// Skips ahead to the first instance at or after `start` (rules without COUNT only).
    public func skip(to start: CivilDateTime) -> Bool {
        icalrecur_iterator_set_start(iterator, start.icaltime(isDate: isDate)) != 0
    }

    /// The next start, or nil at the end of the rule.
    public func next() -> CivilDateTime? {
        let t = icalrecur_iterator_next(iterator)
        if icaltime_is_null_time(t) != 0 { return nil }
        return CivilDateTime(icaltime: t)
    }
}
