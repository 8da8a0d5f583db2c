import Foundation
import CoolcalInvite
import CoolcalMail
import CoolcalModel
import CoolcalRSVP
import CoolcalState

/// Answers by mail (`reply --send`, `accept|decline|merge --reply`): the configured
/// sendmail, the REPLY message for an invitation, and queueing it once per version.
extension AnswerStore {
    /// `COOLCAL_SENDMAIL`, config `sendmail`, else `/usr/sbin/sendmail -t -oi`; a
    /// command that is missing or not executable is a configuration error (78).
    package func sendmail() throws -> Sendmail {
        do {
            return try Sendmail(command: sendmailSetting.command ?? Sendmail.defaultCommand, environment: environment)
        } catch {
            throw ConfigError(message: "\(error)\(sendmailSetting.origin)")
        }
    }

    /// The REPLY mail for `--reply`: nil, with a warning, when the invitation has no
    /// organizer to mail (a push payload); the sendmail is checked here, before anything
    /// is written, so a missing one changes nothing.
    package func mailReply(for file: InvitationFile, partstat: String, comment: String? = nil,
                           commentOnly: Bool = false) throws -> MailReply? {
        guard MailReply.hasOrganizer(file) else {
            diagnostics.warn("\(file.invite.source): --reply: no organizer to mail the answer to (not an iTIP invitation); not mailed")
            return nil
        }
        _ = try sendmail()
        return try Self.build(file, partstat: partstat, comment: comment, settings: settings, commentOnly: commentOnly)
    }

    /// The REPLY mail, its failures as the CLI's errors (64 for `--me`, 65 for the invitation).
    /// `commentOnly`: `comment --reply`'s, with the answer as it stands.
    package static func build(_ file: InvitationFile, partstat: String, comment: String?, settings: AnswerSettings,
                              commentOnly: Bool = false) throws -> MailReply {
        try mail(command: settings.command) { () throws(MailReply.Failure) in
            try MailReply(file, me: settings.me, partstat: partstat, comment: comment, now: settings.now, domain: settings.domain,
                          name: settings.name, commentOnly: commentOnly)
        }
    }

    /// A mail `make` builds, its failures as the CLI's errors: 64 for `--me` (naming
    /// `command`), 65 for the message it answers.
    package static func mail<T>(command: String?, _ make: () throws(MailReply.Failure) -> T) throws -> T {
        do {
            return try make()
        } catch {
            switch error {
            case .usage(let message): throw UsageError(message, command: command)
            case .data(let inviteError): throw inviteError
            }
        }
    }

    /// Queues the mail unless this version was mailed already.
    @discardableResult
    package func queue(_ mail: MailReply, responseKey: String?, inviteID: String, _ store: StateStore) throws -> MailQueueing {
        let done = try store.mailReplies.queue(version: mail.version, responseKey: responseKey, inviteID: inviteID,
                                            message: mail.message.rendered(), at: settings.now)
        switch done {
        case .queued(let key): diagnostics.note("\(store.databasePath): mail reply queued (\(key))")
        case .alreadyQueued(let key): diagnostics.note("\(store.databasePath): mail reply already queued (\(key))")
        case .alreadySent: diagnostics.note("\(inviteID): this answer was mailed already; not mailed again")
        }
        return done
    }

    /// What a drain left of the mail replies, on stderr.
    /// `queued`: also warn about replies still queued (not with `merge -q`).
    package func warnAboutMail(_ summary: OutboxDrainer.Summary, queued: Bool = true) {
        if summary.mailed > 0 { diagnostics.note("outbox: \(summary.mailed) mail repl\(summary.mailed == 1 ? "y" : "ies") sent") }
        if summary.mailQueued > 0 && queued {
            let why = summary.mailStopReason.map { " (\($0))" } ?? (summary.skipped ? " (another coolcal is delivering)" : "")
            diagnostics.warn("\(summary.mailQueued) mail repl\(summary.mailQueued == 1 ? "y" : "ies") queued\(why); 'coolcal outbox flush' retries")
        }
        warnAboutResent(summary)
        if summary.mailFailed > 0 {
            diagnostics.warn("\(summary.mailFailed) mail repl\(summary.mailFailed == 1 ? "y" : "ies") failed and will not be retried by itself; "
                             + "'coolcal outbox' says why, 'coolcal outbox retry' queues it again")
        }
    }

    /// Mail replies a crash had left `sending`, sent again by this drain.
    package func warnAboutResent(_ summary: OutboxDrainer.Summary) {
        guard summary.mailResent > 0 else { return }
        diagnostics.warn("\(summary.mailResent) mail repl\(summary.mailResent == 1 ? "y was" : "ies were") sent again: "
                         + "an earlier delivery was interrupted (the same Message-ID, so the receiver can drop a copy)")
    }
}
