import Foundation
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalCalendars

/// One expansion of a calendar, with civil rules or with libical alone, for the
/// recurrence tests (FastRecurrenceTests and its kin in the slow tier, CountedStartTests
/// here; it was FastRecurrenceTests' until the slow tier took that suite, #47).
enum CivilExpansion {
    /// One expansion of `body`, with civil rules or with libical alone.
    static func expansion(_ calendar: ICalCalendar, _ window: TimeWindow, zone: TimeZone, civil: Bool,
                          maxSteps: Int, queryBudget: Int) -> (occurrences: [String], warnings: [String]) {
        var options = ExpansionOptions(floatingZone: zone, maxSteps: maxSteps, maxOccurrencesPerEvent: 500)
        options.civilRecurrence = civil
        options.maxStepsPerQuery = queryBudget
        let diagnostics = Diagnostics()
        let found = OccurrenceExpander(options: options, diagnostics: diagnostics)
            .occurrences(in: window, calendars: [LoadedCalendar(name: "fast.ics", color: nil, files: [calendar])])
        let lines = found.map { o in
            [o.uid ?? "-", o.start.jsonString, o.end.jsonString, o.recurrenceID?.jsonString ?? "-", o.incomplete ?? "-"]
                .joined(separator: " ")
        }
        return (lines, diagnostics.warnings)
    }
}
