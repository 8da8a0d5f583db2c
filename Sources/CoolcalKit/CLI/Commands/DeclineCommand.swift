/// `coolcal decline INVITE`: records the answer (and sends it); never touches a calendar.
struct DeclineCommand: CommandUnit, Equatable {
    static let spec = CommandSpec(
        name: "decline",
        usage: "coolcal decline [options] INVITE",
        summary: "decline an invitation (never touches a calendar)",
        options: SharedOptions.answering,
        examples: ["coolcal decline invite.json", "coolcal decline 3"])

    var common: CommonOptions
    var invite: String

    init(_ p: ParsedArguments) throws {
        guard p.operands.count == 1 else {
            throw p.usage(p.operands.isEmpty ? "missing an invitation" : "decline takes one invitation")
        }
        invite = p.operands[0]
        common = try CommonOptions(p)
    }

    func run(_ context: RunContext) throws -> ExitStatus {
        let invite = try InviteOperand.load(invite, context)
        try context.answers.record(.declined, for: invite)
        context.say("declined: \(invite.title) (id \(invite.id.text))")
        return .ok
    }
}
