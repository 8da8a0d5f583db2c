import CoolcalAnswering
import CoolcalInvite
import CoolcalOutput
import CoolcalState
import CoolcalModel
import CoolcalRSVP

/// How `accept`, `decline`, `comment`, `review` and `notify` answer: the operand
/// opened, then one workflow (`Answering.answer`), then its outcome in words.
package enum AnswerCommand {
    /// Answers the invitation `operand` names: a file (or `-`), else an inbox number,
    /// id or UID. `calendars`: where `accept`/`tentative` write (none: the config's
    /// `calendar` lines) and what `decline` changes its mind in.
    /// `reply`: whether the answer is mailed (an entry merge held is not mailed for the
    /// config's `reply = mail`).
    package static func answer(_ kind: AnswerKind, invite operand: String, calendars: [String],
                               options: AnswerOptions = AnswerOptions(), reply: ReplyChoice = .config,
                               context: RunContext) throws -> ExitStatus {
        if kind.partstat != nil, let found = try InviteOperand.foundInCalendar(operand, context) {
            return try answerFound(kind, entry: found, calendars: calendars, reply: reply, context: context)
        }
        let (file, entry) = try InviteOperand.openWithEntry(operand, context)
        var options = options
        let asked = Self.asked(file, try context.settings)
        options.reply = mails(kind, file: file, reply: reply, held: entry?.held != nil, asked: asked, try context.settings)
        let status = try answer(kind, file: file, calendars: calendars, options: options, entry: entry,
                                operand: entry.map { String($0.number) } ?? operand, context: context)
        if reply.withheldForRSVP(try context.settings, held: entry?.held != nil, asked: asked) { context.say("  (\(MergeText.noReplyAsked))") }
        return status
    }

    /// Answers an inbox entry (what `review` shows), as `answer(_:invite:…)` does.
    package static func answer(_ kind: AnswerKind, entry: InboxEntry, calendars: [String],
                               options: AnswerOptions = AnswerOptions(), reply: ReplyChoice = .config,
                               context: RunContext) throws -> ExitStatus {
        context.note("answering inbox \(entry.number) (id \(entry.id))")
        if kind.partstat != nil, entry.foundIn != nil, entry.mail == nil {
            return try answerFound(kind, entry: entry, calendars: calendars, reply: reply, context: context)
        }
        var options = options
        let file = try InviteOperand.open(entry, context)
        let asked = Self.asked(file, try context.settings)
        options.reply = mails(kind, file: file, reply: reply, held: entry.held != nil, asked: asked, try context.settings)
        let status = try answer(kind, file: file, calendars: calendars, options: options, entry: entry,
                                operand: String(entry.number), context: context)
        if reply.withheldForRSVP(try context.settings, held: entry.held != nil, asked: asked) { context.say("  (\(MergeText.noReplyAsked))") }
        return status
    }

    /// Whether the answer is mailed. A comment is mailed only for an iTIP invitation
    /// (a push payload's goes to the server, and the config's `reply = mail` says
    /// nothing of it), and never for an entry merge held, even with `--reply`.
    private static func mails(_ kind: AnswerKind, file: InvitationFile, reply: ReplyChoice, held: Bool, asked: Bool,
                              _ settings: Settings) -> Bool {
        if case .comment = kind, held || (reply == .config && !MailReply.hasOrganizer(file)) { return false }
        return reply.mails(settings, held: held, asked: asked)
    }

    /// An invitation found pending in a calendar, answered in place (`FoundAnswer`); no
    /// calendar named: the config's `calendar` lines. `reply = mail` does not mail it (a
    /// scheduling server tells the organizer: two replies otherwise), `--reply` does; where
    /// the event says `SCHEDULE-AGENT=CLIENT`, the mail rules apply.
    package static func answerFound(_ kind: AnswerKind, entry: InboxEntry, calendars: [String], reply: ReplyChoice,
                                    comment: String? = nil, context: RunContext) throws -> ExitStatus {
        let settings = try context.settings
        let mail = reply == .always || (FoundAnswer.clientScheduled(entry, me: settings.me) && reply.mails(settings, held: entry.held != nil))
        let operands = try context.settings.calendarOperands(calendars, command: context.common.command ?? "accept",
                                                             missing: "the calendar it was found in")
        let outcome = try FoundAnswer.answer(kind, entry: entry, calendars: operands, comment: comment, mail: mail, store: try context.answers)
        context.say(AnswerText.found(outcome))
        return .ok
    }

    /// False when my ATTENDEE says `RSVP=FALSE`: the organizer asked for no answer.
    private static func asked(_ file: InvitationFile, _ settings: Settings) -> Bool {
        file.message?.attendee(me: settings.me)?.rsvp != false
    }

    /// `operand`: the invitation as the hints name it (its inbox number, else as typed).
    private static func answer(_ kind: AnswerKind, file: InvitationFile, calendars: [String], options: AnswerOptions,
                               entry: InboxEntry?, operand: String, context: RunContext) throws -> ExitStatus {
        var calendars = calendars
        if kind == .accept || kind == .tentative {
            // None named: the config's `calendar` lines.
            calendars = try context.settings.calendarOperands(calendars, command: context.common.command ?? "accept",
                                                              missing: "a calendar to write to")
        }
        var answered = true
        let dates = DateText(style: try context.settings.style)
        try Answering.answer(kind, file: file, calendars: calendars, options: options, store: try context.answers) { outcome in
            answered = outcome.answered
            if case .preview(let text) = outcome, let text { context.out.write(text) }
            if case .declined(let invite, _) = outcome, !options.reply, !options.dryRun, let held = entry?.held {
                // A held entry declined without --reply: the organizer was told nothing, on purpose.
                context.say(AnswerText.declinedHeld(invite, held))
                return
            }
            if case .commented(let invite) = outcome, case .comment(let text) = kind, !options.reply, MailReply.hasOrganizer(file) {
                // An iTIP invitation's comment not mailed: kept, and how to mail it (never for a held one).
                context.say(entry?.held.map { AnswerText.commentedHeld(invite, $0) }
                            ?? AnswerText.commentKept(invite, operand: operand, text: text))
                return
            }
            for line in AnswerText.lines(outcome, dates: dates) { context.say(line) }
            let replyMail = (try? context.settings.replyMail) ?? false
            if let line = untold(kind, outcome, file: file, options: options, entry: entry, replyMail: replyMail) { context.say(line) }
        }
        if answered && !options.dryRun, try context.answers.hasState {
            // An invitation answered is one read (issue #46): by its entry, or its id for a file.
            try context.answers.open().inbox.markRead(id: entry?.id ?? file.invite.id.text)
        }
        return answered ? .ok : .busy
    }

    /// What to say when an iTIP answer to an inbox entry (by number, in `review`, from a
    /// notification) was recorded but not mailed: the organizer was not told, and how to
    /// tell them. (A file answered by name says nothing more: scripts read that line.)
    /// `replyMail`: the config says `reply = mail` (so it was held, and the hint must not
    /// suggest the key that is set).
    private static func untold(_ kind: AnswerKind, _ outcome: AnswerOutcome, file: InvitationFile, options: AnswerOptions,
                               entry: InboxEntry?, replyMail: Bool) -> String? {
        guard let entry, !options.reply, !options.dryRun, let partstat = kind.partstat, MailReply.hasOrganizer(file),
              !file.invite.isCancellation, !file.invite.isAttendeeTraffic else { return nil }
        switch outcome {
        case .accepted(.accepted, _, _, _), .accepted(.tentative, _, _, _), .declined: break
        default: return nil
        }
        let flag = partstat == "ACCEPTED" ? "--accept" : partstat == "DECLINED" ? "--decline" : "--tentative"
        let how = replyMail ? "(a held invitation is not mailed for 'reply = mail')" : "(or 'reply = mail' in the config)"
        return "  the organizer was not told: 'coolcal reply \(flag) --send \(entry.number)' tells them \(how)"
    }
}
