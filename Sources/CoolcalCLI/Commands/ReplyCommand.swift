import Foundation
import CoolcalAnswering
import CoolcalInvite
import CoolcalModel
import CoolcalState

/// `coolcal reply --me ADDRESS --accept|--decline|--tentative [--comment TEXT] INVITE`:
/// prints the attendee's `METHOD:REPLY` for an iCalendar invitation; writes nothing.
package struct ReplyCommand: CommandUnit, Equatable {
    package static let accept = Flag("accept", help: "answer that you attend (PARTSTAT=ACCEPTED)")
    package static let decline = Flag("decline", help: "answer that you do not attend (PARTSTAT=DECLINED)")
    package static let tentative = Flag("tentative", help: "answer that you may attend (PARTSTAT=TENTATIVE)")
    package static let comment = Option<String>("comment", value: "TEXT", completion: .none, help: "a note for the organizer (COMMENT)")
    package static let me = Option<String>("me", value: "ADDRESS", repeatable: true, completion: .none, help: "the attendee you answer as (default: config me)")
    package static let mail = Flag("mail", help: "print a complete e-mail for 'sendmail -t' (iMIP, RFC 6047: text and text/calendar; method=REPLY) to the organizer")
    package static let send = Flag("send", help: "mail it now through the configured sendmail (implies --mail); prints nothing, records the answer")

    package static let spec = CommandSpec(
        name: "reply",
        usage: "coolcal reply --me ADDRESS --accept|--decline|--tentative [options] INVITE",
        summary: "print an iTIP answer (METHOD:REPLY) to an iCalendar invitation, ready to mail",
        options: [accept.spec, decline.spec, tentative.spec, comment.spec, me.spec, mail.spec, send.spec,
                  SharedOptions.state.spec, SharedOptions.server.spec],
        examples: [
            "coolcal reply --me me@example.com --accept invite.ics > reply.ics",
            "coolcal reply --me me@example.com --decline --comment 'On holiday' invite.ics",
            "coolcal reply --me me@example.com --accept --mail invite.ics | /usr/sbin/sendmail -t -oi",
            "coolcal reply --me me@example.com --tentative --send invite.ics",
        ])

    package var common: CommonOptions
    package var invite: String
    /// ACCEPTED, DECLINED or TENTATIVE.
    package var partstat: String
    package var comment: String?
    /// `--mail`: the whole e-mail; `--send`: mail it (implies `mail`).
    package var mail = false
    package var send = false

    package init(_ p: ParsedArguments) throws {
        let answers = [(Self.accept, "ACCEPTED"), (Self.decline, "DECLINED"), (Self.tentative, "TENTATIVE")].filter { p.has($0.0) }
        guard answers.count == 1 else {
            throw p.usage(answers.isEmpty ? "missing the answer: --accept, --decline or --tentative"
                                          : "give one answer, not --\(answers.map(\.0.spec.long).joined(separator: " and --"))")
        }
        guard p.operands.count == 1 else {
            throw p.usage(p.operands.isEmpty ? "missing an invitation" : "reply takes one invitation")
        }
        invite = p.operands[0]
        partstat = answers[0].1
        comment = try p.value(Self.comment)
        if let comment, comment.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw p.usage("the comment is empty")
        }
        send = p.has(Self.send)
        mail = send || p.has(Self.mail)
        common = try CommonOptions(p)
    }

    package func run(_ context: RunContext) throws -> ExitStatus {
        let settings = try context.settings
        guard !settings.me.isEmpty else {
            throw UsageError("missing --me ADDRESS (the attendee you answer as; or 'me' in the config)", command: "reply")
        }
        let file = try InviteOperand.open(invite, context)
        let invite = file.invite
        guard let message = file.message else {
            throw InviteError(file: invite.source, message: "is a push payload; a REPLY answers an iCalendar invitation (use 'coolcal accept' or 'coolcal decline')")
        }
        guard !invite.isCancellation else {
            throw InviteError(file: invite.source, message: "is a cancellation (METHOD:CANCEL); there is nothing to answer")
        }
        if mail { return try mailed(file, settings, context) }
        guard let text = message.reply(me: settings.me, partstat: partstat, comment: comment, now: settings.now) else {
            let listed = message.attendees.map { PrintableText.clean($0, keepNewlines: false) }
            let who = listed.isEmpty ? "it lists no attendees" : "attendees: " + listed.joined(separator: ", ")
            throw InviteError(file: invite.source, message: "\(settings.me.joined(separator: ", ")) is not an attendee of this invitation (\(who))")
        }
        context.out.write(text)
        return .ok
    }

    /// `--mail` prints the message; `--send` hands it to the sendmail, recording the
    /// answer (and its mail) first so that a sendmail that fails leaves it queued (75)
    /// or failed, never recorded as sent.
    private func mailed(_ file: InvitationFile, _ settings: Settings, _ context: RunContext) throws -> ExitStatus {
        let reply = try AnswerStore.build(file, partstat: partstat, comment: comment, settings: settings.answering(command: "reply"))
        guard send else {
            context.out.write(reply.message.rendered())
            return .ok
        }
        let answers = try context.answers
        let sendmail = try answers.sendmail()
        let server = try answers.server()
        let store = try answers.open()
        let answer: Answer? = ["ACCEPTED": .accepted, "DECLINED": .declined, "TENTATIVE": .tentative][partstat]
        let recorded = try answer.map { try store.recordAnswer($0, for: file.invite, comment: comment, at: settings.now, queueFor: server) }
        let key: String
        switch try answers.queue(reply, responseKey: recorded?.key, inviteID: file.invite.id.text, store) {
        case .alreadySent:
            context.diagnostics.warn("\(file.invite.source): this answer was mailed already; not sent again")
            return .ok
        case .queued(let queued), .alreadyQueued(let queued):
            // Already waiting from an earlier run: this is the moment to try it again.
            key = queued
        }
        let summary = try answers.drainer(store, server, sendmail: sendmail).drain(lockTimeout: settings.lockTimeout)
        guard let entry = try store.outbox().first(where: { $0.key == key }) else { return .ok }
        if entry.state == .failed {
            throw MailSendError(message: "\(entry.lastError ?? sendmail.shown); not sent (see 'coolcal outbox')")
        }
        let why = entry.lastError ?? (summary.skipped ? "another coolcal is delivering" : "not delivered")
        throw ServerError(message: "\(why); the answer is queued, 'coolcal outbox flush' retries", denied: false)
    }
}

/// A sendmail that failed for good (not 75): the mail is kept as failed (74).
package struct MailSendError: StatusError, CustomStringConvertible, Equatable {
    package var message: String
    package var description: String { message }
    /// 74: the sendmail failed for good (not its 75); the mail is kept as failed.
    package var exitStatus: ExitStatus { .ioError }
}
