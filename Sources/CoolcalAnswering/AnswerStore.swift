import Foundation
import CoolcalInvite
import CoolcalMail
import CoolcalModel
import CoolcalRSVP
import CoolcalState

/// The state, the inviting server and the outbox of a run, and what every answering
/// workflow does with them: record the answer (and queue it when there is a server) in
/// one transaction, queue the mail reply, then try to empty the outbox.
package struct AnswerStore {
    package let settings: AnswerSettings
    /// `--state`, `COOLCAL_STATE`, `$XDG_DATA_HOME/coolcal`, `~/.local/share/coolcal`.
    package let stateDirectory: String
    /// `--server`, `COOLCAL_SERVER`, config `server`, as given; checked by `server()`.
    package let serverSetting: String?
    /// The sendmail command (`COOLCAL_SENDMAIL`, config `sendmail`; nil: the default)
    /// and where it came from, as an error about it says (` (from COOLCAL_SENDMAIL)`).
    package let sendmailSetting: (command: String?, origin: String)

    package init(settings: AnswerSettings, stateDirectory: String, serverSetting: String?,
                 sendmailSetting: (command: String?, origin: String)) {
        self.settings = settings
        self.stateDirectory = stateDirectory
        self.serverSetting = serverSetting
        self.sendmailSetting = sendmailSetting
    }

    package var diagnostics: Diagnostics { settings.diagnostics }
    package var environment: [String: String] { settings.environment }

    /// The inviting server; nil when none is set.
    package func server() throws -> URL? {
        guard let raw = serverSetting else { return nil }
        guard let url = URL(string: raw), RSVPClient.isUsableServer(url) else {
            throw UsageError("server '\(CalendarLocation.redact(raw, marker: "***"))' is not an http:// or https:// URL", command: settings.command)
        }
        return url
    }

    /// True once the state exists (reading it must never create it).
    package var hasState: Bool { FileManager.default.fileExists(atPath: stateDirectory + "/" + StateStore.fileName) }

    package func open() throws -> StateStore {
        try StateStore(directory: stateDirectory)
    }

    /// Records the answer and tries to deliver the outbox; a server that is down
    /// leaves it queued, which is not a failure.
    /// `mail`: the REPLY to mail as well (`--reply`), queued with the answer;
    /// `mailed` hears how it stands once the outbox was delivered.
    @discardableResult
    package func record(_ answer: Answer, for invite: Invite, comment: String? = nil, mail: MailReply? = nil,
                        mailed: (MailFate) -> Void = { _ in }) throws -> RecordedAnswer {
        let store = try self.open()
        let server = try server()
        let recorded = try store.recordAnswer(answer, for: invite, comment: comment, at: settings.now, queueFor: server)
        diagnostics.note("\(store.databasePath): recorded \(answer.method) for \(invite.id.text)"
                         + (server.map { ", queued for \(RSVPClient.redacted($0))" } ?? " (no server configured)"))
        let queueing = try mail.map { try queue($0, responseKey: recorded.key, inviteID: invite.id.text, store) }
        let summary = try deliver(store)
        // Only read to be said: a state that cannot say it leaves the answer as given.
        if let mail, let queueing, let fate = try? MailFate.of(mail, queueing, store, summary) { mailed(fate) }
        return recorded
    }

    /// A drainer whose per-request timeout is `COOLCAL_SERVER_TIMEOUT` seconds (default 5):
    /// a stalled server must not hang cron.
    package func drainer(_ store: StateStore, _ server: URL?, sendmail: Sendmail? = nil) -> OutboxDrainer {
        let timeout = settings.serverTimeout
        let client = server.map { RSVPClient(server: $0, requestTimeout: timeout, resourceTimeout: timeout * 3) }
        return OutboxDrainer(store: store, client: client, sendmail: sendmail)
    }

    /// Tries to empty the outbox without waiting for another coolcal that is at it:
    /// server answers when a server is configured, mail replies through the sendmail.
    /// `patience` (`merge -q`): answers still queued are told only once the oldest has
    /// waited that long, so that cron mails when a person is needed, not every run.
    /// Returns what the drain did; nil when there was nothing to deliver.
    @discardableResult
    package func deliver(_ store: StateStore, patience: TimeInterval? = nil) throws -> OutboxDrainer.Summary? {
        let server = try server()
        let mailWaiting = try store.outbox.entries().contains { $0.channel == .mail && $0.state != .failed }
        guard server != nil || mailWaiting else { return nil }
        var sendmail: Sendmail?
        if mailWaiting {
            do { sendmail = try self.sendmail() } catch { diagnostics.warn("\(error); mail replies stay queued") }
        }
        let summary = try drainer(store, server, sendmail: sendmail).drain(lockTimeout: 0, now: settings.now)
        if let patience { try warnAboutWaiting(store, longerThan: patience) }
        warnAboutMail(summary, queued: patience == nil)
        if let sendmail, Sendmail.outputGrace.cut > 0 {
            diagnostics.note("\(sendmail.shown): \(Sendmail.outputGrace.cut) of its runs left a process holding its output; "
                             + String(format: "waited %.1f s for it in all (at most 2 s a run)", Sendmail.outputGrace.waited))
        }
        guard let server else { return summary }
        diagnostics.note("outbox: \(summary.delivered) delivered, \(summary.failed) refused, \(summary.queued) still queued"
                         + (summary.skipped ? " (another coolcal is delivering)" : ""))
        if summary.queued > 0 && patience == nil {
            let why = summary.stopReason.map { " (\($0))" } ?? ""
            diagnostics.warn("\(summary.queued) answer\(summary.queued == 1 ? "" : "s") queued for \(RSVPClient.redacted(server))\(why); 'coolcal outbox flush' retries")
        }
        if summary.failed > 0 {
            diagnostics.warn("\(summary.failed) answer\(summary.failed == 1 ? " was" : "s were") refused by the server; see 'coolcal outbox'")
        }
        return summary
    }

    /// One warning for the answers (to the server or by mail) queued longer than `age`.
    private func warnAboutWaiting(_ store: StateStore, longerThan age: TimeInterval) throws {
        let waiting = try store.outbox.entries().filter { $0.state != .failed && settings.now.timeIntervalSince($0.createdAt) > age }
        guard let oldest = waiting.min(by: { $0.createdAt < $1.createdAt }) else { return }
        let since = settings.showTime(Int64(oldest.createdAt.timeIntervalSince1970))
        let last = oldest.lastError.map { "; last: \($0)" } ?? ""
        diagnostics.warn("\(waiting.count) answer\(waiting.count == 1 ? " has" : "s have") waited in the outbox for more than "
                         + "\(Int(age / 3600)) hours (the oldest since \(since)\(last)); 'coolcal outbox' lists them")
    }
}
