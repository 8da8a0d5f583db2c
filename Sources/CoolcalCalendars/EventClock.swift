import CoolcalICal
import CoolcalModel
import CoolcalScan
import CoolcalZones

/// Resolves one event's times to UTC: its DTSTART's zone (file VTIMEZONE, system,
/// Windows name), floating times and dates in `--tz`, and the instance length rules
/// of RFC 5545 §3.8.5.3 (DTEND: exact; DURATION days: nominal; neither: a day or zero).
package struct EventClock {
    package let zones: ZoneBook
    package let floating: ZoneRules
    package let utc: ZoneRules
    /// What warnings call the event: built only when one is given (a clock is made for
    /// every series in every window, and most say nothing).
    private let subject: Subject
    package var describe: String {
        switch subject {
        case .text(let text): return text
        case .event(let calendar, let summary, let uid):
            return "\(calendar): event \"\(summary ?? "(no title)")\" (\(uid ?? "no UID"))"
        }
    }
    private enum Subject {
        case text(String)
        case event(calendar: String, summary: String?, uid: String?)
    }
    /// Warnings about the event as a whole (caps, rules libical refuses).
    package let diagnostics: Diagnostics
    /// Zone warnings, shown only when the event has an occurrence in the window, so
    /// that reading fewer events (the pre-filter) never changes what is printed.
    package var zoneDiagnostics: Diagnostics? = nil

    /// The zone that a value's wall-clock fields are read in.
    package func zone(of time: ICalTime) -> ZoneRules {
        if time.isDate { return floating }
        switch time.reference {
        case .utc: return utc
        case .floating:
            // X-WR-TIMEZONE names the zone of the file's floating date-times.
            guard let id = zones.floatingZoneID else { return floating }
            if let zone = zones.zone(for: id) { return zone }
            (zoneDiagnostics ?? diagnostics).warn("\(describe): unknown X-WR-TIMEZONE \"\(id)\"; its floating times are read in \(floating.identifier)")
            return floating
        case .zoned(let id):
            if let zone = zones.zone(for: id) { return zone }
            (zoneDiagnostics ?? diagnostics).warn("\(describe): unknown time zone \"\(id)\"; its times are read in \(floating.identifier)")
            return floating
        }
    }

    package func instant(of time: ICalTime) -> Int64 {
        zone(of: time).utcSeconds(of: time.fields)
    }

    /// The memberwise initializer, for the targets above.
    package init(zones: ZoneBook, floating: ZoneRules, utc: ZoneRules, describe: String, diagnostics: Diagnostics, zoneDiagnostics: Diagnostics? = nil) {
        self.zones = zones
        self.floating = floating
        self.utc = utc
        subject = .text(describe)
        self.diagnostics = diagnostics
        self.zoneDiagnostics = zoneDiagnostics
    }

    /// A clock whose warnings name `event` of `calendar`.
    package init(zones: ZoneBook, floating: ZoneRules, utc: ZoneRules, calendar: String, event: ICalEvent,
                 diagnostics: Diagnostics, zoneDiagnostics: Diagnostics? = nil) {
        self.zones = zones
        self.floating = floating
        self.utc = utc
        subject = .event(calendar: calendar, summary: event.summary, uid: event.uid)
        self.diagnostics = diagnostics
        self.zoneDiagnostics = zoneDiagnostics
    }
}

/// How long each instance of an event lasts.
package enum InstanceLength: Equatable {
    /// Exact seconds (DTEND of a timed event).
    case exact(Int64)
    /// Nominal days on the wall clock, then exact seconds (DURATION, all-day DTEND).
    case nominal(days: Int, seconds: Int64)

    /// The end of an instance starting at `fields` (`start` in UTC) in `zone`.
    package func end(startFields fields: CivilDateTime, start: Int64, zone: ZoneRules) -> Int64 {
        switch self {
        case .exact(let seconds):
            return start + seconds
        case .nominal(let days, let seconds):
            if days == 0 { return start + seconds }
            return zone.utcSeconds(of: fields.addingDays(days)) + seconds
        }
    }

    /// An upper bound in seconds, for widening search windows.
    package var bound: Int64 {
        switch self {
        case .exact(let s): return abs(s)
        case .nominal(let d, let s): return Int64(abs(d) + 1) * 86_400 + abs(s)
        }
    }

    /// RFC 5545 §3.8.5.3, and what calendars show for spans that cannot be (each with a
    /// warning naming the event): a DTEND not after an all-day DTSTART is one day, a DTEND
    /// before a timed DTSTART or a negative DURATION is ignored, and a DURATION with hours
    /// on an all-day event is rounded up to whole days (`PT10H` is one day, as Google and
    /// Apple show it).
    package static func of(_ event: ICalEvent, start: ICalTime, clock: EventClock) -> InstanceLength {
        let say = clock.zoneDiagnostics ?? clock.diagnostics
        if let end = event.end {
            if start.isDate {
                let days = end.fields.days(since: start.fields)
                if days > 0 { return .nominal(days: days, seconds: 0) }
                say.warn("\(clock.describe): DTEND is not after its all-day DTSTART; read as one day")
                return .nominal(days: 1, seconds: 0)
            }
            let seconds = clock.instant(of: end) - clock.instant(of: start)
            if seconds >= 0 { return .exact(seconds) }
            say.warn("\(clock.describe): DTEND is before DTSTART; DTEND is ignored (no length)")
            return .exact(0)
        }
        if let d = event.duration {
            if d.negative && (d.days > 0 || d.seconds > 0) {
                say.warn("\(clock.describe): a negative DURATION; it is ignored")
            } else if start.isDate && d.seconds > 0 {
                let days = d.days + (d.seconds + 86_399) / 86_400
                say.warn("\(clock.describe): an all-day event with a DURATION of hours; read as \(days) day\(days == 1 ? "" : "s")")
                return .nominal(days: days, seconds: 0)
            } else {
                return .nominal(days: d.days, seconds: Int64(d.seconds))
            }
        }
        return start.isDate ? .nominal(days: 1, seconds: 0) : .exact(0)
    }
}
