/// One instance of a recurring event before overrides: its wall-clock start in the
/// event's zone and its span in UTC.
struct RawInstance {
    var fields: CivilDateTime
    var start: Int64
    var end: Int64
}

/// Expands DTSTART + RRULE + RDATE − EXDATE of one master event over a search window,
/// doing in Swift what libical gets wrong (RDATE zones and periods, UNTIL with zones,
/// all-day lengths, DST gaps) and using libical's iterator for the RRULE itself.
struct RecurrenceSet {
    let event: ICalEvent
    let dtstart: ICalTime
    let clock: EventClock
    let zone: ZoneRules
    let length: InstanceLength
    let maxSteps: Int
    let budget: ExpansionBudget
    /// Enough instances: the caller keeps at most this many anyway.
    let enough: Int

    func instances(overlapping search: TimeWindow) -> [RawInstance] {
        var byStart: [Int64: RawInstance] = [:]
        let first = instance(at: dtstart.fields)
        consider(first, search, &byStart)
        for rule in event.rules {
            expand(rule, search, &byStart)
        }
        for rdate in event.rdates {
            consider(instance(of: rdate), search, &byStart)
        }
        let excluded = exclusions()
        return byStart.values
            .filter { !excluded.matches($0, isDate: dtstart.isDate) }
            .sorted { $0.start < $1.start }
    }

    private func instance(at fields: CivilDateTime) -> RawInstance {
        let start = zone.utcSeconds(of: fields)
        return RawInstance(fields: fields, start: start, end: length.end(startFields: fields, start: start, zone: zone))
    }

    private func instance(of rdate: ICalRecurrenceDate) -> RawInstance {
        let startTime = rdate.start
        let start = clock.instant(of: startTime)
        let fields = dtstart.isDate ? startTime.fields.dateOnly : zone.localFields(ofUTC: start)
        switch rdate {
        case .time:
            return instance(at: fields)
        case .period(_, let end):
            return RawInstance(fields: fields, start: start, end: clock.instant(of: end))
        case .periodDuration(_, let d):
            let sign = d.negative ? -1 : 1
            let len = InstanceLength.nominal(days: sign * d.days, seconds: Int64(sign * d.seconds))
            return RawInstance(fields: fields, start: start, end: len.end(startFields: fields, start: start, zone: zone))
        }
    }

    private func consider(_ i: RawInstance, _ search: TimeWindow, _ into: inout [Int64: RawInstance]) {
        if search.overlaps(start: i.start, end: max(i.end, i.start)), into[i.start] == nil {
            into[i.start] = i
        }
    }

    private func expand(_ rule: ICalRule, _ search: TimeWindow, _ into: inout [Int64: RawInstance]) {
        guard let iterator = RecurrenceIterator(rule: rule, start: dtstart.fields, isDate: dtstart.isDate) else {
            // Only worth saying when the series could reach the window at all.
            if instance(at: dtstart.fields).start <= search.end {
                clock.diagnostics.warn("\(clock.describe): RRULE \(rule.textWithoutUntil) cannot be expanded; only DTSTART is used")
            }
            return
        }
        // Wall-clock bounds: every zone is within a day of UTC (−12 h to +14 h).
        let low = CivilDateTime(utcSeconds: search.start - length.bound - 86_400)
        let high = CivilDateTime(utcSeconds: search.end + 86_400)
        if !rule.hasCount && rule.interval <= 1 && dtstart.fields < low {
            _ = iterator.skip(to: dtstart.isDate ? low.dateOnly : low)
        }
        var steps = 0
        while let fields = iterator.next() {
            steps += 1
            budget.steps -= 1
            if budget.steps < 0 {
                clock.diagnostics.warn("stopped expanding recurrences: more than the \(budget.limit) rule steps allowed for one query; results may be incomplete")
                return
            }
            if steps > maxSteps {
                clock.diagnostics.warn("\(clock.describe): stopped expanding after \(maxSteps) recurrence steps")
                return
            }
            if fields > high { return }
            if fields < low {
                // Before the window: no zone arithmetic, only a cheap, safe UNTIL check.
                if let until = rule.until, fields.dateOnly > until.fields.addingDays(2) { return }
                continue
            }
            let candidate = instance(at: fields)
            if let until = rule.until, exceeds(candidate, until) { return }
            consider(candidate, search, &into)
            if into.count > enough { return }
        }
        // libical ends every rule at the end of 2582: say so when the series had more to give.
        // (A COUNT rule is iterated from DTSTART, so `steps` counts its instances.)
        let count = rule.hasCount
            ? rule.textWithoutUntil.split(separator: ";").lazy.compactMap { $0.hasPrefix("COUNT=") ? Int($0.dropFirst(6)) : nil }.first
            : nil
        let ended = (rule.until.map { $0.fields < RecurrenceSet.pastLibicalLimit } ?? false) || (count.map { steps >= $0 } ?? false)
        if !ended && zone.utcSeconds(of: RecurrenceSet.pastLibicalLimit) < search.end {
            clock.diagnostics.warn("\(clock.describe): RRULE \(rule.textWithoutUntil) is expanded only up to 2582-12-31 (libical's limit); later instances are left out")
        }
    }

    /// The first wall-clock time libical's recurrence iterator never reaches.
    static let pastLibicalLimit = CivilDateTime(year: 2583, month: 1, day: 1)

    /// RFC 5545 §3.3.10: UNTIL is inclusive; UTC for zoned starts, a date for dates.
    private func exceeds(_ i: RawInstance, _ until: ICalTime) -> Bool {
        if until.isDate { return i.fields.dateOnly > until.fields }
        if until.reference == .utc && !dtstart.isDate { return i.start > until.fields.secondsAsUTC }
        return i.fields > until.fields
    }

    private func exclusions() -> Exclusions {
        var e = Exclusions()
        for ex in event.exdates {
            if ex.isDate || dtstart.isDate { e.dates.insert(ex.fields.dateOnly) }
            else { e.instants.insert(clock.instant(of: ex)) }
        }
        return e
    }
}

private struct Exclusions {
    var instants: Set<Int64> = []
    var dates: Set<CivilDateTime> = []

    func matches(_ i: RawInstance, isDate: Bool) -> Bool {
        instants.contains(i.start) || dates.contains(i.fields.dateOnly)
    }
}
