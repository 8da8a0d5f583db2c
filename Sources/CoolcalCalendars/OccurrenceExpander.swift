import Foundation
import CoolcalICal
import CoolcalModel
import CoolcalZones

/// Turns calendars into the occurrences that overlap a window: recurrence expanded,
/// overrides applied (exact and `RANGE=THISANDFUTURE`), times resolved to UTC.
public struct OccurrenceExpander {
    private let context: ExpansionContext

    public init(options: ExpansionOptions, diagnostics: Diagnostics) {
        context = ExpansionContext(options: options, diagnostics: diagnostics)
    }

    /// Every occurrence overlapping `window`, sorted by start, then uid.
    public func occurrences(in window: TimeWindow, calendars: [LoadedCalendar]) -> [Occurrence] {
        occurrences(in: window, plan: ExpansionPlan(calendars, context: context, forManyWindows: false))
    }

    /// Calendars made ready for `occurrences(in:prepared:)` in many windows: what
    /// each window gives is what `occurrences(in:calendars:)` gives, with less work.
    public func prepare(_ calendars: [LoadedCalendar]) -> PreparedCalendars {
        PreparedCalendars(plan: ExpansionPlan(calendars, context: context, forManyWindows: true))
    }

    public func occurrences(in window: TimeWindow, prepared: PreparedCalendars) -> [Occurrence] {
        occurrences(in: window, plan: prepared.plan)
    }

    private func occurrences(in window: TimeWindow, plan: ExpansionPlan) -> [Occurrence] {
        var result: [Occurrence] = []
        let budget = ExpansionBudget(context.options)
        for calendar in plan.calendars {
            var found: [Occurrence] = []
            for file in calendar.files {
                for warning in file.calendar.warnings { context.diagnostics.warn(warning) }
                for series in file.series {
                    if series.skips(window) { continue }
                    found += EventExpansion(series: series, zones: file.calendar.zones, calendar: calendar.loaded,
                                            context: context, budget: budget).occurrences(in: window)
                }
            }
            result += Revisions.withoutCopies(found)
        }
        return OccurrenceExpander.sorted(result)
    }

    /// `occurrences` in `order`, ties in their given order (what the stable
    /// `sorted(by:)` gives), found by sorting their indices: a merge step moves an
    /// `Int`, not an `Occurrence` (a dozen references to retain and release), which
    /// was most of the sort's time over a long window.
    package static func sorted(_ occurrences: [Occurrence]) -> [Occurrence] {
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

    package static func order(_ a: Occurrence, _ b: Occurrence) -> Bool {
        if a.startInstant != b.startInstant { return a.startInstant < b.startInstant }
        if (a.uid ?? "") != (b.uid ?? "") { return (a.uid ?? "") < (b.uid ?? "") }
        if a.endInstant != b.endInstant { return a.endInstant < b.endInstant }
        return a.calendar < b.calendar
    }
}

/// Calendars prepared once for expanding in many windows (`OccurrenceExpander.prepare`).
public struct PreparedCalendars {
    package let plan: ExpansionPlan
}

/// What expanding any one event needs from the run: the options, where warnings go,
/// the zones for floating times and UTC. `EventExpansion` gets this, not its parent.
/// A class: it goes with every series in every window, one reference, not its fields.
package final class ExpansionContext {
    package let options: ExpansionOptions
    package let diagnostics: Diagnostics
    /// The zone of all-day dates and floating times (`--tz`).
    package let floating: ZoneRules
    private let utc: ZoneRules

    package init(options: ExpansionOptions, diagnostics: Diagnostics) {
        self.options = options
        self.diagnostics = diagnostics
        floating = SystemZone(options.floatingZone)
        utc = SystemZone(TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? options.floatingZone)
    }

    package func clock(for event: ICalEvent, zones: ZoneBook, calendar: LoadedCalendar,
               zoneDiagnostics: Diagnostics? = nil) -> EventClock {
        EventClock(zones: zones, floating: floating, utc: utc, calendar: calendar.name, event: event,
                   diagnostics: diagnostics, zoneDiagnostics: zoneDiagnostics)
    }

    package func declined(_ event: ICalEvent) -> Bool {
        event.attendees.contains {
            $0.partstat?.uppercased() == "DECLINED"
                && options.me.contains(CalendarAddress.normalized($0.address))
        }
    }
}
