import CoolcalICal
import CoolcalModel
import CoolcalScan

/// An event in one of the user's calendars that waits for their answer: a scheduling
/// server (RFC 6638 §3.2) or a vdirsyncer sync put it there with their ATTENDEE at
/// `PARTSTAT=NEEDS-ACTION` (or without PARTSTAT), organized by someone else.
public struct PendingInvitation: Sendable {
    public var uid: String
    /// The calendar it lives in (its label, as `Occurrence.calendar`).
    public var calendar: String
    public var summary: String?
    /// ORGANIZER's address, as written.
    public var organizer: String
    /// The highest SEQUENCE among its components (0 when none is written).
    public var sequence: Int
    /// The RECURRENCE-IDs of the components where my PARTSTAT is pending, as written
    /// (`""` for the master), sorted.
    public var recurrenceIDs: [String]
    /// A hash of the times of all its components (DTSTART, DTEND, DURATION, rules, dates):
    /// a server that resets PARTSTAT on a move without a new SEQUENCE still brings it back.
    public var timesHash: String
    /// Its instances from now to a year ahead, sorted.
    public var occurrences: [Occurrence]

    /// What a run remembers it by: UID, SEQUENCE, RECURRENCE-IDs and the times' hash.
    public var rememberedKey: String {
        "\(uid)\n\(sequence)\n\(recurrenceIDs.joined(separator: ","))\n\(timesHash)"
    }
}

/// Finds the pending invitations in calendars already read (`PendingInvitation`).
public enum PendingInvitations {
    /// The pending invitations of `calendars` for any of `me` (normalized addresses),
    /// given their occurrences in the window looked at (now to a year ahead): an event
    /// without an instance there is never pending. One per calendar and UID, in the
    /// order of their first instance.
    public static func find(in calendars: [LoadedCalendar], me: Set<String>, occurrences: [Occurrence]) -> [PendingInvitation] {
        guard !me.isEmpty else { return [] }
        var found: [PendingInvitation] = []
        for calendar in calendars {
            var byUID: [String: [ICalEvent]] = [:]
            for file in calendar.files {
                for event in file.events { if let uid = event.uid { byUID[uid, default: []].append(event) } }
            }
            for (uid, events) in byUID {
                let pending = events.filter { isPending($0, me: me) }
                guard !pending.isEmpty, let organizer = pending.compactMap(\.organizer).first else { continue }
                let instances = occurrences.filter { $0.uid == uid && $0.calendar == calendar.name }
                guard !instances.isEmpty else { continue }
                found.append(PendingInvitation(
                    uid: uid, calendar: calendar.name, summary: events.first(where: { $0.recurrenceID == nil })?.summary ?? pending[0].summary,
                    organizer: organizer, sequence: events.compactMap(\.sequence).max() ?? 0,
                    recurrenceIDs: pending.map { $0.recurrenceID.map { "\($0)" } ?? "" }.sorted(),
                    timesHash: timesHash(events), occurrences: instances))
            }
        }
        return found.sorted { a, b in
            let (x, y) = (a.occurrences.first?.startInstant ?? .max, b.occurrences.first?.startInstant ?? .max)
            return x != y ? x < y : (a.uid, a.calendar) < (b.uid, b.calendar)
        }
    }

    /// Whether one component waits for my answer: an ORGANIZER that is not me, and my
    /// ATTENDEE at NEEDS-ACTION or without PARTSTAT (RSVP is not required: Cyrus resets
    /// PARTSTAT on a move without adding RSVP back).
    public static func isPending(_ event: ICalEvent, me: Set<String>) -> Bool {
        guard let organizer = event.organizer, !me.contains(CalendarAddress.normalized(organizer)) else { return false }
        return event.attendees.contains { attendee in
            me.contains(CalendarAddress.normalized(attendee.address))
                && (attendee.partstat.map { $0.uppercased() == "NEEDS-ACTION" } ?? true)
        }
    }

    /// One component's times, as one line.
    private static func times(_ e: ICalEvent) -> String {
        var parts: [String] = []
        parts.append(e.recurrenceID.map { "\($0)" } ?? "")
        parts.append(e.start.map { "\($0)" } ?? "")
        parts.append(e.end.map { "\($0)" } ?? "")
        parts.append(e.duration.map { "\($0)" } ?? "")
        parts.append(e.rules.map { "\($0)" }.joined(separator: ";"))
        parts.append(e.rdates.map { "\($0)" }.joined(separator: ";"))
        parts.append(e.exdates.map { "\($0)" }.joined(separator: ";"))
        return parts.joined(separator: "|")
    }

    /// FNV-1a over each component's times, in RECURRENCE-ID order; 16 hex digits.
    static func timesHash(_ events: [ICalEvent]) -> String {
        let texts = events.map(times).sorted()
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in texts.joined(separator: "\n").utf8 { h = (h ^ UInt64(byte)) &* 0x100_0000_01B3 }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
