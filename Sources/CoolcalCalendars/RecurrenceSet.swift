import CoolcalICal
import CoolcalModel
import CoolcalScan

/// One instance of a recurring event before overrides: its wall-clock start in the
/// event's zone and its span in UTC.
package struct RawInstance {
    package var fields: CivilDateTime
    package var start: Int64
    package var end: Int64
}

/// Where a limit stopped a rule's expansion: the instant it had reached, the rule's
/// own end (UNTIL) if it has one, and why. The series may be busy anywhere from
/// `at` on (to `until`, its last instance's latest end), so the caller counts it busy over that span.
package struct Truncation {
    package var at: Int64
    package var until: Int64?
    package var reason: String
}

/// Expands DTSTART + RRULE + RDATE − EXDATE of one master event over a search window,
/// doing in Swift what libical gets wrong (RDATE zones and periods, UNTIL with zones,
/// all-day lengths, DST gaps) and using libical's iterator for the RRULE itself
/// (or, for the simplest rules, `CivilRecurrence`, and for the common BY-rules,
/// `ByRuleRecurrence`, which give the same starts).
package struct RecurrenceSet {
    /// The master's RRULEs, RDATEs and EXDATEs: all of it a set needs (one is made per
    /// series and window, so the rest of the event is not copied in).
    package let rules: [ICalRule]
    package let rdates: [ICalRecurrenceDate]
    package let exdates: [ICalTime]
    package let dtstart: ICalTime
    package let clock: EventClock
    package let zone: ZoneRules
    package let length: InstanceLength
    package let maxSteps: Int
    package let budget: ExpansionBudget
    /// Enough instances: the caller keeps at most this many anyway.
    package let enough: Int
    /// Simple rules and the common BY-rules walked in civil arithmetic (`CivilRecurrence`,
    /// `ByRuleRecurrence`), not by libical.
    package var civilRules = true

    package init(event: ICalEvent, dtstart: ICalTime, clock: EventClock, zone: ZoneRules, length: InstanceLength,
                 maxSteps: Int, budget: ExpansionBudget, enough: Int, civilRules: Bool = true) {
        (rules, rdates, exdates) = (event.rules, event.rdates, event.exdates)
        self.dtstart = dtstart
        self.clock = clock
        self.zone = zone
        self.length = length
        self.maxSteps = maxSteps
        self.budget = budget
        self.enough = enough
        self.civilRules = civilRules
    }
    /// What `fixed()` gives, when a window before worked it out (`ExpansionPlan.Memo`).
    package var known: Fixed?
    /// Where the walks of counted rules are kept across windows (`ExpansionPlan.Memo`).
    package var walks: RecordedWalks?

    /// What every window of a series starts from: DTSTART's instance and the EXDATEs.
    package struct Fixed {
        let first: RawInstance
        let excluded: Exclusions
    }

    /// DTSTART's instance and the EXDATEs, found as `instances` finds them.
    package func fixed() -> Fixed {
        Fixed(first: instance(at: dtstart.fields), excluded: exclusions())
    }

    /// The instances overlapping `search`, and where a limit cut a rule short (the
    /// earliest such point), if one did.
    package func instances(overlapping search: TimeWindow) -> (instances: [RawInstance], cut: Truncation?) {
        var byStart: [Int64: RawInstance] = [:]
        let first = known?.first ?? instance(at: dtstart.fields)
        consider(first, search, &byStart)
        var cut: Truncation?
        for (index, rule) in rules.enumerated() {
            guard let stopped = expand(rule, index, from: first, search, &byStart) else { continue }
            if let c = cut {
                // Busy from the first cut to the last end any cut rule may reach.
                cut = Truncation(at: min(c.at, stopped.at), until: c.until.flatMap { a in stopped.until.map { max(a, $0) } },
                                 reason: c.at <= stopped.at ? c.reason : stopped.reason)
            } else {
                cut = stopped
            }
        }
        for rdate in rdates {
            consider(instance(of: rdate), search, &byStart)
        }
        // After the rules, as the warnings of a zone EXDATE's come after theirs.
        let excluded = known?.excluded ?? exclusions()
        let instances = byStart.values
            .filter { !excluded.matches($0, isDate: dtstart.isDate) }
            .sorted { $0.start < $1.start }
        return (instances, cut)
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

    /// Adds the rule's instances in `search` (`first`: DTSTART's); returns where a limit
    /// stopped it, if one did.
    private func expand(_ rule: ICalRule, _ index: Int, from first: RawInstance, _ search: TimeWindow,
                        _ into: inout [Int64: RawInstance]) -> Truncation? {
        // Only worth saying when the series could reach the window at all.
        let reaches = first.start <= search.end
        // RFC 5545 §3.8.5.3: DTSTART is the first instance even when UNTIL is before it.
        if let until = rule.until, exceeds(first, until) {
            (clock.zoneDiagnostics ?? clock.diagnostics).warn("\(clock.describe): RRULE UNTIL is before DTSTART; only DTSTART is used")
            return nil
        }
        if let why = rule.unboundedReason(start: dtstart.fields) {
            if reaches { clock.diagnostics.warn("\(clock.describe): RRULE \(rule.textWithoutUntil) is not expanded (\(why)); only DTSTART is used") }
            return nil
        }
        // Wall-clock bounds: every zone is within a day of UTC (−12 h to +14 h).
        let low = CivilDateTime(utcSeconds: search.start - length.bound - 86_400)
        let high = CivilDateTime(utcSeconds: search.end + 86_400)
        // A rule without COUNT is the same series from any of its steps: a DAILY or
        // shorter one starts at its last step before `low` (libical's set_start loses the
        // INTERVAL's phase for those), a day earlier with BY-filters (libical may skip
        // the rest of its first day when that day's first step does not match them).
        var from = dtstart.fields
        let step = rule.stepSeconds
        let slack: Int64 = rule.facts.hasByParts ? 86_400 : 0
        if !rule.hasCount, let step, dtstart.fields.secondsAsUTC < low.secondsAsUTC - slack {
            let behind = low.secondsAsUTC - slack - dtstart.fields.secondsAsUTC
            from = CivilDateTime(utcSeconds: dtstart.fields.secondsAsUTC + behind / step * step)
            if dtstart.isDate { from = from.dateOnly }
        }
        guard let iterator = walk(of: rule, index, from: from) else {
            if reaches { clock.diagnostics.warn("\(clock.describe): RRULE \(rule.textWithoutUntil) cannot be expanded; only DTSTART is used") }
            return nil
        }
        let civil = iterator as? CivilRecurrence
        if !rule.hasCount && step == nil && rule.interval <= 1 && dtstart.fields < low {
            _ = iterator.skip(to: dtstart.isDate ? low.dateOnly : low)
        }
        var steps = 0, calls = 0
        var previous = from
        // Where the rule ends at the latest (UNTIL), for the span a cut leaves busy:
        // worked out only for a cut.
        func cut(_ reason: String) -> Truncation {
            Truncation(at: zone.utcSeconds(of: previous), until: end(of: rule), reason: reason)
        }
        // A counted simple rule is not skipped (libical's set_start cannot): its
        // instances before the window are passed over at once, counted as the loop
        // below counts them (one step each), as far as the limits let the loop go.
        if let civil, rule.hasCount, rule.until == nil, dtstart.fields < low {
            let (passed, last) = civil.pass(before: low, atMost: min(maxSteps, budget.steps))
            if passed > 0, let last {
                steps += passed
                calls += passed
                budget.steps -= passed
                previous = last
            }
        }
        // RFC 5545 §3.3.10: "The DTSTART property value always counts as the first
        // occurrence." libical counts only the instances that match the rule, so when
        // DTSTART does not (a Friday start of `FREQ=WEEKLY;BYDAY=MO;COUNT=4`) the rule gives
        // one instance fewer. (A counted rule is iterated from DTSTART; a civil one's first
        // instance is DTSTART, passed over or not.)
        var counted = rule.hasCount ? rule.facts.count : nil
        // Each start compared as its `secondsAsUTC` (what `<` compares), found once a step.
        let lowSeconds = low.secondsAsUTC, highSeconds = high.secondsAsUTC
        let untilDay = rule.until.map { $0.fields.addingDays(2).secondsAsUTC }
        var previousSeconds = previous.secondsAsUTC
        while let fields = iterator.next() {
            if calls == 0, let c = counted, fields != (dtstart.isDate ? dtstart.fields.dateOnly : dtstart.fields) {
                counted = c - 1
            }
            if let c = counted, calls >= c { break }
            let seconds = fields.secondsAsUTC
            // libical walked every step of the frequency from the previous instance.
            let walked = step.map { max(1, Int(min((seconds - previousSeconds) / $0, Int64(Int32.max)))) } ?? 1
            steps += walked
            calls += 1
            budget.steps -= walked
            if budget.steps < 0 {
                clock.diagnostics.warn("stopped expanding recurrences: more than the \(budget.limit) rule steps allowed for one query; results may be incomplete")
                return seconds > highSeconds ? nil : cut("expansion stopped at the \(RecurrenceSet.grouped(budget.limit))-step limit for one query")
            }
            if steps > maxSteps {
                clock.diagnostics.warn("\(clock.describe): stopped expanding after \(maxSteps) recurrence steps")
                return seconds > highSeconds ? nil : cut("expansion stopped at the \(RecurrenceSet.grouped(maxSteps))-step limit")
            }
            previous = fields
            previousSeconds = seconds
            if seconds > highSeconds { return nil }
            if seconds < lowSeconds {
                // Before the window: no zone arithmetic, only a cheap, safe UNTIL check
                // (its date: the seconds less the time of day).
                if let untilDay, seconds - Int64(fields.hour * 3600 + fields.minute * 60 + fields.second) > untilDay { return nil }
                continue
            }
            let candidate = instance(at: fields)
            if let until = rule.until, exceeds(candidate, until) { return nil }
            consider(candidate, search, &into)
            // Enough: the caller keeps fewer, and says so where it cuts.
            if into.count > enough { return nil }
        }
        // libical ends every rule at the end of 2582: say so when the series had more to give.
        // (A COUNT rule is iterated from DTSTART, so `calls` counts its instances.)
        let ended = (rule.until.map { $0.fields < RecurrenceSet.pastLibicalLimit } ?? false) || (counted.map { calls >= $0 } ?? false)
        // (No UTC offset moves 2583 by a month: a search ending before that needs no zone.)
        if !ended && search.end > RecurrenceSet.pastLibicalLimit.secondsAsUTC - 31 * 86_400
            && zone.utcSeconds(of: RecurrenceSet.pastLibicalLimit) < search.end {
            clock.diagnostics.warn("\(clock.describe): RRULE \(rule.textWithoutUntil) is expanded only up to 2582-12-31 (libical's limit); later instances are left out")
        }
        return nil
    }

    /// `iterator(for:)`; for a counted rule walked other than by `CivilRecurrence` (whose
    /// instances before the window are passed over at once), the walk `walks` keeps.
    /// (A counted rule is walked from DTSTART in every window: `from` is the same.)
    private func walk(of rule: ICalRule, _ index: Int, from: CivilDateTime) -> RuleIterator? {
        guard let walks, rule.hasCount, let count = rule.facts.count, count <= RecordedWalk.longest else {
            return RecurrenceSet.iterator(for: rule, from: from, isDate: dtstart.isDate, civilRules: civilRules)
        }
        if let recorded = walks.byRule[index] { return recorded.replay() }
        guard let made = RecurrenceSet.iterator(for: rule, from: from, isDate: dtstart.isDate, civilRules: civilRules) else {
            return nil
        }
        if made is CivilRecurrence { return made }
        let recorded = RecordedWalk(made)
        walks.byRule[index] = recorded
        return recorded.replay()
    }

    /// What walks `rule` from `from`: a civil walk that gives libical's starts where one
    /// takes the rule (`CivilRecurrence`, then `ByRuleRecurrence`) and `civilRules` is on,
    /// else `WeekNumberRecurrence` (BYWEEKNO without BYDAY: libical refuses it, the RFC
    /// does not), else libical's iterator; nil when none will.
    package static func iterator(for rule: ICalRule, from: CivilDateTime, isDate: Bool, civilRules: Bool) -> RuleIterator? {
        if civilRules {
            if let civil = CivilRecurrence(rule: rule, start: from, isDate: isDate) { return civil }
            if let byRule = ByRuleRecurrence(rule: rule, start: from, isDate: isDate) { return byRule }
        }
        return WeekNumberRecurrence(rule: rule, start: from, isDate: isDate) ?? RecurrenceIterator(rule: rule, start: from, isDate: isDate)
    }

    /// The latest instant the series can be busy, or nil when it has no end: every
    /// rule ends (`end(of:)`), and RDATEs and DTSTART are known.
    package func latestEnd() -> Int64? {
        var last = instance(at: dtstart.fields).end
        for rule in rules {
            guard let e = end(of: rule) else { return nil }
            last = max(last, e)
        }
        for rdate in rdates { last = max(last, instance(of: rdate).end) }
        return last
    }

    /// The latest end of the rule's last instance: from UNTIL, or from COUNT for a rule
    /// with at least one instance in every period (as the pre-filter bounds it: no BY
    /// parts but a weekly rule's plain BYDAY); nil when it has no such bound.
    private func end(of rule: ICalRule) -> Int64? {
        if let u = rule.until {
            let last = u.isDate ? zone.utcSeconds(of: u.fields.addingDays(1))
                : u.reference == .utc ? u.fields.secondsAsUTC : zone.utcSeconds(of: u.fields)
            return last + length.bound
        }
        guard let count = rule.facts.count.map(Int64.init), count < 100_000_000,
              let period = rule.facts.periodPerInstance else { return nil }
        if period == 31 * 86_400 && dtstart.fields.day > 28 { return nil }
        if period == 366 * 86_400 && dtstart.fields.month == 2 && dtstart.fields.day == 29 { return nil }
        let (steps, o1) = (count + 1).multipliedReportingOverflow(by: Int64(max(rule.interval, 1)))
        let (span, o2) = steps.multipliedReportingOverflow(by: period)
        // Past the last instant an occurrence may have: no bound worth having.
        guard !o1, !o2, span < TimeWindow.lastInstant - dtstart.fields.secondsAsUTC else { return nil }
        return zone.utcSeconds(of: CivilDateTime(utcSeconds: dtstart.fields.secondsAsUTC + span)) + length.bound
    }

    /// 400000 → "400,000", for the reasons a cut gives.
    package static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return out
    }

    /// The first wall-clock time libical's recurrence iterator never reaches.
    package static let pastLibicalLimit = CivilDateTime(year: 2583, month: 1, day: 1)

    /// RFC 5545 §3.3.10: UNTIL is inclusive; UTC for zoned starts, a date for dates.
    private func exceeds(_ i: RawInstance, _ until: ICalTime) -> Bool {
        if until.isDate { return i.fields.dateOnly > until.fields }
        if until.reference == .utc && !dtstart.isDate { return i.start > until.fields.secondsAsUTC }
        return i.fields > until.fields
    }

    private func exclusions() -> Exclusions {
        var e = Exclusions()
        for ex in exdates {
            if ex.isDate || dtstart.isDate { e.dates.insert(ex.fields.dateOnly) }
            else { e.instants.insert(clock.instant(of: ex)) }
        }
        return e
    }
}

/// The EXDATEs of a series: UTC instants, and dates for an all-day one.
package struct Exclusions {
    var instants: Set<Int64> = []
    var dates: Set<CivilDateTime> = []

    func matches(_ i: RawInstance, isDate: Bool) -> Bool {
        instants.contains(i.start) || dates.contains(i.fields.dateOnly)
    }
}
