import Foundation
import CoolcalInvite
import CoolcalMail
import CoolcalModel

/// The answer to an iTIP invitation as an iMIP message (RFC 6047) for its organizer:
/// the REPLY coolcal builds with libical, wrapped by Mail/ into a whole e-mail.
package struct MailReply: Equatable, Sendable {
    /// The message, ready for `sendmail -t`.
    package let message: ReplyMessage
    /// What makes the answer unique: UID, SEQUENCE, RECURRENCE-IDs and PARTSTAT; a
    /// version is mailed once.
    package let version: String

    /// Why no message could be built.
    package enum Failure: StatusError, CustomStringConvertible, Equatable {
        /// The addresses given (`--me`) cannot be used.
        case usage(String)
        /// The invitation cannot be answered by mail (names the file).
        case data(InviteError)

        package var description: String {
            switch self {
            case .usage(let message): return message
            case .data(let error): return error.description
            }
        }

        /// 74 for both; `AnswerStore.build` says them as a `UsageError` (64) or the
        /// `InviteError` (65).
        package var exitStatus: ExitStatus {
            switch self {
            case .usage: return .ioError
            case .data: return .ioError
            }
        }
    }

    /// Whether the invitation can be answered by mail at all: an iTIP message with an ORGANIZER.
    package static func hasOrganizer(_ file: InvitationFile) -> Bool {
        file.message?.organizer != nil
    }

    /// The answer `partstat` (ACCEPTED, DECLINED, TENTATIVE) of the first of `me` that
    /// is an attendee, from the first `me` address (with that attendee's CN) to the
    /// organizer; `In-Reply-To` the invitation's e-mail when it came as one.
    /// - Parameter name: the user's display name (config `name`): the From's name and the
    ///   CN of their ATTENDEE line; nil keeps the CN the invitation gave them.
    /// - Parameter commentOnly: `comment --reply`: the REPLY carries the comment and the
    ///   answer as it stands (`partstat`, NEEDS-ACTION when unanswered), subject
    ///   `Comment: TITLE`; its version includes the text, so each comment is mailed once.
    package init(_ file: InvitationFile, me: [String], partstat: String, comment: String?, now: Date,
                domain: String, name: String? = nil, commentOnly: Bool = false) throws(Failure) {
        let invite = file.invite
        func data(_ message: String) -> Failure { .data(InviteError(file: invite.source, message: message)) }
        guard let itip = file.message else {
            throw data("is a push payload; a REPLY answers an iCalendar invitation")
        }
        guard let organizer = itip.organizer else { throw data("has no ORGANIZER to send the answer to") }
        guard let to = MailAddress(calendarAddress: organizer.address, name: organizer.name) else {
            throw data("ORGANIZER '\(PrintableText.clean(organizer.address, keepNewlines: false))' is not a mail address")
        }
        guard let mine = me.first else { throw .usage("missing --me ADDRESS (the attendee you answer as; or 'me' in the config)") }
        let attendee = itip.attendee(me: me)
        guard let from = MailAddress(calendarAddress: mine, name: name ?? attendee?.name) else {
            throw .usage("--me '\(PrintableText.clean(mine, keepNewlines: false))' is not a mail address")
        }
        guard let calendar = itip.reply(me: me, partstat: partstat, comment: comment, now: now, name: name) else {
            let listed = itip.attendees.map { PrintableText.clean($0, keepNewlines: false) }
            let who = listed.isEmpty ? "it lists no attendees" : "attendees: " + listed.joined(separator: ", ")
            throw data("\(me.joined(separator: ", ")) is not an attendee of this invitation (\(who))")
        }
        let (word, sentence) = commentOnly ? ("Comment", Self.standing(partstat)) : Self.words(partstat)
        let who = from.name ?? from.address
        var text = Self.wrapped(commentOnly ? "\(who) \(sentence) this invitation, and comments:"
                                            : "\(who) has \(sentence) this invitation.")
        if let comment { text += "\n\n" + comment }
        let title = invite.title.trimmingCharacters(in: .whitespacesAndNewlines)
        message = ReplyMessage(from: from, to: to, subject: "\(word): \(title.isEmpty ? "(no title)" : title)", date: now,
                               messageID: ReplyMessage.messageID(domain: domain), inReplyTo: invite.mail?.messageID,
                               text: text, calendar: calendar)
        let v = itip.version
        version = ([itip.uid, String(v.sequence), v.recurrenceIDs.joined(separator: ","), partstat]
                   + (commentOnly ? ["comment:" + (comment ?? "")] : [])).joined(separator: "|")
    }

    /// One of coolcal's own sentences for a text part, wrapped at spaces so that no line
    /// is longer than `width` characters (RFC 5322 §2.1.1 asks for 78 at most); a word
    /// longer than that stands on a line of its own. The user's words (a comment) are
    /// never wrapped: a long line of theirs goes out quoted-printable instead.
    package static func wrapped(_ sentence: String, width: Int = 76) -> String {
        var lines: [String] = []
        var line = ""
        for word in sentence.split(separator: " ", omittingEmptySubsequences: true) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }

    /// How a comment's text part says where the answer stands.
    package static func standing(_ partstat: String) -> String {
        switch partstat {
        case "ACCEPTED": return "has accepted"
        case "DECLINED": return "has declined"
        case "TENTATIVE": return "has tentatively accepted"
        default: return "has not answered"
        }
    }

    /// The subject's word and the text part's verb for a PARTSTAT.
    package static func words(_ partstat: String) -> (String, String) {
        switch partstat {
        case "DECLINED": return ("Declined", "declined")
        case "TENTATIVE": return ("Tentative", "tentatively accepted")
        default: return ("Accepted", "accepted")
        }
    }
}
