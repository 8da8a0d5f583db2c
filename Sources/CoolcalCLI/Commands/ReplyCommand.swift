import Foundation
import CoolcalAnswering
import CoolcalInvite
import CoolcalModel
import CoolcalOutput
import CoolcalRSVP
import CoolcalSchedule
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
    package static let send = Flag("send", help: "mail it now through the configured sendmail (implies --mail); prints 'mailed to ORGANIZER', records the answer")
    package static let counter = Flag("counter", help: "propose a new time to the organizer (METHOD:COUNTER): the first free slot of the same length in CAL..., or --at")
    package static let at = Option<ProposedTime>("at", value: "TIME", completion: .none, help: "--counter: propose this start (2031-03-04T15:00 in --tz, with an offset, or a date)")
    package static let declineCounter = Flag("decline-counter", help: "decline an attendee's counter-proposal from the inbox (METHOD:DECLINECOUNTER, to that attendee only)")
    package static let weekends = Flag("weekends", help: "--counter: let the free slot fall on a Saturday or Sunday")

    package static let spec = CommandSpec(
        name: "reply",
        usage: "coolcal reply --accept|--decline|--tentative|--counter|--decline-counter [options] INVITE [CAL...]",
        summary: "print an iTIP answer (REPLY, COUNTER or DECLINECOUNTER) to an iCalendar invitation, ready to mail",
        options: [accept.spec, decline.spec, tentative.spec, counter.spec, at.spec, declineCounter.spec, comment.spec, me.spec,
                  mail.spec, send.spec, SharedOptions.buffer.spec, ConflictsCommand.hours.spec, weekends.spec, SharedOptions.tz.spec,
                  SharedOptions.state.spec, SharedOptions.server.spec],
        examples: [
            "coolcal reply --me me@example.com --accept invite.ics > reply.ics",
            "coolcal reply --me me@example.com --decline --comment 'On holiday' invite.ics",
            "coolcal reply --me me@example.com --accept --mail invite.ics | /usr/sbin/sendmail -t -oi",
            "coolcal reply --me me@example.com --tentative --send invite.ics",
            "coolcal reply --counter --send 3 ~/calendars/work.ics",
            "coolcal reply --counter --at 2031-03-04T15:00 --comment 'After lunch?' --mail invite.ics",
            "coolcal reply --decline-counter --send 7",
        ])

    package var common: CommonOptions
    package var invite: String
    /// ACCEPTED, DECLINED or TENTATIVE; COUNTER or DECLINECOUNTER for the counter-proposal's messages.
    package var partstat: String
    package var comment: String?
    /// `--mail`: the whole e-mail; `--send`: mail it (implies `mail`).
    package var mail = false
    package var send = false
    /// `--counter`: the calendars whose free time is proposed (none: the config's), and how.
    package var calendars: [String] = []
    package var at: ProposedTime?
    package var buffer: Buffer?
    package var hours: WorkingHours?
    package var weekends = false

    package init(_ p: ParsedArguments) throws {
        let answers = [(Self.accept, "ACCEPTED"), (Self.decline, "DECLINED"), (Self.tentative, "TENTATIVE"),
                       (Self.counter, "COUNTER"), (Self.declineCounter, "DECLINECOUNTER")].filter { p.has($0.0) }
        guard answers.count == 1 else {
            throw p.usage(answers.isEmpty ? "missing the answer: --accept, --decline, --tentative, --counter or --decline-counter"
                                          : "give one answer, not --\(answers.map(\.0.spec.long).joined(separator: " and --"))")
        }
        partstat = answers[0].1
        guard let first = p.operands.first else { throw p.usage("missing an invitation") }
        guard p.operands.count == 1 || partstat == "COUNTER" else {
            throw p.usage("reply takes one invitation (calendars only with --counter)")
        }
        invite = first
        calendars = Array(p.operands.dropFirst())
        try p.refuseStdin(p.operands.dropFirst(), "only the invitation can be read from standard input")
        comment = try p.value(Self.comment)
        if let comment, comment.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw p.usage("the comment is empty")
        }
        at = try p.value(Self.at)
        buffer = try p.value(SharedOptions.buffer)
        hours = try p.value(ConflictsCommand.hours)
        weekends = p.has(Self.weekends)
        if partstat != "COUNTER", let stray = [(at != nil, "at"), (buffer != nil, "buffer"), (hours != nil, "hours"), (weekends, "weekends")]
            .first(where: \.0) {
            throw p.usage("--\(stray.1) goes with --counter")
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
        // Found pending in a calendar (issue 49): answered in place, in the config's calendars;
        // `--send` mails the answer too.
        if let kind = ["ACCEPTED": AnswerKind.accept, "DECLINED": .decline, "TENTATIVE": .tentative][partstat],
           let found = try InviteOperand.foundInCalendar(invite, context) {
            if mail && !send {
                throw UsageError("inbox \(found.number) was found in calendar \(found.foundIn ?? ""): it is answered in place, "
                                 + "not printed (--send mails the answer too)", command: "reply")
            }
            return try AnswerCommand.answerFound(kind, entry: found, calendars: [], reply: send ? .always : .config, comment: comment,
                                                 context: context)
        }
        let file = try InviteOperand.open(invite, context)
        if partstat == "COUNTER" { return try proposeCounter(file, settings, context) }
        if partstat == "DECLINECOUNTER" { return try declineCounter(file, settings, context) }
        if file.invite.isCounter {
            throw UsageError("\(file.invite.source) is a counter-proposal; answer it with --decline-counter (or 'coolcal accept N' to take it)", command: "reply")
        }
        let invite = file.invite
        guard let message = file.message else {
            throw InviteError(file: invite.source, message: "is a push payload; a REPLY answers an iCalendar invitation (use 'coolcal accept' or 'coolcal decline')")
        }
        guard !invite.isCancellation else {
            throw InviteError(file: invite.source, message: "is a cancellation (METHOD:CANCEL); there is nothing to answer")
        }
        if mail { return try mailed(file, settings, context) }
        guard let text = message.reply(me: settings.me, partstat: partstat, comment: comment, now: settings.now, name: settings.config.name) else {
            let listed = message.attendees.map { PrintableText.clean($0, keepNewlines: false) }
            let who = listed.isEmpty ? "it lists no attendees" : "attendees: " + listed.joined(separator: ", ")
            throw InviteError(file: invite.source, message: "\(settings.me.joined(separator: ", ")) is not an attendee of this invitation (\(who))")
        }
        context.out.write(text)
        return .ok
    }

    /// `--mail` prints the message; `--send` hands it to the sendmail, the answer recorded
    /// with it (`AnswerStore.send`).
    private func mailed(_ file: InvitationFile, _ settings: Settings, _ context: RunContext) throws -> ExitStatus {
        let reply = try AnswerStore.build(file, partstat: partstat, comment: comment, settings: settings.answering(command: "reply"))
        guard send else {
            context.out.write(reply.message.rendered())
            return .ok
        }
        let answer: Answer? = ["ACCEPTED": .accepted, "DECLINED": .declined, "TENTATIVE": .tentative][partstat]
        let fate = try context.answers.send(reply, record: answer.map { .answer($0, file.invite, comment: comment) } ?? .nothing,
                                            inviteID: file.invite.id.text, lockTimeout: settings.lockTimeout)
        return try said(fate, .answer, source: file.invite.source, context)
    }

    /// How the mail sent stands, said: 74 when the sendmail failed for good, 75 (queued
    /// for `outbox flush`) when it could not be handed over now.
    func said(_ fate: MailFate, _ sent: SendText.Sent, source: String, _ context: RunContext) throws -> ExitStatus {
        let text = SendText(fate, sent, source: source)
        if let warning = text.warning { context.diagnostics.warn(warning) }
        if let line = text.line { context.say(line) }
        guard let failure = text.failure else { return .ok }
        if case .failed = fate { throw MailSendError(message: failure) }
        throw ServerError(message: failure, denied: false)
    }
}

/// A sendmail that failed for good (not a temporary status): the mail is kept as failed (74).
package struct MailSendError: StatusError, CustomStringConvertible, Equatable {
    package var message: String
    package var description: String { message }
    /// 74: the sendmail failed for good; the mail is kept as failed.
    package var exitStatus: ExitStatus { .ioError }
}
