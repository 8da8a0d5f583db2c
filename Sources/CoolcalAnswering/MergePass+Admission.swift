import Foundation
import CoolcalInvite
import CoolcalModel
import CoolcalWriting

/// What `merge` holds for the person before any policy looks at a message, in one fixed
/// order, the first that applies wins: failed authentication, no sender, not addressed
/// to you, published, not from the organizer, you organise this event, unknown sender,
/// too long, too many instances a day. Whom a mail speaks for is `SenderTrust`'s;
/// updates and cancellations of stored events answer to organizer binding instead
/// (`ITIPChange.binding`, where only the stored copy's SENT-BY counts).
extension MergePass {
    /// The sender rules, on this run's settings and known senders.
    var trust: SenderTrust { SenderTrust(settings: run.store.settings, known: known) }

    /// Why a new invitation or update is held for the person before any policy looks at
    /// it, first reason first; nil when the policy may answer it.
    func held(_ file: InvitationFile) -> WriteOutcome? {
        let settings = run.store.settings
        if let failed = trust.failedAuthentication(file) ?? trust.noSender(file) { return failed }
        let published = file.message != nil && (file.invite.method == nil || file.invite.method == "PUBLISH")
        if !published, let message = file.message, message.attendee(me: settings.me) == nil {
            // An invitation that does not name me is not mine to answer (a published event
            // names nobody: that is what allow-publish allows).
            return .held(.notAddressedToYou, "\(settings.me.joined(separator: ", ")) not among its attendees")
        }
        if published && !settings.allowPublish {
            // A booking confirmation, a meetup's event: no one asked me, so no one decides but me.
            return .held(.published, "METHOD:\(file.invite.method ?? "(none)"); 'allow-publish = yes' in the config adds such events")
        }
        return admission(file) ?? outsized(file.invite)
    }

    /// The sender rules for a message about an event the calendar written to does not
    /// hold; nil when it is stored (binding's to judge) or may be answered by policy.
    func admission(_ file: InvitationFile) -> WriteOutcome? {
        guard let message = file.message, !homes.stores(uid: message.uid) else { return nil }
        return trust.unstored(file)
    }
}
