import Foundation
import CoolcalICal
import CoolcalModel
import CoolcalScan

/// A push invitation's event as an answer makes it: accepted (`STATUS:CONFIRMED`) or
/// tentative (`STATUS:TENTATIVE`) writes coolcal's event, as `NewEvent` does, and
/// turns a stored copy's status (or a declined-in-place `TRANSP`) to the answer by
/// editing those lines only; declined removes coolcal's event when it is unchanged
/// since written (its `EventHash` is the one the state kept), else declines it in
/// place with `TRANSP:TRANSPARENT` (free), every other byte as the user left it.
package final class PushAnswerChange: CalendarChange {
    package enum Kind: Equatable { case accepted, tentative, declined }

    package let event: NewEvent
    package let kind: Kind
    /// What the state kept of the block as coolcal wrote it (`EventHash`); nil or empty
    /// when nothing was kept, or the user's edits are in it.
    package let recorded: String?
    /// The event's block as the last `apply` left it (what the state hashes); nil when
    /// it was removed or absent.
    package private(set) var block: [UInt8]?
    /// Whether that block is coolcal's own: written whole by it, or edited by it from
    /// a block that was (the recorded hash); a user's edited event never becomes ours.
    package private(set) var isOurs = false

    package init(_ event: NewEvent, _ kind: Kind, recorded: String?) {
        self.event = event
        self.kind = kind
        self.recorded = recorded?.isEmpty == false ? recorded : nil
    }

    package var uid: String { event.uid }
    package var marker: String? { event.inviteID }

    private var status: String { kind == .tentative ? "TENTATIVE" : "CONFIRMED" }

    package func splice(of text: CalendarText, calendar: ICalCalendar, file: String) throws -> (Splice?, WriteOutcome) {
        // Looked for in the whole text, as `NewEvent` does: it may lie outside the window.
        let existing = text.blocks(uid: uid, marker: event.inviteID).first { $0.event.recurrenceID == nil }
        isOurs = false
        if kind == .declined { return try decline(existing, text, file: file) }
        let ending = text.lineEnding
        if let existing {
            let stored = existing.event
            let bytes = Array(text.bytes[existing.range])
            isOurs = recorded != nil && EventHash.of(bytes) == recorded
            if stored.summary == event.summary && Self.occurrenceTime(stored.start) == event.start
                && Self.occurrenceTime(stored.end) == event.end {
                let statusRight = (stored.status ?? "CONFIRMED").uppercased() == status
                if statusRight && !stored.transparent {
                    block = bytes
                    return (nil, .unchanged)
                }
                var wanted = [("STATUS", "STATUS:\(status)")]
                if stored.transparent { wanted.append(("TRANSP", "TRANSP:OPAQUE")) }
                guard let edited = BlockEdit.setting(wanted, in: bytes) else {
                    throw ICalError(file: file, message: "cannot change the stored event \(uid); not modified")
                }
                block = edited
                return (text.replacing([existing.range], withBytes: edited), .updated)
            }
            var replacement = event
            replacement.sequence = max(event.sequence, (stored.sequence ?? 0) + 1)
            let fresh = try written(replacement, ending, file: file)
            block = fresh
            isOurs = true
            return (text.replacing([existing.range], withBytes: fresh), .updated)
        }
        let fresh = try written(event, ending, file: file)
        block = fresh
        isOurs = true
        if let edited = text.replacing([], withBytes: fresh) { return (edited, .added) }
        guard let whole = text.wholeCalendar(String(decoding: fresh, as: UTF8.self),
                                             hasEvents: !calendar.events.isEmpty || !text.veventBlocks().isEmpty) else {
            throw ICalError(file: file, message: "has no END:VCALENDAR line to insert before; not modified")
        }
        return (whole, .added)
    }

    private func decline(_ existing: EventBlock?, _ text: CalendarText,
                         file: String) throws -> (Splice?, WriteOutcome) {
        guard let existing else {
            block = nil
            return (nil, .absent)
        }
        let bytes = Array(text.bytes[existing.range])
        if let recorded, EventHash.of(bytes) == recorded {
            block = nil
            return (text.replacing([existing.range], withBytes: []), .removed)
        }
        block = bytes
        if existing.event.transparent { return (nil, .unchanged) }
        guard let edited = BlockEdit.setting([("TRANSP", "TRANSP:TRANSPARENT")], in: bytes) else {
            throw ICalError(file: file, message: "cannot mark the stored event \(uid) free; not modified")
        }
        block = edited
        return (text.replacing([existing.range], withBytes: edited), .declinedInPlace)
    }

    /// The VEVENT coolcal writes, with the answer's STATUS.
    private func written(_ e: NewEvent, _ ending: String, file: String) throws -> [UInt8] {
        let bytes = Array(ICalWriter.vevent(e, lineEnding: ending).utf8)
        guard kind == .tentative else { return bytes }
        guard let edited = BlockEdit.setting([("STATUS", "STATUS:TENTATIVE")], in: bytes) else {
            throw ICalError(file: file, message: "cannot write the event \(uid) as tentative; not modified")
        }
        return edited
    }

    package func preview(lineEnding: String) -> String {
        (try? written(event, lineEnding, file: "preview")).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// The hash of the block as written, for the state; nil when none is left.
    package var hash: String? { block.map(EventHash.of) }

    private static func occurrenceTime(_ t: ICalTime?) -> OccurrenceTime? {
        guard let t else { return nil }
        if t.isDate { return .date(t.fields) }
        return t.reference == .utc ? .instant(t.fields.secondsAsUTC) : nil
    }
}
