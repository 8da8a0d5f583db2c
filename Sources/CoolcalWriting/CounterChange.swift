import Foundation
import CoolcalICal
import CoolcalModel
import CoolcalScan

/// An attendee's `METHOD:COUNTER` (RFC 5546 §3.2.7) against the organizer's copy. Checked
/// (`apply` false, what `merge` does): it is for an event the owner organises, from one
/// of its attendees (else `uninvited attendee`), not for an older SEQUENCE. Applied
/// (`accept N` on the counter): only the proposed times replace the event's — DTSTART,
/// DTEND (a DURATION gives way to DTEND), SEQUENCE one higher, DTSTAMP now — in the
/// stored blocks it names (the series, or the one instance); every other byte is kept.
/// What was written is left in `produced`, for the update mailed to the attendees.
package struct CounterChange: CalendarChange {
    package let message: ITIPMessage
    /// The proposed times (the counter's first VEVENT, as read).
    package let start: OccurrenceTime
    package let end: OccurrenceTime
    /// The owner's addresses: only an event whose ORGANIZER is one of them counts.
    package let me: [String]
    /// Who proposes: the mail's From (normalized; "" when it named no single address),
    /// or the counter's first ATTENDEE when it did not come by mail.
    package let proposer: String
    package let apply: Bool
    package let now: Date
    package let produced = Produced()

    /// The organizer's event as it now stands, for the REQUEST that tells the attendees.
    package final class Produced {
        /// Every stored block of the UID (master and overrides), after the edit.
        package var events: [String] = []
        /// For each of `events`: whether the edit changed its time significantly
        /// (`SignificantChange`), so that the update asks every attendee again.
        package var rescheduled: [Bool] = []
        /// The calendar's VTIMEZONE blocks those events name.
        package var zones: [String] = []
        /// The attendees of the event, as written (`mailto:…`).
        package var attendees: [String] = []
        package var sequence = 0
    }

    package init(message: ITIPMessage, start: OccurrenceTime, end: OccurrenceTime, me: [String], proposer: String,
                 apply: Bool, now: Date) {
        self.message = message
        self.start = start
        self.end = end
        self.me = me
        self.proposer = proposer
        self.apply = apply
        self.now = now
    }

    package var uid: String { message.uid }

    package func splice(of text: CalendarText, calendar: ICalCalendar, file: String) throws -> (Splice?, WriteOutcome) {
        let (stored, targets) = text.organizedBlocks(uid: uid, me: me, instance: message.versions.first?.recurrenceID, zones: calendar.zones)
        guard !targets.isEmpty else { return (nil, .absent) }
        let invited = targets.contains { $0.event.attendees.contains { CalendarAddress.normalized($0.address) == proposer } }
        guard invited, !proposer.isEmpty else {
            let who = proposer.isEmpty ? "a mail with no single From address" : proposer
            return (nil, .held(.uninvitedAttendee, "\(who) is not an attendee of the event"))
        }
        let offered = message.version.sequence
        let current = targets.compactMap(\.event.sequence).max() ?? 0
        if offered < current {
            return (nil, .stale("a counter-proposal to SEQUENCE \(offered); the event is at SEQUENCE \(current)"))
        }
        guard apply else { return (nil, .unchanged) }
        let sequence = max(current, offered) + 1
        var edits: [(range: Range<Int>, bytes: [UInt8])] = []
        for block in targets {
            let lines = [timeLine("DTSTART", start, like: block.event.start, calendar), timeLine("DTEND", end, like: block.event.start, calendar),
                         "SEQUENCE:\(sequence)", "DTSTAMP:" + CivilDateTime(utcSeconds: Int64(now.timeIntervalSince1970)).basicDateTime + "Z"]
            let edited = PropertyEdit.replacing(["DTSTART", "DTEND", "DURATION", "SEQUENCE", "DTSTAMP"], with: lines,
                                                in: Array(text.bytes[block.range]))
            edits.append((block.range, edited))
        }
        guard let edited = Splice(base: text.bytes, cuts: edits) else {
            throw ICalError(file: file, message: "the stored blocks of \(uid) overlap; not modified")
        }
        record(stored, edits, text)
        produced.sequence = sequence
        return (edited, .updated)
    }

    package func preview(lineEnding: String) -> String { "" }

    /// What the attendees are sent: every stored block (edited ones as edited) and the
    /// VTIMEZONEs they name.
    private func record(_ stored: [EventBlock], _ edits: [(range: Range<Int>, bytes: [UInt8])], _ text: CalendarText) {
        produced.events = stored.map { block in
            let bytes = edits.first { $0.range == block.range }?.bytes ?? Array(text.bytes[block.range])
            return String(decoding: bytes, as: UTF8.self)
        }
        produced.rescheduled = stored.map { block in
            guard let edited = edits.first(where: { $0.range == block.range })?.bytes else { return false }
            let wrapped = Array("BEGIN:VCALENDAR\r\n".utf8) + edited + Array("END:VCALENDAR\r\n".utf8)
            // An edit that cannot be read back is taken as a change: asking again is the safe side.
            guard let after = (try? ICalReader.read(Data(wrapped), file: "block"))?.events.first else { return true }
            return SignificantChange.between(block.event, after)
        }
        produced.attendees = stored.first { $0.event.recurrenceID == nil }.map { $0.event.attendees.map(\.address) }
            ?? stored.first.map { $0.event.attendees.map(\.address) } ?? []
        let named = Set(stored.flatMap { [$0.event.start?.tzid, $0.event.end?.tzid].compactMap { $0 } })
        produced.zones = text.timezoneBlocks().compactMap { range in
            let zone = String(decoding: text.bytes[range], as: UTF8.self)
            let id = zone.split(whereSeparator: \.isNewline).first { $0.uppercased().hasPrefix("TZID:") }
                .map { String($0.dropFirst(5)).trimmingCharacters(in: .whitespaces) }
            return id.map(named.contains) == true ? zone : nil
        }
    }

    /// The new time as the stored event writes its DTSTART: in its TZID when the
    /// calendar knows that zone, else in UTC; a day as a DATE.
    private func timeLine(_ name: String, _ time: OccurrenceTime, like stored: ICalTime?, _ calendar: ICalCalendar) -> String {
        if case .instant(let seconds) = time, let tzid = stored?.tzid, let zone = calendar.zones.zone(for: tzid) {
            let quoted = tzid.contains(where: { ";:,".contains($0) }) ? "\"\(tzid)\"" : tzid
            return "\(name);TZID=\(quoted):" + zone.localFields(ofUTC: seconds).basicDateTime
        }
        return ITIPMessage.timeLine(name, time)
    }
}
