import CLibical

/// One RRULE. libical iterates it; UNTIL is kept apart because libical compares
/// UNTIL against floating wall-clock fields, which is wrong for zoned DTSTARTs.
public struct ICalRule: Hashable, Sendable {
    /// The rule without UNTIL, as libical writes it (`FREQ=WEEKLY;BYDAY=SA`).
    public var textWithoutUntil: String
    public var until: ICalTime?
    public var hasCount: Bool
    public var interval: Int

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
