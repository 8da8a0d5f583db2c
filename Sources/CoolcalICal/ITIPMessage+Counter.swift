internal import CLibical
import Foundation
import CoolcalModel

/// The counter-proposal's messages (RFC 5546 §3.2.7, §3.2.8), built and serialized by
/// libical like every other message coolcal sends.
extension ITIPMessage {
    /// The attendee's `METHOD:COUNTER`: the invitation's first VEVENT (the event, or the
    /// one instance it names) with `start`–`end` instead of its times, DTSTAMP now, the
    /// owner's RSVP request dropped, `comment` added; the UID, SEQUENCE (echoed, as
    /// §3.2.7 asks), ORGANIZER and attendee list kept. Nil when `me` is not an attendee.
    public func counter(me: [String], start: OccurrenceTime, end: OccurrenceTime, comment: String?, now: Date,
                        name: String? = nil) -> String? {
        guard let event = events.first, let clone = icalcomponent_new_clone(event) else { return nil }
        let proposal = OwnedComponent(taking: clone)
        var mine = false
        var dropped: [OpaquePointer] = []
        for prop in ICalWalk.properties(of: proposal.pointer) {
            switch icalproperty_isa(prop) {
            case ICAL_ATTENDEE_PROPERTY where ITIPMessage.isOwner(prop, me):
                mine = true
                icalproperty_remove_parameter_by_kind(prop, ICAL_RSVP_PARAMETER)
                if let name { ITIPMessage.setName(prop, name) }
                ITIPMessage.dropStaleSentBy(prop, from: me.first)
            case ICAL_DTSTART_PROPERTY, ICAL_DTEND_PROPERTY, ICAL_DURATION_PROPERTY, ICAL_DTSTAMP_PROPERTY,
                 ICAL_COMMENT_PROPERTY:
                dropped.append(prop)
            default: break
            }
        }
        guard mine else { return nil }
        for prop in dropped {
            icalcomponent_remove_property(proposal.pointer, prop)
            icalproperty_free(prop)
        }
        // Alarms are the attendee's own, never part of a proposal.
        for alarm in ICalWalk.children(of: proposal.pointer, kind: ICAL_VALARM_COMPONENT) {
            icalcomponent_remove_component(proposal.pointer, alarm)
            icalcomponent_free(alarm)
        }
        for line in [Self.timeLine("DTSTART", start), Self.timeLine("DTEND", end), "DTSTAMP:" + Self.utcText(now)] {
            guard let prop = icalproperty_new_from_string(line) else { return nil }
            icalcomponent_add_property(proposal.pointer, prop)
        }
        if let comment { icalcomponent_add_property(proposal.pointer, icalproperty_new_comment(comment)) }
        guard let copy = icalcomponent_new_clone(proposal.pointer) else { return nil }
        return wrapped(method: ICAL_METHOD_COUNTER, events: [copy])
    }

    /// The organizer's `METHOD:DECLINECOUNTER` for this COUNTER: its UID, SEQUENCE,
    /// RECURRENCE-ID and ORGANIZER, DTSTAMP now and `comment` — no ATTENDEE, which the
    /// VEVENT table of RFC 5546 §3.2.8 does not allow: the mail's To names who proposed.
    /// A RECURRENCE-ID in a zone keeps its VTIMEZONE (RFC 5545 §3.2.19 needs it; the
    /// table lists none, a known deviation).
    public func declineCounter(comment: String?, now: Date) -> String? {
        guard let event = events.first, let answer = icalcomponent_new(ICAL_VEVENT_COMPONENT) else { return nil }
        let kept: [icalproperty_kind] = [ICAL_UID_PROPERTY, ICAL_SEQUENCE_PROPERTY, ICAL_RECURRENCEID_PROPERTY, ICAL_ORGANIZER_PROPERTY]
        for prop in ICalWalk.properties(of: event) where kept.contains(icalproperty_isa(prop)) {
            if let clone = icalproperty_new_clone(prop) { icalcomponent_add_property(answer, clone) }
        }
        if let stamp = icalproperty_new_from_string("DTSTAMP:" + Self.utcText(now)) { icalcomponent_add_property(answer, stamp) }
        if let comment { icalcomponent_add_property(answer, icalproperty_new_comment(comment)) }
        return wrapped(method: ICAL_METHOD_DECLINECOUNTER, events: [answer])
    }

    /// A `METHOD:REQUEST` of stored event blocks (the organizer's copy after a change),
    /// with the VTIMEZONEs they name: alarms dropped (they are the organizer's own). In
    /// each event whose `rescheduled` flag is set (its time changed significantly, RFC
    /// 6638 §3.2.8) every attendee but the organizer is asked again:
    /// `PARTSTAT=NEEDS-ACTION;RSVP=TRUE`; the others keep every PARTSTAT. Nil when the
    /// blocks do not parse.
    public static func request(events: [String], zones: [String], rescheduled: [Bool] = []) -> String? {
        let whole = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + zones.joined() + events.joined() + "END:VCALENDAR\r\n"
        guard let parsed = icalparser_parse_string(whole) else { return nil }
        let root = OwnedComponent(taking: parsed)
        guard let calendar = icalcomponent_isa(root.pointer) == ICAL_VCALENDAR_COMPONENT ? root.pointer : nil,
              let result = icalcomponent_new(ICAL_VCALENDAR_COMPONENT) else { return nil }
        let request = OwnedComponent(taking: result)
        icalcomponent_add_property(request.pointer, icalproperty_new_prodid("-//coolcal//coolcal//EN"))
        icalcomponent_add_property(request.pointer, icalproperty_new_version("2.0"))
        icalcomponent_add_property(request.pointer, icalproperty_new_method(ICAL_METHOD_REQUEST))
        var found = false
        for kind in [ICAL_VTIMEZONE_COMPONENT, ICAL_VEVENT_COMPONENT] {
            for (index, child) in ICalWalk.children(of: calendar, kind: kind).enumerated() {
                guard let clone = icalcomponent_new_clone(child) else { continue }
                for alarm in ICalWalk.children(of: clone, kind: ICAL_VALARM_COMPONENT) {
                    icalcomponent_remove_component(clone, alarm)
                    icalcomponent_free(alarm)
                }
                if kind == ICAL_VEVENT_COMPONENT, index < rescheduled.count, rescheduled[index] { askAgain(clone) }
                found = found || kind == ICAL_VEVENT_COMPONENT
                icalcomponent_add_component(request.pointer, clone)
            }
        }
        return found ? text(of: request.pointer) : nil
    }

    /// Every ATTENDEE of `event` but its ORGANIZER: `PARTSTAT=NEEDS-ACTION;RSVP=TRUE`.
    private static func askAgain(_ event: OpaquePointer) {
        let organizer = icalcomponent_get_first_property(event, ICAL_ORGANIZER_PROPERTY)
            .flatMap { ICalWalk.copy(icalproperty_get_organizer($0)) }
        for prop in ICalWalk.properties(of: event) where icalproperty_isa(prop) == ICAL_ATTENDEE_PROPERTY {
            if let organizer, let address = ICalWalk.copy(icalproperty_get_attendee(prop)), sameAddress(address, organizer) { continue }
            icalproperty_set_parameter(prop, icalparameter_new_partstat(ICAL_PARTSTAT_NEEDSACTION))
            icalproperty_set_parameter(prop, icalparameter_new_rsvp(ICAL_RSVP_TRUE))
        }
    }

    /// A VCALENDAR with `method`, the VTIMEZONEs the `events` name (from this message)
    /// and the `events` (taken).
    private func wrapped(method: icalproperty_method, events: [OpaquePointer]) -> String? {
        guard let calendar = icalcomponent_new(ICAL_VCALENDAR_COMPONENT) else {
            events.forEach { icalcomponent_free($0) }
            return nil
        }
        let message = OwnedComponent(taking: calendar)
        icalcomponent_add_property(message.pointer, icalproperty_new_prodid("-//coolcal//coolcal//EN"))
        icalcomponent_add_property(message.pointer, icalproperty_new_version("2.0"))
        icalcomponent_add_property(message.pointer, icalproperty_new_method(method))
        let tzids = events.reduce(into: Set<String>()) { $0.formUnion(ITIPMessage.tzids(of: $1)) }
        for tzid in tzids.sorted() {
            if let zone = zoneNode(tzid), let clone = icalcomponent_new_clone(zone) {
                icalcomponent_add_component(message.pointer, clone)
            }
        }
        for event in events { icalcomponent_add_component(message.pointer, event) }
        return ITIPMessage.text(of: message.pointer)
    }

    /// `NAME:20250101T100000Z`, or `NAME;VALUE=DATE:20250101` for a day.
    public static func timeLine(_ name: String, _ time: OccurrenceTime) -> String {
        switch time {
        case .date(let day): return "\(name);VALUE=DATE:" + day.basicDate
        case .instant(let seconds): return "\(name):" + CivilDateTime(utcSeconds: seconds).basicDateTime + "Z"
        }
    }

    private static func utcText(_ date: Date) -> String {
        CivilDateTime(utcSeconds: Int64(date.timeIntervalSince1970.rounded(.down))).basicDateTime + "Z"
    }
}
