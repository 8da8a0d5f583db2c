import Foundation
import CoolcalInvite
import CoolcalMail
import CoolcalModel
import CoolcalSupport
import CoolcalWriting

/// Whom an e-mail's message speaks for (SECURITY.md, "Messages it obeys"). The one
/// identity of a mail is its From (RFC 6047 §3; DMARC authenticates nothing else): a
/// message about an event the calendar does not hold must come from the organizer it
/// names — a SENT-BY it writes about itself, a `Sender:` or `Reply-To:` vouch for no
/// one — and from someone `accept-from` admits; my own addresses are never a stranger's
/// to use. A bare file (a spool's `.ics`, `accept FILE`) has no From: its ORGANIZER
/// answers for it. `MergePass` asks these in the fixed order of held reasons.
struct SenderTrust {
    let settings: AnswerSettings
    /// Who `accept-from = known` admits, found when first asked.
    let known: KnownSenders

    /// The held outcome for a message failing DMARC at a trusted authserv; nil otherwise.
    func failedAuthentication(_ file: InvitationFile) -> WriteOutcome? {
        guard let mail = file.invite.mail,
              AuthenticationResults.dmarcFailed(mail.authenticationResults, trusted: settings.trustedAuthserv) else { return nil }
        let from = mail.from.flatMap(CalendarAddress.ofHeader) ?? "(no From)"
        return .held(.failedAuthentication, "your mail server says DMARC failed for \(from)")
    }

    /// The held outcome for an e-mail with no single From address that names an organizer
    /// or answers as an attendee: nobody vouches for it, whatever `accept-from` says. Only
    /// a From-less published event without ORGANIZER under `accept-from = anyone` (which
    /// checks no sender) goes on, to follow `allow-publish`.
    func noSender(_ file: InvitationFile) -> WriteOutcome? {
        guard let mail = file.invite.mail, mail.from.flatMap(CalendarAddress.ofHeader) == nil else { return nil }
        let invite = file.invite
        let publishedWithoutOrganizer = Self.organizer(of: file) == nil && (invite.method == nil || invite.method == "PUBLISH")
        if publishedWithoutOrganizer && settings.acceptFrom.contains(.anyone) { return nil }
        let detail = mail.from.map { "its From names no single address (\(PrintableText.clean($0, keepNewlines: false)))" }
            ?? "the mail has no From"
        return .held(.noSender, detail)
    }

    /// The held outcome for a message about an event the calendar does not hold (a new
    /// invitation, a cancellation, a counter-proposal) whose From is not the one it names,
    /// that comes from one of my own addresses, or from someone `accept-from` does not
    /// admit; nil when it may be answered by policy.
    func unstored(_ file: InvitationFile) -> WriteOutcome? {
        let organizer = Self.organizer(of: file)
        let who: String
        if let mail = file.invite.mail {
            let from = mail.from.flatMap(CalendarAddress.ofHeader)
            if let identity = identity(file, from: from) { return identity }
            if organizer == nil && file.invite.method == "REQUEST" { return .held(.unknownSender, "it names no organizer") }
            // A published event without an ORGANIZER: whoever mailed it answers for it
            // (none under `accept-from = anyone`, which asks nobody).
            guard let answering = organizer ?? from else { return nil }
            who = answering
        } else {
            // A file (a spool's .ics, `accept FILE`): the ORGANIZER it names, as before.
            guard let named = organizer else { return .held(.unknownSender, "it names no organizer") }
            who = named
        }
        return admitted(who)
    }

    /// The From rules of an e-mail about an event not stored: the From is the organizer
    /// (a forward is not — even one the user sends themselves), and not one of my own
    /// addresses (the commonest forgery: mail "from me" about "my" event). Nil for a file.
    func identity(_ file: InvitationFile) -> WriteOutcome? {
        guard let mail = file.invite.mail else { return nil }
        return identity(file, from: mail.from.flatMap(CalendarAddress.ofHeader))
    }

    private func identity(_ file: InvitationFile, from: String?) -> WriteOutcome? {
        let organizer = Self.organizer(of: file)
        let mine = Set(settings.me.map(CalendarAddress.normalized))
        if let organizer, from != organizer {
            return .held(.notFromOrganizer, "mailed by \(from ?? "no single From address"); the organizer is \(organizer)")
        }
        if let who = organizer ?? from, mine.contains(who) {
            return .held(.youOrganise, "\(who) is one of your addresses; an invitation to you does not come from you")
        }
        return nil
    }

    /// Whether `accept-from` admits `address` (normalized); the held outcome when not.
    func admitted(_ address: String) -> WriteOutcome? {
        let rules = settings.acceptFrom
        if rules.contains(where: { $0.admitsOutright(address) }) { return nil }
        if rules.contains(.known), known.contains(address) { return nil }
        return .held(.unknownSender, "\(address) is not among the senders you accept from (accept-from: "
                     + rules.map(\.description).joined(separator: ", ") + ")")
    }

    /// The ORGANIZER the message names: its series' (a component without one takes the
    /// series'), else the first component's that names one; normalized.
    static func organizer(of file: InvitationFile) -> String? {
        if let organizer = file.invite.organizer, !organizer.isEmpty { return organizer }
        return file.message?.versions.lazy.compactMap { $0.organizer.map(CalendarAddress.normalized) }.first { !$0.isEmpty }
    }
}
