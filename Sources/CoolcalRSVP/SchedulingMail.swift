import Foundation
import CoolcalInvite
import CoolcalMail
import CoolcalModel

/// The counter-proposal's mails (RFC 5546 §3.2.7–3.2.8, as iMIP): the attendee's COUNTER
/// to the organizer, the organizer's DECLINECOUNTER to the one attendee who proposed,
/// and the organizer's updated REQUEST to every attendee once a proposal is taken.
/// Each is a `MailReply`: queued in the outbox once per `version`, like an answer.
extension MailReply {
    package init(message: ReplyMessage, version: String) {
        self.message = message
        self.version = version
    }

    /// The attendee's proposal of `start`–`end` for the invitation `file`, from the first
    /// of `me` (named `name`, else as the invitation names them) to its organizer.
    package static func counter(_ file: InvitationFile, me: [String], start: OccurrenceTime, end: OccurrenceTime,
                               comment: String?, now: Date, domain: String, name: String? = nil) throws(Failure) -> MailReply {
        let invite = file.invite
        func data(_ message: String) -> Failure { .data(InviteError(file: invite.source, message: message)) }
        guard let itip = file.message else { throw data("is a push payload; a counter-proposal answers an iCalendar invitation") }
        guard let organizer = itip.organizer else { throw data("has no ORGANIZER to send the proposal to") }
        guard let to = MailAddress(calendarAddress: organizer.address, name: organizer.name) else {
            throw data("ORGANIZER '\(PrintableText.clean(organizer.address, keepNewlines: false))' is not a mail address")
        }
        let from = try sender(me, name: name ?? itip.attendee(me: me)?.name)
        guard let calendar = itip.counter(me: me, start: start, end: end, comment: comment, now: now, name: name) else {
            throw data("\(me.joined(separator: ", ")) is not an attendee of this invitation")
        }
        var text = wrapped("\(from.name ?? from.address) proposes a new time for this event: \(start.jsonString) to \(end.jsonString).")
        if let comment { text += "\n\n" + comment }
        var message = ReplyMessage(from: from, to: to, subject: "New time proposed: \(title(invite.title))", date: now,
                                   messageID: ReplyMessage.messageID(domain: domain), inReplyTo: invite.mail?.messageID,
                                   text: text, calendar: calendar)
        message.method = "COUNTER"
        return MailReply(message: message, version: ["COUNTER", itip.uid, String(itip.version.sequence), start.jsonString, end.jsonString].joined(separator: "|"))
    }

    /// The organizer's no to the counter-proposal `file`, to `attendee` (who proposed) only:
    /// the mail's To names them, the calendar part no attendee (RFC 5546 §3.2.8).
    package static func declineCounter(_ file: InvitationFile, attendee: String, me: [String], comment: String?,
                                      now: Date, domain: String, name: String? = nil) throws(Failure) -> MailReply {
        let invite = file.invite
        func data(_ message: String) -> Failure { .data(InviteError(file: invite.source, message: message)) }
        guard let itip = file.message, invite.isCounter else { throw data("is not a counter-proposal (METHOD:COUNTER)") }
        guard let to = MailAddress(calendarAddress: attendee) else {
            throw data("'\(PrintableText.clean(attendee, keepNewlines: false))' who proposed it is not a mail address")
        }
        let from = try sender(me, name: name ?? itip.organizer?.name)
        guard let calendar = itip.declineCounter(comment: comment, now: now) else {
            throw data("no DECLINECOUNTER could be made of it")
        }
        var text = wrapped("\(from.name ?? from.address) keeps the time of this event and declines the proposed one.")
        if let comment { text += "\n\n" + comment }
        var message = ReplyMessage(from: from, to: to, subject: "Proposal declined: \(title(invite.title))", date: now,
                                   messageID: ReplyMessage.messageID(domain: domain), inReplyTo: invite.mail?.messageID,
                                   text: text, calendar: calendar)
        message.method = "DECLINECOUNTER"
        let stamp = itip.versions.first?.stamp.map { $0.fields.basicDateTime } ?? ""
        return MailReply(message: message, version: ["DECLINECOUNTER", itip.uid, attendee, stamp].joined(separator: "|"))
    }

    /// The organizer's event as it now stands (`request`, a METHOD:REQUEST), to every
    /// attendee but the organizer; nil when it has no other attendee to tell.
    package static func update(uid: String, title: String, request: String, sequence: Int, attendees: [String],
                              me: [String], now: Date, domain: String, name: String? = nil) throws(Failure) -> MailReply? {
        let mine = Set(me.map(CalendarAddress.normalized))
        var seen = Set<String>()
        let recipients = attendees.filter { !mine.contains(CalendarAddress.normalized($0)) && seen.insert(CalendarAddress.normalized($0)).inserted }
            .compactMap { MailAddress(calendarAddress: $0) }
        guard let first = recipients.first else { return nil }
        let from = try sender(me, name: name)
        var message = ReplyMessage(from: from, to: first, subject: "Updated: \(Self.title(title))", date: now,
                                   messageID: ReplyMessage.messageID(domain: domain), inReplyTo: nil,
                                   text: wrapped("\(from.name ?? from.address) has moved this event to a new time."), calendar: request)
        message.method = "REQUEST"
        message.alsoTo = Array(recipients.dropFirst())
        return MailReply(message: message, version: ["REQUEST", uid, String(sequence)].joined(separator: "|"))
    }

    private static func sender(_ me: [String], name: String?) throws(Failure) -> MailAddress {
        guard let mine = me.first else { throw .usage("missing --me ADDRESS (your calendar address; or 'me' in the config)") }
        guard let from = MailAddress(calendarAddress: mine, name: name) else {
            throw .usage("--me '\(PrintableText.clean(mine, keepNewlines: false))' is not a mail address")
        }
        return from
    }

    private static func title(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? "(no title)" : trimmed
    }
}
