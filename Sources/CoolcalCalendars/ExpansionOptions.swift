import Foundation
import CoolcalModel

/// What occurrence expansion needs besides the calendars.
public struct ExpansionOptions {
    /// The zone for all-day dates and floating times (`--tz`).
    public var floatingZone: TimeZone
    /// The owner's addresses (`--me`), compared without `mailto:` and case.
    public var me: Set<String>
    /// Rule steps walked per event before giving up with a warning.
    public var maxSteps: Int
    /// Occurrences kept per event and window before giving up with a warning.
    public var maxOccurrencesPerEvent: Int
    /// Rule steps and occurrences for a whole query (all events), so that many
    /// runaway rules together stay bounded too.
    public var maxStepsPerQuery = 1_000_000
    public var maxOccurrencesPerQuery = 200_000
    /// The simplest rules and the common BY-rules walked in civil arithmetic
    /// (`CivilRecurrence`, `ByRuleRecurrence`); false
    /// walks every rule with libical (the equality tests compare the two).
    package var civilRecurrence = true

    public init(floatingZone: TimeZone, me: [String] = [], maxSteps: Int = 400_000,
                maxOccurrencesPerEvent: Int = 100_000) {
        self.floatingZone = floatingZone
        self.me = Set(me.map(CalendarAddress.normalized))
        self.maxSteps = maxSteps
        self.maxOccurrencesPerEvent = maxOccurrencesPerEvent
    }
}

/// What is left of a query's limits; shared by every event of one `occurrences` call.
package final class ExpansionBudget {
    package var steps: Int
    package var occurrences: Int
    package let limit: Int

    package init(_ options: ExpansionOptions) {
        steps = options.maxStepsPerQuery
        limit = options.maxStepsPerQuery
        occurrences = options.maxOccurrencesPerQuery
    }
}
