import Foundation
import CoolcalModel

/// `coolcal comment INVITE TEXT`: records a comment and sends it to the server.
package struct CommentCommand: CommandUnit, Equatable {
    package static let spec = CommandSpec(
        name: "comment",
        usage: "coolcal comment [options] INVITE TEXT",
        summary: "send a comment on an invitation to the inviting server",
        options: SharedOptions.answering,
        examples: ["coolcal comment invite.json 'Running 10 minutes late'"])

    package var common: CommonOptions
    package var invite: String
    package var text: String

    package init(_ p: ParsedArguments) throws {
        guard p.operands.count == 2 else { throw p.usage("comment needs an invitation and the text") }
        guard !p.operands[1].trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw p.usage("the comment is empty")
        }
        invite = p.operands[0]
        text = p.operands[1]
        common = try CommonOptions(p)
    }

    package func run(_ context: RunContext) throws -> ExitStatus {
        try AnswerCommand.answer(.comment(text), invite: invite, calendars: [], context: context)
    }
}
