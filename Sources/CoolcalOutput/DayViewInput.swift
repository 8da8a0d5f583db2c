import Foundation
import CoolcalCalendars
import CoolcalModel
import CoolcalSchedule

/// What the day view draws: the invitation, its buffered window, the zone, and every
/// occurrence seen in the window (busy and ignored alike).
package struct DayViewInput: Sendable {
    /// One occurrence beside the invitation.
    package struct Item: Sendable {
        package var occurrence: Occurrence
        /// How a busy occurrence relates to the invitation; nil for an ignored one.
        package var relation: Relation?
        /// Why an ignored occurrence does not count; nil for a busy one.
        package var ignored: IgnoreReason?

        package init(occurrence: Occurrence, relation: Relation?, ignored: IgnoreReason?) {
            self.occurrence = occurrence
            self.relation = relation
            self.ignored = ignored
        }

        package var busy: Bool { ignored == nil }
    }

    package var title: String
    /// The invitation's span in UTC seconds (an all-day invitation: its days in `zone`).
    package var span: TimeWindow
    /// The buffered window the rows cover.
    package var window: TimeWindow
    /// The zone of hour ticks, dates and offsets (`--tz`).
    package var zone: TimeZone
    package var items: [Item]

    package init(title: String, span: TimeWindow, window: TimeWindow, zone: TimeZone, items: [Item]) {
        self.title = title
        self.span = span
        self.window = window
        self.zone = zone
        self.items = items
    }

    /// From what `conflicts` has: the report's invitation, span, window, conflicts
    /// and ignored occurrences, ordered by start.
    package init(report: ConflictReport, zone: TimeZone) {
        let busy = report.conflicts.map { Item(occurrence: $0.occurrence, relation: $0.relation, ignored: nil) }
        let free = report.ignored.map { Item(occurrence: $0.occurrence, relation: nil, ignored: $0.reason) }
        let items = (busy + free).enumerated().sorted { a, b in
            let x = a.element.occurrence, y = b.element.occurrence
            if x.startInstant != y.startInstant { return x.startInstant < y.startInstant }
            if x.endInstant != y.endInstant { return x.endInstant > y.endInstant }
            return a.offset < b.offset
        }.map(\.element)
        self.init(title: report.invite.title, span: report.span, window: report.window, zone: zone, items: items)
    }
}
