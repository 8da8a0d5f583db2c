import Foundation
import CoolcalModel

/// `coolcal comment [--reply|--no-reply] [--me ADDRESS] INVITE TEXT`: records a comment
/// and sends it to the server (a push payload's) or mails it to the organizer in an iTIP
/// REPLY with the answer as it stands (an iTIP invitation's, with `--reply` or the
/// config's `reply = mail`), through `AnswerCommand`.
package struct CommentCommand: CommandUnit, Equatable {
    package static let spec = CommandSpec(
        name: "comment",
        usage: "coolcal comment [options] INVITE TEXT",
        summary: "send a comment on an invitation: to the inviting server, or mailed to an iCalendar invitation's organizer",
        options: SharedOptions.answering + [SharedOptions.reply.spec, SharedOptions.noReply.spec, SharedOptions.me.spec],
        examples: ["coolcal comment invite.json 'Running 10 minutes late'",
                   "coolcal comment --reply 3 'Can we start at 10:30?'"])

    package var common: CommonOptions
    package var invite: String
    package var text: String
    /// `--reply`/`--no-reply`/the config's `reply`: whether an iTIP invitation's comment is mailed.
    package var reply = ReplyChoice.config

    package init(_ p: ParsedArguments) throws {
        guard p.operands.count == 2 else { throw p.usage("comment needs an invitation and the text") }
        guard !p.operands[1].trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw p.usage("the comment is empty")
        }
        invite = p.operands[0]
        text = p.operands[1]
        common = try CommonOptions(p)
        reply = try ReplyChoice(p)
    }

    package func run(_ context: RunContext) throws -> ExitStatus {
        try AnswerCommand.answer(.comment(text), invite: invite, calendars: [], reply: reply, context: context)
    }
}
