import Foundation
import CoolcalICal
import CoolcalModel

/// What `accept` did to the calendar.
public enum WriteOutcome: Equatable, Sendable {
    case added, updated, unchanged
    /// A cancellation marked the stored event `STATUS:CANCELLED`.
    case cancelled
    /// The calendar holds a newer version of the event (iTIP SEQUENCE/DTSTAMP); why.
    case stale(String)
    /// A cancellation for an event the calendar does not hold.
    case absent
    /// A cancellation that names attendees, none of them me (RFC 5546 §3.2.5: it removes
    /// them, not my invitation): my copy stays as it was; the addresses it names.
    case othersCancelled(String)
    /// Changing your mind: the event coolcal wrote was removed (unchanged since).
    case removed
    /// Changing your mind: the event was edited since coolcal wrote it, so it stays,
    /// declined in place (free: `TRANSP:TRANSPARENT`, or your `PARTSTAT=DECLINED`).
    case declinedInPlace
    /// Not applied: the message may not change the stored event (organizer binding);
    /// why, and the detail that names the organizers.
    case held(HeldReason, String)

    public var isStale: Bool {
        if case .stale = self { return true }
        return false
    }

    public var heldReason: HeldReason? {
        if case .held(let reason, _) = self { return reason }
        return nil
    }
}

/// One edit of a calendar, decided from the calendar as read under the lock: a push
/// payload's event, an iTIP invitation or an iTIP cancellation.
package protocol CalendarChange {
    /// The UID of the event it writes (vdir file names and the read-back check).
    var uid: String { get }
    /// The edited file as a splice of `text` and what the edit does; nil when nothing
    /// is to be written.
    func splice(of text: CalendarText, calendar: ICalCalendar, file: String) throws -> (Splice?, WriteOutcome)
    /// What `--dry-run` prints: the VEVENT text(s) it would write.
    func preview(lineEnding: String) -> String
    /// coolcal's `X-COOLCAL-INVITE-ID` of the event, when it has one.
    var marker: String? { get }
}

extension CalendarChange {
    package var marker: String? { nil }

    /// The event as its stored copy is looked for in a file (`CalendarText.blocks`).
    package var identity: CalendarText.Identity { CalendarText.Identity(uid: uid, marker: marker) }

    /// The edited file in one buffer (nil data when nothing is to be written): for
    /// callers that need the bytes whole (CalDAV, `--dry-run`, merge's second change).
    package func apply(to text: CalendarText, calendar: ICalCalendar, file: String) throws -> (Data?, WriteOutcome) {
        let (edited, outcome) = try splice(of: text, calendar: calendar, file: file)
        return (edited?.data, outcome)
    }
}
