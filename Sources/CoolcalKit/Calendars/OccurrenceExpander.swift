import Foundation

/// Turns calendars into the occurrences that overlap a window: recurrence expanded,
/// overrides applied (exact and `RANGE=THISANDFUTURE`), times resolved to UTC.
public struct OccurrenceExpander {
    private let context: ExpansionContext

    public init(options: ExpansionOptions, diagnostics: Diagnostics) {
        context = ExpansionContext(options: options, diagnostics: diagnostics)
    }

    /// Every occurrence overlapping `window`, sorted by start, then uid.
    public func occurrences(in window: TimeWindow, calendars: [LoadedCalendar]) -> [Occurrence] {
        var result: [Occurrence] = []
        let budget = ExpansionBudget(context.options)
        for calendar in calendars {
            var found: [Occurrence] = []
            for file in calendar.resolvingRevisions().files {
                found += occurrences(in: window, file: file, calendar: calendar, budget: budget)
            }
            result += Revisions.withoutCopies(found)
        }
        return OccurrenceExpander.sorted(result)
    }

    /// `occurrences` in `order`, ties in their given order (what the stable
    /// `sorted(by:)` gives), found by sorting their indices: a merge step moves an
    /// `Int`, not an `Occurrence` (a dozen references to retain and release), which
    /// was most of the sort's time over a long window.
    static func sorted(_ occurrences: [Occurrence]) -> [Occurrence] {
        let starts = occurrences.map(\.startInstant)
        let permutation: [Int] = occurrences.withUnsafeBufferPointer { all in
            Array(all.indices).sorted { i, j in
                if starts[i] != starts[j] { return starts[i] < starts[j] }
                if OccurrenceExpander.order(all[i], all[j]) { return true }
                if OccurrenceExpander.order(all[j], all[i]) { return false }
                return i < j
            }
        }
        return permutation.map { occurrences[$0] }
    }

    /// The occurrences in `window` of one UID's events in one file (an invitation's
    /// own series), nothing else of the file expanded.
    public func occurrences(of uid: String, in window: TimeWindow, file: ICalCalendar, name: String) -> [Occurrence] {
        var series = file
        series.events = file.events.filter { $0.uid == uid }
        return occurrences(in: window, calendars: [LoadedCalendar(name: name, color: nil, files: [series])])
    }

    static func order(_ a: Occurrence, _ b: Occurrence) -> Bool {
        if a.startInstant != b.startInstant { return a.startInstant < b.startInstant }
        if (a.uid ?? "") != (b.uid ?? "") { return (a.uid ?? "") < (b.uid ?? "") }
        if a.endInstant != b.endInstant { return a.endInstant < b.endInstant }
        return a.calendar < b.calendar
    }

    private func occurrences(in window: TimeWindow, file: ICalCalendar, calendar: LoadedCalendar,
                             budget: ExpansionBudget) -> [Occurrence] {
        for warning in file.warnings { context.diagnostics.warn(warning) }
        var overridesByUID: [String: [ICalEvent]] = [:]
        var withoutUID: [ICalEvent] = []
        for event in file.events where event.recurrenceID != nil {
            if let uid = event.uid { overridesByUID[uid, default: []].append(event) } else { withoutUID.append(event) }
        }
        var result: [Occurrence] = []
        var mastered: Set<String> = []
        for event in file.events where event.recurrenceID == nil {
            let overrides = event.uid.flatMap { overridesByUID[$0] } ?? []
            // Several masters with one UID (it happens) share its overrides, whose own
            // occurrences are given once, with the first.
            let first = event.uid.map { mastered.insert($0).inserted } ?? true
            result += EventExpansion(
                master: event, overrides: overrides, zones: file.zones, calendar: calendar,
                context: context, budget: budget, emitOverrides: first
            ).occurrences(in: window)
        }
        // Overrides without a master in this file stand on their own (in UID order, so
        // that warnings come out the same way every time).
        for (uid, overrides) in overridesByUID.sorted(by: { $0.key < $1.key }) where !mastered.contains(uid) {
            for event in overrides {
                result += EventExpansion(master: nil, overrides: [event], zones: file.zones, calendar: calendar,
                                         context: context, budget: budget, emitOverrides: true).occurrences(in: window)
            }
        }
        // An override without a UID belongs to no series: it stands on its own too.
        for event in withoutUID {
            result += EventExpansion(master: nil, overrides: [event], zones: file.zones, calendar: calendar,
                                     context: context, budget: budget, emitOverrides: true).occurrences(in: window)
        }
        return result
    }
}

/// What expanding any one event needs from the run: the options, where warnings go,
/// the zones for floating times and UTC. `EventExpansion` gets this, not its parent.
struct ExpansionContext {
    let options: ExpansionOptions
    let diagnostics: Diagnostics
    private let floating: ZoneRules
    private let utc: ZoneRules

    init(options: ExpansionOptions, diagnostics: Diagnostics) {
        self.options = options
        self.diagnostics = diagnostics
        floating = SystemZone(options.floatingZone)
        utc = SystemZone(TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? options.floatingZone)
    }

    func clock(for event: ICalEvent, zones: ZoneBook, calendar: LoadedCalendar,
               zoneDiagnostics: Diagnostics? = nil) -> EventClock {
        let what = "\(calendar.name): event \"\(event.summary ?? "(no title)")\" (\(event.uid ?? "no UID"))"
        return EventClock(zones: zones, floating: floating, utc: utc, describe: what, diagnostics: diagnostics,
                          zoneDiagnostics: zoneDiagnostics)
    }

    func declined(_ event: ICalEvent) -> Bool {
        event.attendees.contains {
            $0.partstat?.uppercased() == "DECLINED"
                && options.me.contains(CalendarAddress.normalized($0.address))
        }
    }
}
