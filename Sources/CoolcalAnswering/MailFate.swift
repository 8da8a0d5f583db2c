import Foundation
import CoolcalMail
import CoolcalRSVP
import CoolcalState

/// How a REPLY mailed with an answer (`accept|decline|comment --reply`) stands after the
/// drain that followed it: what `AnswerText` says under the answer's line. `to`: the
/// address it goes to (the organizer's).
package enum MailFate: Equatable, Sendable {
    /// Handed to the sendmail now.
    case mailed(to: String)
    /// This version was handed to a sendmail before: not mailed again.
    case alreadyMailed(to: String)
    /// Still in the outbox (the sendmail failed for now, or another coolcal is
    /// delivering); `outbox flush` or a later run retries it.
    case queued(to: String, reason: String)
    /// The sendmail failed for good: kept as failed, never retried by itself.
    case failed(to: String, reason: String)

    /// Reads where `mail`, queued as `queueing` said, stands in `store` after the drain
    /// `summary` tells of (nil: none ran).
    package static func of(_ mail: MailReply, _ queueing: MailQueueing, _ store: StateStore,
                           _ summary: OutboxDrainer.Summary?) throws -> MailFate {
        let to = mail.message.to.address
        let key: String
        switch queueing {
        case .alreadySent: return .alreadyMailed(to: to)
        case .queued(let queued), .alreadyQueued(let queued): key = queued
        }
        if try store.mailReplies.sent(version: mail.version) { return .mailed(to: to) }
        let entry = try store.outbox.entries().first { $0.key == key }
        if let entry, entry.state == .failed { return .failed(to: to, reason: entry.lastError ?? "failed") }
        // Why this drain stopped (its failure, or an earlier mail's, which leaves the
        // rest for later), else why it did not run, else its own last failure.
        let reason = summary?.mailStopReason ?? (summary?.skipped == true ? "another coolcal is delivering" : nil)
            ?? entry?.lastError ?? "not tried yet"
        return .queued(to: to, reason: reason)
    }
}
