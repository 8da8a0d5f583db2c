import CoolcalAnswering
import CoolcalModel

/// `coolcal decline INVITE [CAL...]`: records the answer (and sends it); when coolcal
/// had accepted the invitation, undoes that in the calendars it wrote it into (or the
/// CALs named), through `AnswerCommand`.
package struct DeclineCommand: CommandUnit, Equatable {
    package static let spec = CommandSpec(
        name: "decline",
        usage: "coolcal decline [options] INVITE [CAL...]",
        summary: "decline an invitation; one coolcal accepted is removed from (or declined in) its calendars",
        options: SharedOptions.answering + [SharedOptions.reply.spec, SharedOptions.noReply.spec, SharedOptions.me.spec],
        examples: ["coolcal decline invite.json", "coolcal decline 3", "coolcal decline 12 ~/calendars/work.ics",
                   "coolcal decline --reply --me me@example.com invite.ics"])

    package var common: CommonOptions
    package var invite: String
    /// Where to change your mind; empty: where the state says coolcal wrote it.
    package var calendars: [String]
    /// `--reply`/`--no-reply`/the config's `reply`: whether the REPLY is mailed to the organizer.
    package var reply = ReplyChoice.config

    package init(_ p: ParsedArguments) throws {
        guard let first = p.operands.first else { throw p.usage("missing an invitation") }
        try p.refuseStdin(p.operands.dropFirst(), "only the invitation can be read from standard input")
        invite = first
        calendars = Array(p.operands.dropFirst())
        common = try CommonOptions(p)
        reply = try ReplyChoice(p)
    }

    package func run(_ context: RunContext) throws -> ExitStatus {
        try AnswerCommand.answer(.decline, invite: invite, calendars: calendars, reply: reply, context: context)
    }
}
