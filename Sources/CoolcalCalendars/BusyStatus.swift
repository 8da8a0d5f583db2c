import CoolcalICal
import CoolcalModel

/// How an event marks its own time, besides `TRANSP` and `STATUS:CANCELLED`: tentative
/// (`STATUS:TENTATIVE`, your `PARTSTAT=TENTATIVE`) and Outlook's "Show as" status.
extension ExpansionContext {
    /// `STATUS:TENTATIVE`, `PARTSTAT=TENTATIVE` of one of your addresses, or Outlook's
    /// `TENTATIVE` on an event without `TRANSP`.
    package func tentative(_ event: ICalEvent) -> Bool {
        if event.status == "TENTATIVE" || BusyStatus.outlook(event) == .tentative { return true }
        return event.attendees.contains {
            $0.partstat?.uppercased() == "TENTATIVE" && options.me.contains(CalendarAddress.normalized($0.address))
        }
    }

    /// Outlook's `FREE` on an event without `TRANSP`.
    package func shownAsFree(_ event: ICalEvent) -> Bool { BusyStatus.outlook(event) == .free }
}

/// Outlook's `X-MICROSOFT-CDO-BUSYSTATUS` ("Show as"; what this copy of the event
/// shows), else `X-MICROSOFT-CDO-INTENDEDSTATUS` (what the organizer meant attendees
/// to show). Only where the event has no `TRANSP`: a `TRANSP` says it in the
/// standard's words and wins. `OOF`, `BUSY`, `WORKINGELSEWHERE` and anything else are
/// busy.
package enum BusyStatus: Equatable {
    case free, tentative, busy

    package static func outlook(_ event: ICalEvent) -> BusyStatus? {
        guard !event.hasTransp, let value = event.busyStatus ?? event.intendedStatus else { return nil }
        switch value {
        case "FREE": return .free
        case "TENTATIVE": return .tentative
        default: return .busy
        }
    }
}
