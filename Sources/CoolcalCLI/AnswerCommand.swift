import CoolcalAnswering
import CoolcalInvite
import CoolcalOutput
import CoolcalState
import CoolcalModel

/// How `accept`, `decline`, `comment`, `review` and `notify` answer: the operand
/// opened, then one workflow (`Answering.answer`), then its outcome in words.
package enum AnswerCommand {
    /// Answers the invitation `operand` names: a file (or `-`), else an inbox number,
    /// id or UID. `calendars`: where `accept`/`tentative` write (none: the config's
    /// `calendar` lines) and what `decline` changes its mind in.
    package static func answer(_ kind: AnswerKind, invite operand: String, calendars: [String],
                               options: AnswerOptions = AnswerOptions(), context: RunContext) throws -> ExitStatus {
        try answer(kind, file: InviteOperand.open(operand, context), calendars: calendars, options: options, context: context)
    }

    /// Answers an inbox entry (what `review` shows), as `answer(_:invite:…)` does.
    package static func answer(_ kind: AnswerKind, entry: InboxEntry, calendars: [String],
                               options: AnswerOptions = AnswerOptions(), context: RunContext) throws -> ExitStatus {
        context.note("answering inbox \(entry.number) (id \(entry.id))")
        return try answer(kind, file: InviteOperand.open(entry, context), calendars: calendars, options: options, context: context)
    }

    private static func answer(_ kind: AnswerKind, file: InvitationFile, calendars: [String], options: AnswerOptions,
                               context: RunContext) throws -> ExitStatus {
        var calendars = calendars
        if kind == .accept || kind == .tentative {
            // None named: the config's `calendar` lines.
            calendars = try context.settings.calendarOperands(calendars, command: context.common.command ?? "accept",
                                                              missing: "a calendar to write to")
        }
        var answered = true
        try Answering.answer(kind, file: file, calendars: calendars, options: options, store: try context.answers) { outcome in
            answered = outcome.answered
            if case .preview(let text) = outcome, let text { context.out.write(text) }
            for line in AnswerText.lines(outcome) { context.say(line) }
        }
        return answered ? .ok : .busy
    }
}
