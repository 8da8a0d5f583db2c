/// Resolves one event's times to UTC: its DTSTART's zone (file VTIMEZONE, system,
/// Windows name), floating times and dates in `--tz`, and the instance length rules
/// of RFC 5545 §3.8.5.3 (DTEND: exact; DURATION days: nominal; neither: a day or zero).
struct EventClock {
    let zones: ZoneBook
    let floating: ZoneRules
    let utc: ZoneRules
    let describe: String
    /// Warnings about the event as a whole (caps, rules libical refuses).
    let diagnostics: Diagnostics
    /// Zone warnings, shown only when the event has an occurrence in the window, so
    /// that reading fewer events (the pre-filter) never changes what is printed.
    var zoneDiagnostics: Diagnostics? = nil

    /// The zone that a value's wall-clock fields are read in.
    func zone(of time: ICalTime) -> ZoneRules {
        if time.isDate { return floating }
        switch time.reference {
        case .utc: return utc
        case .floating: return floating
        case .zoned(let id):
            if let zone = zones.zone(for: id) { return zone }
            (zoneDiagnostics ?? diagnostics).warn("\(describe): unknown time zone \"\(id)\"; its times are read in \(floating.identifier)")
            return floating
        }
    }

    func instant(of time: ICalTime) -> Int64 {
        zone(of: time).utcSeconds(of: time.fields)
    }
}

/// How long each instance of an event lasts.
enum InstanceLength: Equatable {
    /// Exact seconds (DTEND of a timed event).
    case exact(Int64)
    /// Nominal days on the wall clock, then exact seconds (DURATION, all-day DTEND).
    case nominal(days: Int, seconds: Int64)

    /// The end of an instance starting at `fields` (`start` in UTC) in `zone`.
    func end(startFields fields: CivilDateTime, start: Int64, zone: ZoneRules) -> Int64 {
        switch self {
        case .exact(let seconds):
            return start + seconds
        case .nominal(let days, let seconds):
            if days == 0 { return start + seconds }
            return zone.utcSeconds(of: fields.addingDays(days)) + seconds
        }
    }

    /// An upper bound in seconds, for widening search windows.
    var bound: Int64 {
        switch self {
        case .exact(let s): return abs(s)
        case .nominal(let d, let s): return Int64(abs(d) + 1) * 86_400 + abs(s)
        }
    }

    static func of(_ event: ICalEvent, start: ICalTime, clock: EventClock) -> InstanceLength {
        if let end = event.end {
            if start.isDate {
                return .nominal(days: end.fields.days(since: start.fields), seconds: 0)
            }
            return .exact(clock.instant(of: end) - clock.instant(of: start))
        }
        if let d = event.duration {
            let sign = d.negative ? -1 : 1
            return .nominal(days: sign * d.days, seconds: Int64(sign * d.seconds))
        }
        return start.isDate ? .nominal(days: 1, seconds: 0) : .exact(0)
    }
}
