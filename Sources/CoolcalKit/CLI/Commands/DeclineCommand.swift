/// `coolcal decline INVITE`: records the answer (and sends it); never touches a calendar.
struct DeclineCommand: CommandUnit, Equatable {
    static let spec = CommandSpec(
        name: "decline",
        usage: "coolcal decline [options] INVITE",
        summary: "decline an invitation (never touches a calendar)",
        options: SharedOptions.answering + [SharedOptions.reply.spec, SharedOptions.me.spec],
        examples: ["coolcal decline invite.json", "coolcal decline 3", "coolcal decline --reply --me me@example.com invite.ics"])

    var common: CommonOptions
    var invite: String
    /// `--reply`: also mail the REPLY to the organizer.
    var reply = false

    init(_ p: ParsedArguments) throws {
        guard p.operands.count == 1 else {
            throw p.usage(p.operands.isEmpty ? "missing an invitation" : "decline takes one invitation")
        }
        invite = p.operands[0]
        common = try CommonOptions(p)
        reply = p.has(SharedOptions.reply)
    }

    func run(_ context: RunContext) throws -> ExitStatus {
        var mail: MailReply?
        let invite: Invite
        if reply {
            let file = try InviteOperand.open(self.invite, context)
            if file.invite.isCancellation { throw InviteLoader.cancellation(file.invite) }
            invite = file.invite
            mail = try context.answers.mailReply(for: file, partstat: "DECLINED")
        } else {
            invite = try InviteOperand.load(self.invite, context)
        }
        try context.answers.record(.declined, for: invite, mail: mail)
        context.say("declined: \(invite.title) (id \(invite.id.text))")
        return .ok
    }
}
