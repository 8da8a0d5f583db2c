import Foundation
import CoolcalICal
import CoolcalModel
import CoolcalScan

/// A push payload's event: added once, replaced when the payload's title or times
/// changed (SEQUENCE goes up), left alone when it is already there as it should be.
extension NewEvent: CalendarChange {
    package func splice(of text: CalendarText, calendar: ICalCalendar, file: String) throws -> (Splice?, WriteOutcome) {
        let ending = text.lineEnding
        // Looked for in the whole text: the stored copy may lie outside the window the
        // calendar was read for (the payload moved the event).
        if let existing = text.blocks(uid: uid, marker: inviteID).first(where: { $0.event.recurrenceID == nil }) {
            let stored = existing.event
            if stored.summary == summary && Self.occurrenceTime(stored.start) == start
                && Self.occurrenceTime(stored.end) == end {
                return (nil, .unchanged)
            }
            var replacement = self
            replacement.sequence = max(sequence, (stored.sequence ?? 0) + 1)
            return (text.replacing([existing.range], with: ICalWriter.vevent(replacement, lineEnding: ending)), .updated)
        }
        let block = ICalWriter.vevent(self, lineEnding: ending)
        if let edited = text.replacing([], with: block) { return (edited, .added) }
        guard let whole = text.wholeCalendar(block, hasEvents: !calendar.events.isEmpty || !text.veventBlocks().isEmpty) else {
            throw ICalError(file: file, message: "has no END:VCALENDAR line to insert before; not modified")
        }
        return (whole, .added)
    }

    package var marker: String? { inviteID }

    package func preview(lineEnding: String) -> String {
        ICalWriter.vevent(self, lineEnding: lineEnding)
    }

    private static func occurrenceTime(_ t: ICalTime?) -> OccurrenceTime? {
        guard let t else { return nil }
        if t.isDate { return .date(t.fields) }
        return t.reference == .utc ? .instant(t.fields.secondsAsUTC) : nil
    }
}
