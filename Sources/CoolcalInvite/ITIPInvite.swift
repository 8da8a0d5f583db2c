import Foundation
import CoolcalCalendars
import CoolcalICal
import CoolcalModel

/// An iCalendar invitation (`METHOD:REQUEST`, RFC 5546) as mail clients send it:
/// its first VEVENT is the invitation, its UID the identity.
package enum ITIPInvite {
    package static func parse(_ data: Data, file: String, floatingZone: TimeZone, coverage: Bool = false) throws -> Invite {
        try read(data, file: file, floatingZone: floatingZone, coverage: coverage).invite
    }

    /// The invitation and the calendar libical read it from (whose zones the message
    /// that is written back needs). With `coverage`, an invitation's `Invite.coverage`
    /// is counted too (ten years of its instances: only what may be held needs it).
    package static func read(_ data: Data, file: String, floatingZone: TimeZone,
                             acceptingReplies: Bool = false, coverage: Bool = false) throws -> (invite: Invite, calendar: ICalCalendar) {
        let calendar: ICalCalendar
        do {
            calendar = try ICalReader.read(data, file: file)
        } catch let error as ICalError {
            throw InviteError(file: file, message: error.message)
        }
        switch calendar.method {
        case nil, "REQUEST", "PUBLISH", "CANCEL":
            break
        case "REPLY" where acceptingReplies, "COUNTER" where acceptingReplies, "DECLINECOUNTER" where acceptingReplies:
            break
        case let method?:
            throw InviteError(file: file, message: "METHOD:\(PrintableText.clean(method, keepNewlines: false)) is not an invitation (coolcal reads REQUEST, PUBLISH and CANCEL)")
        }
        // An answer's components are kept apart from events (`ICalCalendar.answers`).
        let events = calendar.method.map(ICalCalendar.answerMethods.contains) == true ? calendar.answers : calendar.events
        guard let found = events.first(where: { $0.recurrenceID == nil }) ?? events.first else {
            throw InviteError(file: file, message: "no VEVENT in the invitation")
        }
        var event = found
        guard let uid = event.uid, !uid.isEmpty else { throw InviteError(file: file, message: "the VEVENT has no UID") }
        // The UID is shown, stored and made a file name: control characters are refused
        // (RFC 5545 TEXT has none).
        guard !uid.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw InviteError(file: file, message: "the UID contains control characters")
        }
        // libical reads SEQUENCE:99999999999 as 1215752191: a version number out of RFC
        // 5545's range is bad data, never a version that could outrank the organizer's.
        // A backslash that is no TEXT escape (RFC 5545 §3.3.11: \\ \; \, \n) is read by
        // libical one way and written back another (`x\y` becomes `xy`, `x\.y` `x y`): the
        // event written could never be found again.
        if let bad = ITIPInvite.badUIDEscape(data) {
            throw InviteError(file: file, message: "the UID \(PrintableText.clean(bad, keepNewlines: false)) has a backslash that is no TEXT escape (only \\\\ \\; \\, and \\n are)")
        }
        if let sequence = ITIPInvite.badSequence(data) {
            throw InviteError(file: file, message: "SEQUENCE:\(PrintableText.clean(sequence, keepNewlines: false)) is not a whole number from 0 to 2147483647")
        }
        // A cancellation may name its instance by RECURRENCE-ID alone, or no time at all (the
        // whole event, RFC 5546 §3.2.5); a reply may name no time either: either is placed
        // at its RECURRENCE-ID, else its DTSTAMP (for the inbox), with no length.
        let answering = ["CANCEL", "REPLY", "DECLINECOUNTER"].contains(calendar.method ?? "")
        let placed = answering && event.start == nil ? event.recurrenceID ?? event.stamp : nil
        if placed != nil {
            event.end = nil
            event.duration = nil
        }
        guard let dtstart = placed ?? event.start, dtstart.fields.isValid else {
            throw InviteError(file: file, message: "the VEVENT has no valid DTSTART")
        }
        for (name, value) in [("DTSTART", event.start), ("DTEND", event.end)] {
            if let id = value?.tzid, calendar.zones.zone(for: id) == nil {
                throw InviteError(file: file, message: "\(name) has an unknown time zone \"\(id)\"")
            }
        }
        try checkEveryComponent(events, calendar: calendar, file: file)
        let clock = EventClock(zones: calendar.zones, floating: SystemZone(floatingZone),
                               utc: SystemZone(TimeZone(secondsFromGMT: 0) ?? floatingZone),
                               describe: file, diagnostics: Diagnostics())
        // An invitation's span must be right as sent (a calendar's is read leniently, with a
        // warning: InstanceLength.of).
        if let end = event.end,
           dtstart.isDate ? end.fields.days(since: dtstart.fields) < 0 : clock.instant(of: end) < clock.instant(of: dtstart) {
            throw InviteError(file: file, message: "DTEND is before DTSTART")
        }
        if event.end == nil, let d = event.duration, d.negative, d.days > 0 || d.seconds > 0 {
            throw InviteError(file: file, message: "DURATION is negative")
        }
        let length = InstanceLength.of(event, start: dtstart, clock: clock)
        let zone = clock.zone(of: dtstart)
        let start = zone.utcSeconds(of: dtstart.fields)
        // A DURATION of 99999999 weeks ends where JSON can write, as calendar events do.
        let end = min(length.end(startFields: dtstart.fields, start: start, zone: zone), TimeWindow.lastInstant)
        guard end >= start else {
            // The length came from DTEND if there is one, else from DURATION (InstanceLength.of).
            let why = event.end == nil && event.duration != nil ? "DURATION is negative" : "DTEND is before DTSTART"
            throw InviteError(file: file, message: why)
        }
        // Control characters (escape sequences, bells) never reach a terminal or a calendar.
        let summary = event.summary.map {
            PrintableText.clean($0, keepNewlines: true).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let title = summary.flatMap { $0.isEmpty ? nil : $0 } ?? "(no title)"
        var invite: Invite
        if dtstart.isDate {
            let days = max(1, Int((end - start + 43_200) / 86_400))
            let last = dtstart.fields.addingDays(days)
            invite = Invite(id: .uid(uid), title: title, start: .date(dtstart.fields),
                            end: .date(last.year > 9999 ? .lastDate : last),
                            source: file, method: calendar.method)
        } else {
            invite = Invite(id: .uid(uid), title: title, start: .instant(start), end: .instant(end), source: file,
                            method: calendar.method)
        }
        invite.organizer = event.organizer.map(CalendarAddress.normalized)
        if coverage && [nil, "REQUEST", "PUBLISH", "ADD"].contains(calendar.method) {
            invite.coverage = InviteCoverage.of(calendar, uid: uid, dtstart: start, floatingZone: floatingZone)
        }
        if event.isRecurring && event.recurrenceID == nil && [nil, "REQUEST", "PUBLISH", "ADD"].contains(calendar.method) {
            var instances = expand(calendar, uid: uid, from: start, days: horizonDays, file: file, floatingZone: floatingZone)
            if instances.isEmpty {
                // Every instance of the first 90 days excluded or cancelled: the next one.
                instances = Array(expand(calendar, uid: uid, from: start, days: 3_660, file: file, floatingZone: floatingZone).prefix(1))
            }
            guard let first = instances.first else {
                throw InviteError(file: file, message: "the series has no instance (all excluded or cancelled)")
            }
            invite.start = first.start
            invite.end = first.end
            invite.instances = instances.count > 1 ? instances : []
        }
        return (invite, calendar)
    }

    /// A recurring invitation is checked instance by instance for this many days
    /// from its first, at most `maxInstances` of them.
    package static let horizonDays = 90
    package static let maxInstances = 100

    /// The series' instances (overrides, EXDATEs and cancelled ones applied) by the
    /// same expansion as calendars.
    /// Instances are those whose original start (RECURRENCE-ID) is within `days` of
    /// DTSTART, wherever they were moved to.
    private static func expand(_ calendar: ICalCalendar, uid: String, from start: Int64, days: Int, file: String,
                               floatingZone: TimeZone) -> [InviteInstance] {
        let span = Int64(days) * 86_400
        // Wide enough for instances moved far from their original time.
        let window = TimeWindow(start: start - span, end: start + 2 * span)
        // An invitation needs at most `maxInstances`: small budgets, so that a hostile
        // rule costs little.
        var options = ExpansionOptions(floatingZone: floatingZone, maxSteps: 20_000, maxOccurrencesPerEvent: 1_000)
        options.maxStepsPerQuery = 40_000
        options.maxOccurrencesPerQuery = 2_000
        let expander = OccurrenceExpander(options: options, diagnostics: Diagnostics())
        let zone = SystemZone(floatingZone)
        func original(_ o: Occurrence) -> Int64 {
            switch o.recurrenceID {
            case .instant(let s)?: return s
            case .date(let d)?: return zone.utcSeconds(of: d)
            case nil: return o.startInstant
            }
        }
        return expander.occurrences(of: uid, in: window, file: calendar, name: file)
            .filter { $0.status != "CANCELLED" && (start..<(start + span)).contains(original($0)) }
            .sorted { $0.startInstant < $1.startInstant }
            .prefix(maxInstances)
            .map { InviteInstance(start: $0.start, end: $0.end) }
    }

    /// The first UID value of the text (as written) with a backslash that does not start
    /// one of TEXT's escapes; nil when every one is clean.
    static func badUIDEscape(_ data: Data) -> String? {
        let uid = Array("UID".utf8)
        var bad: String?
        ContentLines.forEachUnfolded(in: data, startingWith: { ContentLines.upper($0) == uid[0] }) { line in
            guard bad == nil, ContentLines.propertyName(line) == uid, let colon = line.firstIndex(of: 0x3A) else { return }
            let value = Array(line[(colon + 1)...])
            var i = 0
            while i < value.count {
                if value[i] == 0x5C {
                    guard i + 1 < value.count, [0x5C, 0x3B, 0x2C, 0x6E, 0x4E].contains(value[i + 1]) else {
                        bad = String(decoding: value, as: UTF8.self)
                        return
                    }
                    i += 1
                }
                i += 1
            }
        }
        return bad
    }

    /// The first SEQUENCE value of the text that is not a whole number from 0 to
    /// 2147483647, as written; nil when every one is.
    static func badSequence(_ data: Data) -> String? {
        let sequence = Array("SEQUENCE".utf8)
        var bad: String?
        ContentLines.forEachUnfolded(in: data, startingWith: { ContentLines.upper($0) == sequence[0] }) { line in
            guard bad == nil, ContentLines.propertyName(line) == sequence, let colon = line.firstIndex(of: 0x3A) else { return }
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), value.count <= 10,
                  let number = Int(value), number <= 2_147_483_647 else { bad = value; return }
        }
        return bad
    }
}
