import CoolcalICal
import CoolcalModel

/// libical's iterator for the common rules with BY parts, in civil arithmetic (libical
/// takes its steps through ICU's calendar):
/// - `FREQ=DAILY` with BYDAY weekdays (no ordinals) and/or BYMONTH: every INTERVAL-th
///   day from the start that the filters pass;
/// - `FREQ=WEEKLY` with BYDAY weekdays (and BYMONTH as a filter): the listed days, in
///   WKST order, of every INTERVAL-th WKST week from libical's first one;
/// - `FREQ=MONTHLY` with BYDAY (`TU`, `2TU`, `-1FR`), BYMONTHDAY (negative too),
///   BYSETPOS with either, and BYMONTH as a filter;
/// - `FREQ=YEARLY` with BYMONTH and BYMONTHDAY, or BYMONTH and BYDAY (ordinals count
///   within each month: `BYMONTH=3;BYDAY=-1SU`), and BYSETPOS over the year's days.
/// What the rule leaves out comes from the start, as libical takes it (the day of the
/// month, the month, the time of day). COUNT counts what is given; UNTIL is the caller's.
///
/// libical's choices kept: a weekly rule's weeks are counted from the listed day that
/// libical moves the start to (`adjust_to_byday`, which for some WKSTs is in the week
/// before the start's), so INTERVAL's phase is libical's; a monthly BYSETPOS on
/// BYMONTHDAY alone counts each BYMONTHDAY that names a day of the month, even twice;
/// nothing is given from 2583 on. Only starts in 1900–2199 and not on a leap second.
/// Everything else stays on libical; `ByRuleRecurrenceTests` compares the two.
package final class ByRuleRecurrence: RuleIterator {
    private let shape: ByRuleShape
    private let start: CivilDateTime
    private let isDate: Bool
    /// Where period 0 begins: the start's day (DAILY), the first day of libical's first
    /// week (WEEKLY), the start's month as `year * 12 + month - 1` (MONTHLY), its year (YEARLY).
    private let origin: Int
    /// The next period to expand, and the last one's instances, in order, given up to
    /// `taken` (one buffer, refilled: a walk allocates nothing per period).
    private var period = 0
    private var pending: [CivilDateTime] = []
    private var taken = 0
    /// BYMONTH and a DAILY rule's BYDAY as bits (month m: bit m, weekday w: bit w; all
    /// set when not given), tested per day without hashing.
    private let monthBits: Int
    private let weekdayBits: Int
    /// Nothing before this is given (the start, or where `skip` moved to).
    private var floor: CivilDateTime {
        didSet { floorSeconds = floor.secondsAsUTC }
    }
    /// `floor.secondsAsUTC`: each instance is compared as its seconds (what `<` compares).
    private var floorSeconds: Int64
    private var given = 0
    private var ended = false

    /// nil when the rule is not one of these shapes or the start is not one to trust.
    package init?(rule: ICalRule, start: CivilDateTime, isDate: Bool) {
        guard rule.facts.hasByParts, (1900...2199).contains(start.year), start.isValid, start.second < 60,
              let parts = rule.facts.parts, let shape = ByRuleShape.of(parts), shape.interval == max(rule.interval, 1),
              (shape.count != nil) == rule.hasCount else { return nil }
        let start = isDate ? start.dateOnly : start
        self.shape = shape
        self.start = start
        self.isDate = isDate
        floor = start
        floorSeconds = start.secondsAsUTC
        monthBits = shape.months.isEmpty ? ~0 : shape.months.reduce(0) { $0 | 1 << $1 }
        weekdayBits = shape.days.isEmpty ? ~0 : shape.days.reduce(0) { $0 | 1 << $1.weekday }
        let day = CivilDateTime.daysFromCivil(start.year, start.month, start.day)
        switch shape.frequency {
        case .daily: origin = day
        case .weekly:
            let first = day + ByRuleRecurrence.libicalWeekShift(of: start, shape)
            let weekday = ByRuleShape.weekday(ofDay: first)
            origin = first - (weekday - shape.weekStart + 7) % 7
        case .monthly: origin = start.year * 12 + start.month - 1
        case .yearly: origin = start.year
        }
        // A rule that never gives an instance (`FREQ=MONTHLY;INTERVAL=4;BYMONTH=1` from
        // February) stays with libical, whose `set_start` then fails and whose next start
        // is then in the year 20001.
        guard libicalFindsAPeriod(from: 0), givesAnInstance() else { return nil }
    }

    /// libical's iterator, when made or moved (`set_start`), looks for the first month
    /// (MONTHLY) or year (YEARLY) with days the rule names, from `first` — a month
    /// whether or not BYMONTH lists it — and fails when there is none before 2583
    /// (`FREQ=YEARLY;BYMONTH=9` from a 31st, `FREQ=MONTHLY;INTERVAL=6;BYMONTH=1` from
    /// February); so does this.
    private func libicalFindsAPeriod(from first: Int) -> Bool {
        switch shape.frequency {
        case .daily, .weekly: return true
        case .monthly:
            let index = origin + first * shape.interval
            let (days, total) = shape.monthDays(year: index / 12, month: index % 12 + 1, defaultDay: start.day)
            if index / 12 < RecurrenceSet.pastLibicalLimit.year && !shape.positioned(days, total: total).isEmpty { return true }
        case .yearly: break
        }
        return givesAnInstance(from: first)
    }

    /// Some period from `first` on, before 2583, holds an instance.
    private func givesAnInstance(from first: Int = 0) -> Bool {
        var p = first
        while let found = instances(ofPeriod: p) {
            if !found.isEmpty { return true }
            p += 1
        }
        return false
    }

    /// How many days libical moves a weekly rule's start to the first BYDAY day
    /// (`adjust_to_byday`): that day of the start's week as libical reckons it, which is
    /// not always the WKST week holding the start.
    private static func libicalWeekShift(of start: CivilDateTime, _ shape: ByRuleShape) -> Int {
        guard let first = shape.days.first?.weekday else { return 0 }
        let this = ByRuleShape.weekday(start.year, start.month, start.day)
        var shift = first - this
        if shift != 0 && this < shape.weekStart { shift -= 7 }
        return (this < first && shift >= 0) || shift < 0 ? shift : 0
    }

    /// The period holding `goal` (or the one before it: the walk filters to `floor`).
    private func period(of goal: CivilDateTime) -> Int {
        let day = CivilDateTime.daysFromCivil(goal.year, goal.month, goal.day)
        let distance: Int
        switch shape.frequency {
        case .daily: distance = day - origin
        case .weekly: distance = (day - origin) / 7
        case .monthly: distance = goal.year * 12 + goal.month - 1 - origin
        case .yearly: distance = goal.year - origin
        }
        return max(0, distance / shape.interval)
    }

    /// Like libical's `set_start`: walks again from `target` (not before the start);
    /// refused, as libical refuses it, for a counted rule.
    package func skip(to target: CivilDateTime) -> Bool {
        guard shape.count == nil else { return false }
        floor = max(isDate ? target.dateOnly : target, start)
        period = period(of: floor)
        pending.removeAll(keepingCapacity: true)
        taken = 0
        ended = false
        // libical moves to the first period in step with INTERVAL at or after the goal's.
        let behind: Bool
        switch shape.frequency {
        case .monthly: behind = origin + period * shape.interval < floor.year * 12 + floor.month - 1
        case .yearly: behind = origin + period * shape.interval < floor.year
        case .daily, .weekly: behind = false
        }
        return floor < RecurrenceSet.pastLibicalLimit && libicalFindsAPeriod(from: behind ? period + 1 : period)
    }

    /// The instances period `p` holds, in order; nil when it begins past libical's limit.
    private func instances(ofPeriod p: Int) -> [CivilDateTime]? {
        var found: [CivilDateTime] = []
        return collect(ofPeriod: p, into: &found) ? found : nil
    }

    /// Appends the instances period `p` holds, in order; false when it begins past
    /// libical's limit.
    private func collect(ofPeriod p: Int, into found: inout [CivilDateTime]) -> Bool {
        let limit = RecurrenceSet.pastLibicalLimit.year
        switch shape.frequency {
        case .daily:
            let day = origin + p * shape.interval
            let (y, m, d) = CivilDateTime.civilFromDays(day)
            guard y < limit else { return false }
            if weekdayBits & 1 << ByRuleShape.weekday(ofDay: day) != 0 && monthBits & 1 << m != 0 {
                found.append(at(y, m, d))
            }
        case .weekly:
            let first = origin + 7 * shape.interval * p
            guard CivilDateTime.civilFromDays(first).0 < limit else { return false }
            for day in shape.days {
                let (y, m, d) = CivilDateTime.civilFromDays(first + (day.weekday - shape.weekStart + 7) % 7)
                if monthBits & 1 << m != 0 { found.append(at(y, m, d)) }
            }
        case .monthly:
            let index = origin + p * shape.interval
            let (y, m) = (index / 12, index % 12 + 1)
            guard y < limit else { return false }
            guard monthBits & 1 << m != 0 else { return true }
            let (days, total) = shape.monthDays(year: y, month: m, defaultDay: start.day)
            for day in shape.positioned(days, total: total) { found.append(at(y, m, day)) }
        case .yearly:
            let y = origin + p * shape.interval
            guard y < limit else { return false }
            // BYSETPOS counts the year's days, each month's counted as for a MONTHLY rule.
            var all: [CivilDateTime] = [], total = 0
            for m in shape.months.isEmpty ? [start.month] : shape.months.sorted() {
                let inMonth = shape.monthDays(year: y, month: m, defaultDay: start.day)
                all += inMonth.days.map { at(y, m, $0) }
                total += inMonth.total
            }
            found += shape.positioned(all, total: total)
        }
        return true
    }

    /// That day at the start's time of day.
    private func at(_ year: Int, _ month: Int, _ day: Int) -> CivilDateTime {
        CivilDateTime(year: year, month: month, day: day, hour: start.hour, minute: start.minute, second: start.second)
    }

    private static let limitSeconds = RecurrenceSet.pastLibicalLimit.secondsAsUTC

    package func next() -> CivilDateTime? {
        if let count = shape.count, given >= count { return nil }
        while !ended {
            if taken == pending.count {
                pending.removeAll(keepingCapacity: true)
                taken = 0
                // A period from 2583 on gives nothing (libical's limit), nor any after it.
                guard collect(ofPeriod: period, into: &pending) else { break }
                period += 1
                continue
            }
            let t = pending[taken]
            taken += 1
            let seconds = t.secondsAsUTC
            if seconds >= ByRuleRecurrence.limitSeconds {
                ended = true
                break
            }
            if seconds < floorSeconds { continue }
            given += 1
            return t
        }
        return nil
    }
}
