import Foundation
import CoolcalICal
import CoolcalModel

/// Issue #44: every VEVENT of an incoming message is checked before anything is
/// written, not only the one the invitation is read from — a later override written
/// `TZID=American/New_York` would otherwise be stored and read in UTC.
extension ITIPInvite {
    /// Throws naming the first VEVENT with a time zone that cannot be resolved (DTSTART,
    /// DTEND, RECURRENCE-ID, RDATE, EXDATE) or a time that is no date, e.g.
    /// `TZID "American/New_York" of the override of 2049-09-30 cannot be resolved`.
    static func checkEveryComponent(_ events: [ICalEvent], calendar: ICalCalendar, file: String) throws {
        for event in events {
            let component = Self.component(event)
            func check(_ name: String, tzid: String?, valid: Bool) throws {
                if let id = tzid, calendar.zones.zone(for: id) == nil {
                    throw InviteError(file: file, message: "TZID \"\(PrintableText.clean(id, keepNewlines: false))\" of \(component) cannot be resolved")
                }
                if !valid { throw InviteError(file: file, message: "\(name) of \(component) is no valid time") }
            }
            try check("DTSTART", tzid: event.start?.tzid, valid: event.start?.fields.isValid ?? true)
            try check("DTEND", tzid: event.end?.tzid, valid: event.end?.fields.isValid ?? true)
            try check("RECURRENCE-ID", tzid: event.recurrenceID?.tzid, valid: event.recurrenceID?.fields.isValid ?? true)
            for rdate in event.rdates { try check("RDATE", tzid: rdate.start.tzid, valid: rdate.start.fields.isValid) }
            for exdate in event.exdates { try check("EXDATE", tzid: exdate.tzid, valid: exdate.fields.isValid) }
        }
    }

    /// `the override of 2049-09-30`, `the series`, `the event`.
    static func component(_ event: ICalEvent) -> String {
        if let rid = event.recurrenceID { return "the override of \(rid.fields.dateString)" }
        return event.isRecurring ? "the series" : "the event"
    }
}
