import CoolcalModel
import CoolcalScan

/// RFC 6638 §3.2.8: a change of an event's time is significant — the attendees' answers
/// no longer hold — when any of DTSTART, DTEND or DURATION, RRULE, RDATE or EXDATE
/// differs. One rule for every use: whether my PARTSTAT survives an organizer's update,
/// and whether the organizer's rescheduling REQUEST asks every attendee again.
public enum SignificantChange {
    /// Whether `new` changes the time of `old`. Values are compared as written (a time
    /// moved to another zone is a change); DTEND against DURATION by the wall-clock end
    /// they give; RRULE, RDATE and EXDATE as sets (their order is no change).
    public static func between(_ old: ICalEvent, _ new: ICalEvent) -> Bool {
        old.start != new.start
            || !sameEnd(old, new)
            || Set(old.rules) != Set(new.rules)
            || Set(old.rdates) != Set(new.rdates)
            || Set(old.exdates) != Set(new.exdates)
    }

    private static func sameEnd(_ a: ICalEvent, _ b: ICalEvent) -> Bool {
        if a.end == b.end && a.duration == b.duration { return true }
        guard let x = end(of: a), let y = end(of: b) else { return false }
        return x == y
    }

    /// DTEND, else DTSTART plus DURATION on the wall clock; nil with neither, or for a
    /// DURATION too long to add.
    private static func end(of event: ICalEvent) -> ICalTime? {
        if let end = event.end { return end }
        guard let start = event.start, let duration = event.duration else { return nil }
        let (days, o1) = Int64(duration.days).multipliedReportingOverflow(by: 86_400)
        let (length, o2) = days.addingReportingOverflow(Int64(duration.seconds))
        let (seconds, o3) = start.fields.secondsAsUTC.addingReportingOverflow(duration.negative ? -length : length)
        guard !o1, !o2, !o3, abs(seconds) < 400_000 * 366 * 86_400 else { return nil }
        let fields = CivilDateTime(utcSeconds: seconds)
        return ICalTime(fields: fields, isDate: start.isDate, reference: start.reference)
    }
}
