import Foundation
import CoolcalState

/// One known sender as `coolcal known` lists them: the address (or an `accept-from`
/// `@domain`), where it comes from, and what there names them.
package struct KnownSender: Equatable, Sendable {
    /// Why the address is known; the raw values are the stable words of `known --json`.
    package enum Source: String, Sendable, CaseIterable {
        /// The organizer of an event in my calendars that I accepted or tentatively accepted.
        case calendar
        /// An attendee I listed in an event I organise.
        case organised
        /// The organizer of an invitation I accepted or tentatively accepted.
        case answered
        /// An `accept-from` address or domain.
        case acceptFrom = "accept-from"

        var order: Int { Self.allCases.firstIndex(of: self) ?? 0 }
    }

    package var address: String
    package var source: Source
    /// The event's or invitation's title (calendar, organised, answered).
    package var title: String? = nil
    /// The calendar's name (calendar, organised).
    package var calendar: String? = nil
    /// The answer given (answered; nil for a row older than that memory).
    package var answer: Answer? = nil
    /// Since when (answered).
    package var since: Date? = nil
}
