import Foundation
import CoolcalModel
import CoolcalState
import CoolcalWriting

/// `accept N`, `decline N`, `reply --tentative N` on an invitation found pending in a
/// calendar (issue 49): the stored copy answered where it lives (`InPlaceAnswer`: my
/// PARTSTAT, RSVP, DTSTAMP, a COMMENT), never the invitation's own version written, a
/// decline keeping the event; then the answer recorded. On a scheduling server the edit
/// is the whole answer (the server tells the organizer), so nothing is mailed here.
package enum FoundAnswer {
    /// What answering did, for the words.
    package struct Outcome {
        package var kind: AnswerKind
        package var title: String
        package var calendar: String
        package var written: InPlaceAnswer.Outcome
    }

    /// Answers `entry` (found in calendar `entry.foundIn`, one of `calendars`' operands).
    package static func answer(_ kind: AnswerKind, entry: InboxEntry, calendars: [String], comment: String?,
                               store: AnswerStore) throws -> Outcome {
        let settings = store.settings
        guard let partstat = kind.partstat, let label = entry.foundIn else {
            throw UsageError("inbox \(entry.number) is not an invitation found in a calendar", command: nil)
        }
        guard let location = CalendarInvitationScan.location(of: label, in: calendars.map(CalendarLocation.init)) else {
            throw UsageError("inbox \(entry.number) was found in calendar \(label), which is not among the calendars given "
                             + "(CAL operands, or the config's calendar lines)", command: nil)
        }
        let written = try InPlaceAnswer(writer: settings.writer, me: settings.me)
            .answer(uid: entry.id, at: location, partstat: partstat, stamp: stamp(settings.now), comment: comment)
        if case .edited = written {
            let summary = InvitationSummary(id: entry.id, title: entry.title, start: entry.start, end: entry.end, allDay: entry.allDay,
                                            mail: nil, organizer: entry.organizer, kind: entry.kind)
            try store.open().recordAnswer(kind.answer, for: summary, comment: comment, at: settings.now, queueFor: nil)
        }
        return Outcome(kind: kind, title: entry.title, calendar: label, written: written)
    }

    /// A DTSTAMP value: `yyyyMMdd'T'HHmmss'Z'`.
    static func stamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", c.year ?? 1970, c.month ?? 1, c.day ?? 1, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }
}
