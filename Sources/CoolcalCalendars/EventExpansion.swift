import CoolcalICal
import CoolcalModel
import CoolcalScan
import CoolcalZones

/// The occurrences of one UID in one file: a master (possibly recurring) and its
/// RECURRENCE-ID overrides. libical's own expansion ignores overrides; here an
/// override replaces the master's instance with the same original start, and a
/// `RANGE=THISANDFUTURE` override moves and restyles every later instance too.
package struct EventExpansion {
    /// The master and its overrides, referred to, not copied: one expansion per series
    /// and window.
    package let series: ExpansionPlan.Series
    package var master: ICalEvent? { series.master }
    package var overrides: [ICalEvent] { series.overrides }
    package let zones: ZoneBook
    package let calendar: LoadedCalendar
    package let context: ExpansionContext
    package let budget: ExpansionBudget
    /// False for the second and later masters of one UID: the overrides' own
    /// occurrences were given with the first.
    package var emitOverrides: Bool { series.emitOverrides }
    /// The series' facts kept across windows (`ExpansionPlan.Memo`), for `merge`.
    package var memo: ExpansionPlan.Memo? { series.memo }

    private struct Override {
        let event: ICalEvent
        let key: OriginalKey
        /// Days for an all-day series, seconds otherwise.
        let shift: Int64

        /// The shift in seconds, at most, for widening the search window.
        var shiftBound: Int64 {
            if case .date = key { return (abs(shift) + 1) * 86_400 }
            return abs(shift)
        }
        let length: InstanceLength
        /// The RECURRENCE-ID as written, which the override's own occurrence reports (the
        /// same whether or not the pre-filter kept its master).
        var written: OriginalKey
    }

    /// An instance's identity: its original start as a date or a UTC instant.
    private enum OriginalKey: Hashable, Comparable {
        case date(CivilDateTime)
        case instant(Int64)
    }

    /// Zone warnings of the master and of the overrides, each forwarded only when it
    /// has occurrences in the window (what the pre-filter drops never warns).
    private let masterZoneWarnings = Diagnostics()
    private let overrideZoneWarnings = Diagnostics()

    package init(series: ExpansionPlan.Series, zones: ZoneBook, calendar: LoadedCalendar,
                 context: ExpansionContext, budget: ExpansionBudget) {
        self.budget = budget
        self.series = series
        self.zones = zones
        self.calendar = calendar
        self.context = context
    }

    package func occurrences(in window: TimeWindow) -> [Occurrence] {
        let (own, instances) = expand(in: window)
        if !own.isEmpty {
            for warning in overrideZoneWarnings.warnings { context.diagnostics.warn(warning) }
        }
        if !instances.isEmpty {
            for warning in masterZoneWarnings.warnings { context.diagnostics.warn(warning) }
        }
        return own + instances
    }

    /// A span every instance of `series` lies in, when outside it `occurrences` gives
    /// nothing and says nothing (`ExpansionPlan` skips such windows); nil when that is
    /// not sure. A master with no override and no problem: one that does not recur has
    /// its one instance (what `expand` finds: the same zone, start and length); a series
    /// of simple rules (`CivilRecurrence`'s, each with an UNTIL or a COUNT) runs from its
    /// earliest start to `RecurrenceSet.latestEnd`, nine days more either way (what any two
    /// UTC offsets, at most ±99:59 each, can move a wall-clock time), and walks at
    /// most half the step limit in any window (so no limit is reached, no warning given,
    /// outside). The zone and length warnings met here are kept aside: they are given
    /// only with an occurrence.
    package static func reach(of series: ExpansionPlan.Series, zones: ZoneBook, calendar: LoadedCalendar,
                      context: ExpansionContext) -> (start: Int64, end: Int64)? {
        guard let master = series.master, series.overrides.isEmpty, master.problems.isEmpty,
              let dtstart = master.start, dtstart.fields.isValid else { return nil }
        let clock = context.clock(for: master, zones: zones, calendar: calendar, zoneDiagnostics: Diagnostics())
        let zone = clock.zone(of: dtstart)
        let start = zone.utcSeconds(of: dtstart.fields)
        let length = InstanceLength.of(master, start: dtstart, clock: clock)
        let end = length.end(startFields: dtstart.fields, start: start, zone: zone)
        guard master.isRecurring else { return (start, max(end, start)) }
        // Without the civil walk (a test's option) libical's iterator may refuse a rule,
        // and says so in any window after DTSTART.
        guard context.options.civilRecurrence else { return nil }
        let set = RecurrenceSet(event: master, dtstart: dtstart, clock: clock, zone: zone, length: length, maxSteps: 0,
                                budget: ExpansionBudget(context.options), enough: 0)
        guard let last = set.latestEnd(),
              master.rules.allSatisfy({ walk(of: $0, from: dtstart, until: last) <= context.options.maxSteps / 2 }) else { return nil }
        let first = master.rdates.reduce(start) { min($0, clock.instant(of: $1.start)) }
        return (first - 9 * 86_400, max(last, end) + 9 * 86_400)
    }

    /// The most steps expanding `rule` can take in any window (its whole length, in steps
    /// of its frequency), or `Int.max` when it is not one of the rules walked in civil
    /// arithmetic with an end.
    private static func walk(of rule: ICalRule, from dtstart: ICalTime, until last: Int64) -> Int {
        guard rule.unboundedReason(start: dtstart.fields) == nil else { return .max }
        guard CivilRecurrence(rule: rule, start: dtstart.fields, isDate: dtstart.isDate) != nil else {
            // A BY-rule of `ByRuleRecurrence` gives at most one instance a day, each counted
            // as one step, or as the days since the last for a DAILY rule: two a day at most.
            guard ByRuleRecurrence(rule: rule, start: dtstart.fields, isDate: dtstart.isDate) != nil else { return .max }
            let days = max(0, last - dtstart.fields.secondsAsUTC + 2 * 86_400) / 86_400
            return Int(min(days, Int64(Int32.max))) * 2 + 2
        }
        let base: Int64
        switch rule.facts.parts?.frequency {
        case .daily: base = 86_400
        case .weekly: base = 7 * 86_400
        case .monthly: base = 28 * 86_400
        case .yearly: base = 365 * 86_400
        default: return .max
        }
        let span = max(0, last - dtstart.fields.secondsAsUTC + 2 * 86_400)
        let bySpan = Int(min(span / base, Int64(Int32.max))) + 2
        guard let count = rule.facts.count, rule.until == nil else { return bySpan }
        return min(bySpan, count.multipliedReportingOverflow(by: max(rule.interval, 1)).partialValue + 2)
    }

    private func clock(for event: ICalEvent) -> EventClock {
        let warnings = event.recurrenceID == nil ? masterZoneWarnings : overrideZoneWarnings
        return context.clock(for: event, zones: zones, calendar: calendar, zoneDiagnostics: warnings)
    }

    /// The overrides' own occurrences, and the master's instances.
    private func expand(in window: TimeWindow) -> ([Occurrence], [Occurrence]) {
        var own: [Occurrence] = []
        var result: [Occurrence] = []
        var replaced: Set<OriginalKey> = []
        var ranges: [Override] = []
        for event in overrides {
            guard let parsed = parse(event) else { continue }
            replaced.insert(parsed.key)
            if event.thisAndFuture { ranges.append(parsed) }
            if emitOverrides, let o = standalone(event, window: window, recurrenceID: parsed.written) { own.append(o) }
        }
        ranges.sort { $0.key < $1.key }
        guard let master = series.master, let dtstart = usableStart(master) else { return (own, result) }
        let clock = clock(for: master)
        // The query's limits are spent (the warning saying so has been given): a series
        // that may reach the window is busy over all of it, marked incomplete.
        if master.isRecurring && (budget.steps <= 0 || budget.occurrences <= 0) {
            let reason = budget.steps <= 0
                ? "expansion stopped at the \(RecurrenceSet.grouped(budget.limit))-step limit for one query"
                : "more than \(RecurrenceSet.grouped(context.options.maxOccurrencesPerQuery)) occurrences in the query"
            let cut = Truncation(at: clock.instant(of: dtstart), until: RecurrenceSet(
                event: master, dtstart: dtstart, clock: clock, zone: clock.zone(of: dtstart),
                length: InstanceLength.of(master, start: dtstart, clock: clock), maxSteps: 0, budget: budget, enough: 0).latestEnd(),
                reason: reason)
            return (own, span(of: cut, master, in: window).map { [$0] } ?? [])
        }
        // A recurrence libical could not read changes every answer: say so, always.
        // (libical's own words name the property; an unknown property called "XRRULE"
        // is not a recurrence and stays quiet, as it does when the pre-filter drops it.)
        for problem in master.problems
        where problem.contains("in RRULE property") || problem.contains("in RDATE property") || problem.hasPrefix("an RRULE") {
            context.diagnostics.warn("\(clock.describe): \(problem)")
        }
        // `RRULE:` with nothing after it: libical drops the property.
        if master.problems.contains(where: { $0.hasPrefix("No value for RRULE property") }) {
            context.diagnostics.warn("\(clock.describe): an empty RRULE; only DTSTART is used")
        }
        let facts = memo.flatMap { masterFacts(master, dtstart, in: $0) }
        let zone = facts?.zone ?? clock.zone(of: dtstart)
        let length = facts?.length ?? InstanceLength.of(master, start: dtstart, clock: clock)
        let widen = ranges.map { $0.shiftBound + $0.length.bound }.max() ?? 0
        let search = TimeWindow(start: window.start - widen, end: window.end + widen)
        var set = RecurrenceSet(event: master, dtstart: dtstart, clock: clock, zone: zone, length: length,
                                maxSteps: context.options.maxSteps, budget: budget,
                                enough: min(context.options.maxOccurrencesPerEvent, max(budget.occurrences, 0)),
                                civilRules: context.options.civilRecurrence)
        set.known = facts?.fixed
        set.walks = memo?.walks
        var kept = 0
        // The master's marks (declined, tentative, shown as free), worked out for its
        // first instance in the window: most series of a large calendar have none there.
        var masterMarks: Marks?
        let (instances, setCut) = set.instances(overlapping: search)
        var cut = setCut
        for raw in instances {
            let key: OriginalKey = dtstart.isDate ? .date(raw.fields.dateOnly) : .instant(raw.start)
            if replaced.contains(key) { continue }
            var instance = raw
            var source = master
            var marks: Marks?
            if let range = ranges.last(where: { $0.key <= key }) {
                source = range.event
                marks = Marks(range.event, context)
                instance = moved(raw, by: range, isDate: dtstart.isDate, zone: zone)
            }
            guard window.overlaps(start: instance.start, end: instance.end) else { continue }
            if let c = cut, instance.start >= c.at { break }
            kept += 1
            budget.occurrences -= 1
            if kept > context.options.maxOccurrencesPerEvent {
                context.diagnostics.warn("\(clock.describe): more than \(context.options.maxOccurrencesPerEvent) occurrences in the window; the rest are left out")
                cut = Truncation(at: instance.start, until: nil, reason: "more than \(RecurrenceSet.grouped(context.options.maxOccurrencesPerEvent)) occurrences in the window")
                break
            }
            if budget.occurrences < 0 {
                context.diagnostics.warn("more than \(context.options.maxOccurrencesPerQuery) occurrences in the window; the rest are left out")
                cut = Truncation(at: instance.start, until: nil, reason: "more than \(RecurrenceSet.grouped(context.options.maxOccurrencesPerQuery)) occurrences in the query")
                break
            }
            let rid: OccurrenceTime? = master.isRecurring ? time(of: key) : nil
            if marks == nil {
                let own = masterMarks ?? memo?.marks ?? Marks(master, context)
                memo?.marks = own
                masterMarks = own
                marks = own
            }
            result.append(occurrence(source, instance, allDay: dtstart.isDate, recurrenceID: rid, marks: marks))
        }
        // Cut short by a limit: what was found, and the rest of the span it could
        // still cover, are all incomplete — busy, never "free" by omission.
        if let cut {
            for i in result.indices { result[i].incomplete = cut.reason }
            if let rest = span(of: cut, master, in: window) { result.append(rest) }
        }
        return (own, result)
    }

    /// The master's facts from `memo`, worked out the first time with a clock whose zone
    /// warnings are set aside: kept only when there were none (then nothing here warns in
    /// any window, and each window gets the same values); nil when not kept.
    private func masterFacts(_ master: ICalEvent, _ dtstart: ICalTime, in memo: ExpansionPlan.Memo) -> ExpansionPlan.Memo.Facts? {
        if let known = memo.facts { return known }
        let aside = Diagnostics()
        let clock = context.clock(for: master, zones: zones, calendar: calendar, zoneDiagnostics: aside)
        let zone = clock.zone(of: dtstart)
        let length = InstanceLength.of(master, start: dtstart, clock: clock)
        let set = RecurrenceSet(event: master, dtstart: dtstart, clock: clock, zone: zone, length: length, maxSteps: 0,
                                budget: budget, enough: 0)
        let fixed = set.fixed()
        let facts = aside.warnings.isEmpty ? ExpansionPlan.Memo.Facts(zone: zone, length: length, fixed: fixed) : nil
        memo.facts = .some(facts)
        return facts
    }

    /// The span a series cut short at `cut` may still cover in `window`: from where
    /// expansion stopped to the end of the window or of the rule; nil when that is empty.
    private func span(of cut: Truncation, _ master: ICalEvent, in window: TimeWindow) -> Occurrence? {
        let start = max(cut.at, window.start)
        let end = min(window.end, cut.until ?? window.end)
        guard start < end else { return nil }
        var o = occurrence(master, RawInstance(fields: CivilDateTime(utcSeconds: start), start: start, end: end),
                           allDay: false, recurrenceID: nil)
        o.incomplete = cut.reason
        return o
    }

    private func usableStart(_ event: ICalEvent) -> ICalTime? {
        guard let start = event.start, start.fields.isValid else {
            let clock = context.clock(for: event, zones: zones, calendar: calendar)
            let why = event.problems.first.map { " (\($0))" } ?? ""
            context.diagnostics.warn("\(clock.describe): no valid DTSTART\(why); event skipped")
            return nil
        }
        return start
    }

    private func parse(_ event: ICalEvent) -> Override? {
        guard let rid = event.recurrenceID, let start = usableStart(event) else { return nil }
        let clock = clock(for: event)
        let length = InstanceLength.of(event, start: start, clock: clock)
        // On an all-day series a date-time RECURRENCE-ID (Exchange writes
        // `20200921T000000Z`) names the date it is on, as written (RFC 5545 §3.8.4.4:
        // it must be a date there).
        let ridInstant = rid.isDate ? 0 : clock.instant(of: rid)
        let written: OriginalKey = rid.isDate ? .date(rid.fields) : .instant(ridInstant)
        if rid.isDate || master?.start?.isDate == true {
            let day = rid.fields.dateOnly
            return Override(event: event, key: .date(day), shift: Int64(start.fields.dateOnly.days(since: day)),
                            length: length, written: written)
        }
        return Override(event: event, key: .instant(ridInstant), shift: clock.instant(of: start) - ridInstant,
                        length: length, written: written)
    }

    private func moved(_ raw: RawInstance, by range: Override, isDate: Bool, zone: ZoneRules) -> RawInstance {
        if isDate {
            let fields = raw.fields.addingDays(Int(range.shift))
            let start = zone.utcSeconds(of: fields)
            return RawInstance(fields: fields, start: start,
                               end: range.length.end(startFields: fields, start: start, zone: zone))
        }
        let start = raw.start + range.shift
        let fields = zone.localFields(ofUTC: start)
        return RawInstance(fields: fields, start: start,
                           end: range.length.end(startFields: fields, start: start, zone: zone))
    }

    private func standalone(_ event: ICalEvent, window: TimeWindow, recurrenceID: OriginalKey) -> Occurrence? {
        guard let start = event.start, start.fields.isValid else { return nil }
        let clock = context.clock(for: event, zones: zones, calendar: calendar)
        let zone = clock.zone(of: start)
        let length = InstanceLength.of(event, start: start, clock: clock)
        let s = zone.utcSeconds(of: start.fields)
        let raw = RawInstance(fields: start.fields, start: s, end: length.end(startFields: start.fields, start: s, zone: zone))
        guard window.overlaps(start: raw.start, end: raw.end) else { return nil }
        return occurrence(event, raw, allDay: start.isDate, recurrenceID: time(of: recurrenceID))
    }

    private func time(of key: OriginalKey) -> OccurrenceTime {
        switch key {
        case .date(let d): return .date(d)
        case .instant(let s): return .instant(s)
        }
    }

    /// What makes an event free or tentative for the owner: the same for each of its
    /// instances, so found once per series, not per instance (attendee addresses are
    /// normalized to find them).
    struct Marks {
        let declined: Bool, tentative: Bool, shownAsFree: Bool

        init(_ event: ICalEvent, _ context: ExpansionContext) {
            declined = context.declined(event)
            tentative = context.tentative(event)
            shownAsFree = context.shownAsFree(event)
        }
    }

    private func occurrence(_ event: ICalEvent, _ raw: RawInstance, allDay: Bool, recurrenceID: OccurrenceTime?,
                            marks given: Marks? = nil) -> Occurrence {
        let marks = given ?? Marks(event, context)
        let end = min(max(raw.end, raw.start), max(TimeWindow.lastInstant, raw.start))
        let startTime: OccurrenceTime
        let endTime: OccurrenceTime
        if allDay {
            let zone = context.floating
            var endFields = zone.localFields(ofUTC: end).dateOnly
            if endFields.year > 9999 { endFields = .lastDate }
            startTime = .date(raw.fields.dateOnly)
            endTime = .date(endFields > raw.fields.dateOnly ? endFields : raw.fields.dateOnly)
        } else {
            startTime = .instant(raw.start)
            endTime = .instant(end)
        }
        return Occurrence(
            uid: event.uid, recurrenceID: recurrenceID, summary: event.summary, calendar: calendar.name,
            calendarColor: calendar.color, start: startTime, end: endTime, startInstant: raw.start,
            endInstant: end, allDay: allDay, transparent: event.transparent, status: event.status,
            declinedByOwner: marks.declined, inviteID: event.inviteID, incomplete: nil,
            calendarName: calendar.displayName, tentative: marks.tentative, shownAsFree: marks.shownAsFree,
            inTransparentCalendar: calendar.transparent)
    }
}
