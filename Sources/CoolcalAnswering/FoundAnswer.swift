import Foundation
import CoolcalInvite
import CoolcalModel
import CoolcalState
import CoolcalWriting

/// `accept N`, `decline N`, `reply --tentative N` on an invitation found pending in a
/// calendar (issue 49): the stored copy answered where it lives (`InPlaceAnswer`: my
/// PARTSTAT, RSVP, DTSTAMP, a COMMENT), never the invitation's own version written, a
/// decline keeping the event; then the answer recorded. On a scheduling server the edit
/// is the whole answer (the server tells the organizer), so it is mailed as an iMIP REPLY
/// only when asked (`mail`: `--reply`, or `reply = mail` where the event says
/// `SCHEDULE-AGENT=CLIENT`: `clientScheduled`).
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
                               mail: Bool, store: AnswerStore) throws -> Outcome {
        let settings = store.settings
        guard let partstat = kind.partstat, let label = entry.foundIn else {
            throw UsageError("inbox \(entry.number) is not an invitation found in a calendar", command: nil)
        }
        guard let location = CalendarInvitationScan.location(of: label, in: calendars.map(CalendarLocation.init)) else {
            throw UsageError("inbox \(entry.number) was found in calendar \(label), which is not among the calendars given "
                             + "(CAL operands, or the config's calendar lines)", command: nil)
        }
        // The mail is made (and the sendmail checked) before anything is written.
        let reply = try mail ? store.mailReply(for: InviteLoader.open(Data(entry.payload.utf8), name: "inbox \(entry.number)",
                                                                       floatingZone: settings.zone),
                                               partstat: partstat, comment: comment) : nil
        let written = try InPlaceAnswer(writer: settings.writer, me: settings.me)
            .answer(uid: entry.id, at: location, partstat: partstat, stamp: stamp(settings.now), comment: comment)
        if case .edited = written {
            let summary = InvitationSummary(id: entry.id, title: entry.title.event ?? "", start: entry.start, end: entry.end, allDay: entry.allDay,
                                            mail: nil, organizer: entry.organizer, kind: entry.kind)
            let state = try store.open()
            let recorded = try state.recordAnswer(kind.answer, for: summary, comment: comment, at: settings.now, queueFor: nil)
            if let reply {
                try store.queue(reply, responseKey: recorded.key, inviteID: entry.id, state)
                try store.deliver(state)
            }
        }
        return Outcome(kind: kind, title: entry.title.event ?? "", calendar: label, written: written)
    }

    /// Whether the stored copy's ORGANIZER, or my ATTENDEE, says `SCHEDULE-AGENT=CLIENT`
    /// (RFC 6638 §7.1): the server does not schedule it, so the mail rules apply.
    package static func clientScheduled(_ entry: InboxEntry, me: [String]) -> Bool {
        let unfolded = String(decoding: ContentLines.unfolded(Array(entry.payload.utf8)), as: UTF8.self)
        let mine = Set(me.map(CalendarAddress.normalized))
        return unfolded.split(whereSeparator: \.isNewline).contains { line in
            let upper = line.uppercased()
            guard upper.contains(";SCHEDULE-AGENT=CLIENT"), let colon = line.lastIndex(of: ":") else { return false }
            if upper.hasPrefix("ORGANIZER") { return true }
            return upper.hasPrefix("ATTENDEE") && mine.contains(CalendarAddress.normalized(String(line[line.index(after: colon)...])))
        }
    }

    /// A DTSTAMP value: `yyyyMMdd'T'HHmmss'Z'`.
    static func stamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", c.year ?? 1970, c.month ?? 1, c.day ?? 1, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }
}
