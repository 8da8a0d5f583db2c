import Foundation
import CoolcalInvite
import CoolcalMail
import CoolcalModel
import CoolcalRSVP
import CoolcalState

/// What `reply --send` records with the mail it sends, in the same run and before the
/// mail is handed over (so a sendmail that fails leaves it queued or failed, never
/// recorded as sent).
package enum SentRecord {
    /// Nothing (a counter-proposal).
    case nothing
    /// The attendee's answer, queued for the server too when one is set; the mail is
    /// tied to it.
    case answer(Answer, Invite, comment: String?)
    /// The organizer's refusal of a counter-proposal (`--decline-counter`): recorded as
    /// declined on the inbox entry, never for the server.
    case refusal(InvitationSummary, comment: String?)
}

/// `reply --send`: the whole workflow in one call.
extension AnswerStore {
    /// Records `record`, queues `mail` (once per version) and empties the outbox at once,
    /// a reply waiting out its backoff included: how the mail stands then. The sendmail
    /// is checked before anything is written, so a missing one changes nothing.
    /// `.alreadyMailed`: this version was mailed before, not sent again; `.failed`: the
    /// sendmail failed for good (its error, else its command); `.queued`: still in the
    /// outbox (why).
    package func send(_ mail: MailReply, record: SentRecord = .nothing, inviteID: String,
                      lockTimeout: TimeInterval) throws -> MailFate {
        let sendmail = try sendmail()
        let store = try self.open()
        var responseKey: String?
        switch record {
        case .nothing: break
        case .answer(let answer, let invite, let comment):
            responseKey = try store.recordAnswer(answer, for: invite, comment: comment, at: settings.now, queueFor: try server()).key
        case .refusal(let summary, let comment):
            try store.recordAnswer(.declined, for: summary, comment: comment, at: settings.now, queueFor: nil)
        }
        let server = try server()
        let to = mail.message.to.address
        let key: String
        switch try queue(mail, responseKey: responseKey, inviteID: inviteID, store) {
        case .alreadySent: return .alreadyMailed(to: to)
        // Already waiting from an earlier run: this is the moment to try it again.
        case .queued(let queued), .alreadyQueued(let queued): key = queued
        }
        // Asked for now: a reply waiting out its backoff is tried at once.
        let summary = try drainer(store, server, sendmail: sendmail).drain(lockTimeout: lockTimeout, now: settings.now, backoff: false)
        guard let entry = try store.outbox.entries().first(where: { $0.key == key }) else { return .mailed(to: to) }
        if entry.state == .failed { return .failed(to: to, reason: entry.lastError ?? sendmail.shown) }
        let why = entry.lastError ?? summary.mailStopReason ?? (summary.skipped ? "another coolcal is delivering" : "not delivered")
        return .queued(to: to, reason: why)
    }
}
