internal import CLibical
import Foundation
import CoolcalZones

/// An iTIP message (RFC 5546) kept as libical's tree, so that what coolcal writes from
/// it — the stored copy of an accepted invitation, a REPLY, a cancelled override — is
/// built and serialized by libical, never by hand.
public final class ITIPMessage {
    /// `METHOD`, upper-cased; nil when the file has none (a plain event file).
    public let method: String?
    /// The invitation's UID (that of its first VEVENT).
    public let uid: String
    private let root: OwnedComponent
    /// The message's own VTIMEZONEs (and the system's), for its TZIDs.
    public let zones: ZoneBook

    /// Reads an iTIP message whose text `ICalReader` has already accepted (as
    /// `zones`: the message's own zones as that read found them).
    package init(_ data: Data, uid: String, zones: ZoneBook, file: String) throws {
        root = try OwnedComponent.checked(data, file: file)
        // libical's complaints (`X-LIC-ERROR`, for a `LOCATION:` with no value, say) are
        // never the organizer's words: nothing coolcal writes or sends carries them.
        ITIPMessage.dropDiagnostics(root.pointer)
        self.zones = zones
        self.uid = uid
        let calendar = ITIPMessage.calendarNode(root.pointer)
        events = calendar.map { vcal in
            ICalWalk.children(of: vcal, kind: ICAL_VEVENT_COMPONENT).filter { ICalWalk.copy(icalcomponent_get_uid($0)) == uid }
        } ?? []
        versions = events.map(ICalEventReader.event(from:))
        method = calendar.flatMap(ICalWalk.method(of:))
    }

    private static func calendarNode(_ root: OpaquePointer) -> OpaquePointer? {
        if icalcomponent_isa(root) == ICAL_VCALENDAR_COMPONENT { return root }
        return ICalWalk.children(of: root, kind: ICAL_VCALENDAR_COMPONENT).first
    }

    /// What libical reads in each VEVENT of the UID, in the order the texts come.
    public let versions: [ICalEvent]

    /// The VEVENTs of the invitation's UID (master and overrides), in file order
    /// (borrowed from `root`, which lives as long as the message).
    let events: [OpaquePointer]

    /// The texts to store for an accepted invitation: each VEVENT of the UID with the
    /// owner's `ATTENDEE` set to `partstat` (and its `RSVP` request dropped), plus the
    /// VTIMEZONEs those VEVENTs name. `owner` tells whether an attendee matched.
    /// `renaming` gives TZIDs a new name, in the events and in their VTIMEZONE (for a
    /// zone whose name the calendar already uses for other rules); `zones` is keyed
    /// by the new name.
    public func storedCopy(me: [String], partstat: String,
                           renaming: [String: String] = [:]) -> (events: [String], zones: [String: String], owner: Bool) {
        var texts: [String] = []
        var tzids = Set<String>()
        var owner = false
        for event in events {
            guard let clone = icalcomponent_new_clone(event) else { continue }
            let copy = OwnedComponent(taking: clone)
            for prop in ICalWalk.properties(of: copy.pointer) where icalproperty_isa(prop) == ICAL_ATTENDEE_PROPERTY {
                if ITIPMessage.isOwner(prop, me) {
                    ITIPMessage.setPartstat(prop, partstat)
                    owner = true
                }
            }
            if owner { ITIPMessage.setOutlookBusyStatus(copy.pointer, partstat: partstat) }
            tzids.formUnion(ITIPMessage.tzids(of: copy.pointer))
            ITIPMessage.rename(copy.pointer, renaming)
            texts.append(ITIPMessage.text(of: copy.pointer))
        }
        return (texts, zoneTexts(tzids, renaming: renaming), owner)
    }

    /// Whether the message carries a VTIMEZONE for this TZID.
    public func definesZone(_ tzid: String) -> Bool { zoneNode(tzid) != nil }

    /// TZIDs the events of the UID name.
    public var tzids: Set<String> {
        events.reduce(into: Set<String>()) { $0.formUnion(ITIPMessage.tzids(of: $1)) }
    }

    private static func rename(_ component: OpaquePointer, _ renaming: [String: String]) {
        guard !renaming.isEmpty else { return }
        for prop in ICalWalk.properties(of: component) {
            if let tz = ICalWalk.parameter(prop, ICAL_TZID_PARAMETER), let id = ICalWalk.copy(icalparameter_get_tzid(tz)),
               let new = renaming[id] {
                icalproperty_set_parameter(prop, icalparameter_new_tzid(new))
            }
        }
    }

    /// The events of this message for a calendar as they are: VEVENT texts of the UID,
    /// with `STATUS:CANCELLED` added to each (for a CANCEL of instances not stored as
    /// overrides), and a DTSTART from the RECURRENCE-ID where the message has none.
    public func cancelledOverrides(renaming: [String: String] = [:]) -> (events: [String], zones: [String: String]) {
        var texts: [String] = []
        var tzids = Set<String>()
        for event in events {
            guard let clone = icalcomponent_new_clone(event) else { continue }
            let copy = OwnedComponent(taking: clone)
            icalcomponent_set_status(copy.pointer, ICAL_STATUS_CANCELLED)
            if icalcomponent_get_first_property(copy.pointer, ICAL_DTSTART_PROPERTY) == nil,
               let rid = icalcomponent_get_first_property(copy.pointer, ICAL_RECURRENCEID_PROPERTY),
               let start = icalproperty_new_dtstart(icalproperty_get_recurrenceid(rid)) {
                if let tz = ICalWalk.parameter(rid, ICAL_TZID_PARAMETER), let id = icalparameter_get_tzid(tz) {
                    icalproperty_add_parameter(start, icalparameter_new_tzid(id))
                }
                icalcomponent_add_property(copy.pointer, start)
            }
            tzids.formUnion(ITIPMessage.tzids(of: copy.pointer))
            ITIPMessage.rename(copy.pointer, renaming)
            texts.append(ITIPMessage.text(of: copy.pointer))
        }
        return (texts, zoneTexts(tzids, renaming: renaming))
    }

    /// A `METHOD:REPLY` (RFC 5546 §3.2.3) answering every VEVENT of the UID: UID,
    /// SEQUENCE, RECURRENCE-ID, ORGANIZER, the times and title kept; DTSTAMP now; of
    /// the attendees only the replying one, with `partstat`. Nil when `me` is not
    /// among the attendees.
    public func reply(me: [String], partstat: String, comment: String?, now: Date, name: String? = nil) -> String? {
        guard let calendar = icalcomponent_new(ICAL_VCALENDAR_COMPONENT) else { return nil }
        let reply = OwnedComponent(taking: calendar)
        icalcomponent_add_property(reply.pointer, icalproperty_new_prodid("-//coolcal//coolcal//EN"))
        icalcomponent_add_property(reply.pointer, icalproperty_new_version("2.0"))
        icalcomponent_add_property(reply.pointer, icalproperty_new_method(ICAL_METHOD_REPLY))
        let kept: [icalproperty_kind] = [
            ICAL_UID_PROPERTY, ICAL_SEQUENCE_PROPERTY, ICAL_RECURRENCEID_PROPERTY, ICAL_ORGANIZER_PROPERTY,
            ICAL_SUMMARY_PROPERTY, ICAL_DTSTART_PROPERTY, ICAL_DTEND_PROPERTY, ICAL_DURATION_PROPERTY,
        ]
        var tzids = Set<String>()
        var vevents: [OpaquePointer] = []
        for event in events {
            guard let answer = icalcomponent_new(ICAL_VEVENT_COMPONENT) else { continue }
            var answered = false
            for prop in ICalWalk.properties(of: event) {
                let kind = icalproperty_isa(prop)
                if kept.contains(kind), let clone = icalproperty_new_clone(prop) {
                    icalcomponent_add_property(answer, clone)
                } else if kind == ICAL_ATTENDEE_PROPERTY, !answered, ITIPMessage.isOwner(prop, me),
                          let clone = icalproperty_new_clone(prop) {
                    ITIPMessage.setPartstat(clone, partstat)
                    if let name { ITIPMessage.setName(clone, name) }
                    ITIPMessage.dropStaleSentBy(clone, from: me.first)
                    icalcomponent_add_property(answer, clone)
                    answered = true
                }
            }
            let utc = icaltimezone_get_utc_timezone()
            icalcomponent_add_property(answer, icalproperty_new_dtstamp(
                icaltime_from_timet_with_zone(time_t(now.timeIntervalSince1970), 0, utc)))
            if let comment { icalcomponent_add_property(answer, icalproperty_new_comment(comment)) }
            guard answered else {
                icalcomponent_free(answer)
                continue
            }
            tzids.formUnion(ITIPMessage.tzids(of: answer))
            vevents.append(answer)
        }
        guard !vevents.isEmpty else { return nil }
        for tzid in tzids.sorted() {
            if let zone = zoneNode(tzid), let clone = icalcomponent_new_clone(zone) {
                icalcomponent_add_component(reply.pointer, clone)
            }
        }
        for vevent in vevents { icalcomponent_add_component(reply.pointer, vevent) }
        return ITIPMessage.text(of: reply.pointer)
    }

    /// Every attendee address of the invitation's first VEVENT, as written.
    public var attendees: [String] {
        guard let first = events.first else { return [] }
        return ICalWalk.properties(of: first)
            .filter { icalproperty_isa($0) == ICAL_ATTENDEE_PROPERTY }
            .compactMap { ICalWalk.copy(icalproperty_get_attendee($0)) }
    }

    /// The ORGANIZER of the invitation's first VEVENT (address as written, its CN);
    /// nil when it has none (a push-style or published event).
    public var organizer: ITIPParty? {
        guard let first = events.first, let prop = icalcomponent_get_first_property(first, ICAL_ORGANIZER_PROPERTY),
              let address = ICalWalk.copy(icalproperty_get_organizer(prop)) else { return nil }
        var party = ITIPParty(address: address, name: ITIPMessage.commonName(prop))
        if let parameter = icalproperty_get_first_parameter(prop, ICAL_SENTBY_PARAMETER) {
            party.sentBy = ICalWalk.copy(icalparameter_get_sentby(parameter))
        }
        return party
    }

    /// The first ATTENDEE that names one of `me`, with its CN; nil when none does.
    public func attendee(me: [String]) -> ITIPParty? {
        for event in events {
            for prop in ICalWalk.properties(of: event) where icalproperty_isa(prop) == ICAL_ATTENDEE_PROPERTY {
                if ITIPMessage.isOwner(prop, me), let address = ICalWalk.copy(icalproperty_get_attendee(prop)) {
                    var party = ITIPParty(address: address, name: ITIPMessage.commonName(prop))
                    party.rsvp = ICalWalk.parameter(prop, ICAL_RSVP_PARAMETER).map { icalparameter_get_rsvp($0) == ICAL_RSVP_TRUE }
                    return party
                }
            }
        }
        return nil
    }

    /// What identifies the version a REPLY answers: the highest SEQUENCE of the UID's
    /// VEVENTs and their RECURRENCE-IDs as written (empty for the whole series).
    public var version: (sequence: Int, recurrenceIDs: [String]) {
        let sequence = events.map { Int(icalcomponent_get_sequence($0)) }.max() ?? 0
        let ids = events.compactMap { event in
            icalcomponent_get_first_property(event, ICAL_RECURRENCEID_PROPERTY)
                .flatMap { ICalWalk.copy(icalproperty_get_value_as_string($0)) }
        }
        return (sequence, ids)
    }

    static func commonName(_ prop: OpaquePointer) -> String? {
        guard let cn = ICalWalk.parameter(prop, ICAL_CN_PARAMETER), let name = ICalWalk.copy(icalparameter_get_cn(cn)),
              !name.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return name
    }

    /// Whether an address names one of `me` (case-insensitive, `mailto:` optional).
    public static func sameAddress(_ a: String, _ b: String) -> Bool {
        normalized(a) == normalized(b)
    }

    private static func normalized(_ address: String) -> String {
        var s = address.trimmingCharacters(in: .whitespaces).lowercased()
        if s.hasPrefix("mailto:") { s.removeFirst(7) }
        return s
    }

    static func isOwner(_ attendee: OpaquePointer, _ me: [String]) -> Bool {
        guard let address = ICalWalk.copy(icalproperty_get_attendee(attendee)) else { return false }
        return me.contains { sameAddress($0, address) }
    }

    static func setPartstat(_ prop: OpaquePointer, _ partstat: String) {
        let value: icalparameter_partstat
        switch partstat {
        case "ACCEPTED": value = ICAL_PARTSTAT_ACCEPTED
        case "DECLINED": value = ICAL_PARTSTAT_DECLINED
        case "TENTATIVE": value = ICAL_PARTSTAT_TENTATIVE
        default: value = ICAL_PARTSTAT_NEEDSACTION
        }
        icalproperty_set_parameter(prop, icalparameter_new_partstat(value))
        icalproperty_remove_parameter_by_kind(prop, ICAL_RSVP_PARAMETER)
    }

    /// Drops the SENT-BY of my ATTENDEE line unless it names `from`, the address the
    /// answer goes out from (the first of `me`): a SENT-BY the organizer's copy kept from
    /// an earlier answer sent by someone else would claim a sender this one does not have.
    static func dropStaleSentBy(_ prop: OpaquePointer, from: String?) {
        guard let parameter = icalproperty_get_first_parameter(prop, ICAL_SENTBY_PARAMETER) else { return }
        if let from, let sentBy = ICalWalk.copy(icalparameter_get_sentby(parameter)), sameAddress(sentBy, from) { return }
        icalproperty_remove_parameter_by_kind(prop, ICAL_SENTBY_PARAMETER)
    }

    /// The CN of an ATTENDEE: `name` on one line, without the double quotes a parameter
    /// value cannot hold.
    static func setName(_ prop: OpaquePointer, _ name: String) {
        let value = String(String.UnicodeScalarView(name.unicodeScalars.map { c -> Unicode.Scalar in
            if c == "\"" { return "'" }
            return c.properties.generalCategory == .control || c.value == 0x2028 || c.value == 0x2029 ? " " : c
        }))
        icalproperty_set_parameter(prop, icalparameter_new_cn(value))
    }

    /// TZIDs named by any property of a component.
    static func tzids(of component: OpaquePointer) -> Set<String> {
        var ids = Set<String>()
        for prop in ICalWalk.properties(of: component) {
            if let tz = ICalWalk.parameter(prop, ICAL_TZID_PARAMETER), let id = ICalWalk.copy(icalparameter_get_tzid(tz)) {
                ids.insert(id)
            }
        }
        return ids
    }

    func zoneNode(_ tzid: String) -> OpaquePointer? {
        guard let calendar = ITIPMessage.calendarNode(root.pointer) else { return nil }
        return ICalWalk.children(of: calendar, kind: ICAL_VTIMEZONE_COMPONENT).first {
            ICalWalk.copy(icalcomponent_get_first_property($0, ICAL_TZID_PROPERTY).flatMap(icalproperty_get_tzid)) == tzid
        }
    }

    private func zoneTexts(_ tzids: Set<String>, renaming: [String: String] = [:]) -> [String: String] {
        var zones: [String: String] = [:]
        for tzid in tzids {
            guard let node = zoneNode(tzid) else { continue }
            guard let new = renaming[tzid] else {
                zones[tzid] = ITIPMessage.text(of: node)
                continue
            }
            guard let clone = icalcomponent_new_clone(node) else { continue }
            let copy = OwnedComponent(taking: clone)
            if let prop = icalcomponent_get_first_property(copy.pointer, ICAL_TZID_PROPERTY) { icalproperty_set_tzid(prop, new) }
            zones[new] = ITIPMessage.text(of: copy.pointer)
        }
        return zones
    }

    /// Removes every `X-LIC-ERROR` property libical added while parsing, at any depth.
    static func dropDiagnostics(_ component: OpaquePointer) {
        for prop in ICalWalk.properties(of: component) where icalproperty_isa(prop) == ICAL_XLICERROR_PROPERTY {
            icalcomponent_remove_property(component, prop)
            icalproperty_free(prop)
        }
        for child in ICalWalk.children(of: component, kind: ICAL_ANY_COMPONENT) { dropDiagnostics(child) }
    }

    /// libical's serialization with CRLF line ends.
    static func text(of component: OpaquePointer) -> String {
        guard let raw = icalcomponent_as_ical_string_r(component) else { return "" }
        defer { free(raw) }
        return ICalWriter.normalizeLineEndings(String(cString: raw), to: "\r\n")
    }
}

/// An ORGANIZER or ATTENDEE as a REPLY mail addresses it: the calendar address as
/// written (`mailto:…`) and its `CN`.
public struct ITIPParty: Equatable, Sendable {
    public var address: String
    public var name: String?
    /// The ORGANIZER's SENT-BY: who sends on the organizer's behalf, as written.
    public var sentBy: String? = nil
    /// An ATTENDEE's `RSVP` parameter: false when the organizer asked for no answer
    /// (`RSVP=FALSE`), nil when the line has none.
    public var rsvp: Bool? = nil
}
