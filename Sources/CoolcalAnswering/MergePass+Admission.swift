import Foundation
import CoolcalInvite
import CoolcalMail
import CoolcalModel
import CoolcalWriting

/// Whom `merge` obeys without asking (SECURITY.md, "Messages it obeys"): a message the
/// user's own mail server says failed DMARC is held, whatever it is; a new invitation
/// (no stored copy in the calendar written to) must come from its organizer and from
/// someone `accept-from` admits. Updates and cancellations of stored events answer to
/// organizer binding instead (`ITIPChange.binding`).
extension MergePass {
    /// Why a new invitation or update is held for the person before any policy looks at
    /// it, first reason first; nil when the policy may answer it.
    func held(_ file: InvitationFile) -> WriteOutcome? {
        let settings = run.store.settings
        if let failed = failedAuthentication(file) { return failed }
        let published = file.message != nil && (file.invite.method == nil || file.invite.method == "PUBLISH")
        if published && !settings.allowPublish {
            // A booking confirmation, a meetup's event: no one asked me, so no one decides but me.
            return .held(.published, "METHOD:\(file.invite.method ?? "(none)"); 'allow-publish = yes' in the config adds such events")
        }
        if !published, let message = file.message, message.attendee(me: settings.me) == nil {
            // An invitation that does not name me is not mine to answer (a published event
            // names nobody: that is what allow-publish allows).
            return .held(.notAddressedToYou, "\(settings.me.joined(separator: ", ")) not among its attendees")
        }
        return admission(file) ?? outsized(file.invite)
    }

    /// The held outcome for a message failing DMARC at a trusted authserv; nil otherwise.
    func failedAuthentication(_ file: InvitationFile) -> WriteOutcome? {
        let settings = run.store.settings
        guard let mail = file.invite.mail,
              AuthenticationResults.dmarcFailed(mail.authenticationResults, trusted: settings.trustedAuthserv) else { return nil }
        let from = mail.from.flatMap(CalendarAddress.ofHeader) ?? "(no From)"
        return .held(.failedAuthentication, "your mail server says DMARC failed for \(from)")
    }

    /// The held outcome for a new iTIP invitation that is forwarded or from someone
    /// `accept-from` does not admit; nil when it may be answered by policy.
    func admission(_ file: InvitationFile) -> WriteOutcome? {
        guard let message = file.message, batch?.stores(uid: message.uid) != true else { return nil }
        let settings = run.store.settings
        let mail = file.invite.mail
        let from = mail?.from.flatMap(CalendarAddress.ofHeader)
        // Who answers for it: its organizer; a published event without one, whoever mailed it.
        guard let organizer = file.invite.organizer ?? (file.invite.method == "REQUEST" ? nil : from) else {
            return .held(.unknownSender, "it names no organizer")
        }
        if let mail, file.invite.organizer != nil, from == nil || (from != organizer
            && mail.sender.flatMap(CalendarAddress.ofHeader) != organizer
            && message.organizer?.sentBy.map(CalendarAddress.normalized) != from) {
            // A forward, unless a delegate sends for the organizer (the ORGANIZER's SENT-BY);
            // a mail with no single From address vouches for nobody.
            return .held(.notFromOrganizer, "mailed by \(from ?? "no single From address"); the organizer is \(organizer)")
        }
        let rules = settings.acceptFrom
        if rules.contains(where: { $0.admitsOutright(organizer) }) { return nil }
        if rules.contains(.known), known.contains(organizer) { return nil }
        return .held(.unknownSender, "\(organizer) is not among the senders you accept from (accept-from: "
                     + rules.map(\.description).joined(separator: ", ") + ")")
    }
}
