internal import CLibical
import Foundation
import CoolcalModel

/// What coolcal writes for an accepted invitation.
public struct NewEvent: Equatable, Sendable {
    public var uid: String
    public var summary: String
    /// A UTC instant, or a date (all-day; `end` exclusive).
    public var start: OccurrenceTime
    public var end: OccurrenceTime
    public var sequence: Int
    public var stamp: Date
    public var inviteID: String

    /// The memberwise initializer, for the targets above.
    package init(uid: String, summary: String, start: OccurrenceTime, end: OccurrenceTime, sequence: Int, stamp: Date, inviteID: String) {
        self.uid = uid
        self.summary = summary
        self.start = start
        self.end = end
        self.sequence = sequence
        self.stamp = stamp
        self.inviteID = inviteID
    }
}

/// Builds VEVENT text through libical, so that every value is escaped and folded
/// by the library (a title holding `END:VEVENT` stays text).
public enum ICalWriter {
    /// `BEGIN:VEVENT` … `END:VEVENT`, lines ending in `lineEnding`.
    public static func vevent(_ e: NewEvent, lineEnding: String = "\r\n") -> String {
        ICalRuntime.ensureConfigured()
        guard let event = icalcomponent_new(ICAL_VEVENT_COMPONENT) else { return "" }
        let owned = OwnedComponent(taking: event)
        let utc = icaltimezone_get_utc_timezone()
        func add(_ prop: OpaquePointer?) {
            if let prop { icalcomponent_add_property(owned.pointer, prop) }
        }
        add(icalproperty_new_uid(e.uid))
        add(icalproperty_new_dtstamp(icaltime_from_timet_with_zone(time_t(e.stamp.timeIntervalSince1970), 0, utc)))
        add(icalproperty_new_sequence(Int32(clamping: e.sequence)))
        add(icalproperty_new_summary(e.summary))
        add(icalproperty_new_dtstart(time(e.start, utc)))
        add(icalproperty_new_dtend(time(e.end, utc)))
        add(icalproperty_new_status(ICAL_STATUS_CONFIRMED))
        if let x = icalproperty_new_x(e.inviteID) {
            icalproperty_set_x_name(x, "X-COOLCAL-INVITE-ID")
            add(x)
        }
        guard let raw = icalcomponent_as_ical_string_r(owned.pointer) else { return "" }
        let text = String(cString: raw)
        free(raw)
        return normalizeLineEndings(text, to: lineEnding)
    }

    /// A whole calendar holding one event, for new files.
    public static func calendar(containing vevent: String, lineEnding: String = "\r\n") -> String {
        ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//coolcal//coolcal//EN"].map { $0 + lineEnding }.joined()
            + vevent + "END:VCALENDAR" + lineEnding
    }

    private static func time(_ t: OccurrenceTime, _ utc: OpaquePointer?) -> icaltimetype {
        switch t {
        case .date(let d):
            return d.icaltime(isDate: true)
        case .instant(let s):
            var tt = CivilDateTime(utcSeconds: s).icaltime(isDate: false)
            tt.zone = utc
            return tt
        }
    }

    /// libical ends lines with CRLF; only LF (with the CR before it) ends a line here,
    /// by `ContentLines`. (Swift's `isNewline` would also split text at U+2028 or
    /// U+0085 inside a SUMMARY.) Empty lines are dropped.
    package static func normalizeLineEndings(_ text: String, to ending: String) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for line in ContentLines.physical(bytes) where !line.content.isEmpty {
            out += bytes[line.content]
            out += ending.utf8
        }
        return String(decoding: out, as: UTF8.self)
    }
}
