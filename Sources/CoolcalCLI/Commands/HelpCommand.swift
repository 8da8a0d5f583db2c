import CoolcalModel

/// `coolcal help [COMMAND]`.
package struct HelpCommand: CommandUnit, Equatable {
    package static let spec = CommandSpec(
        name: "help",
        usage: "coolcal help [COMMAND]",
        summary: "show help for coolcal or one command",
        options: [],
        examples: ["coolcal help conflicts"],
        operands: .commands)

    package var common: CommonOptions
    package var topic: String?

    package init(_ p: ParsedArguments) throws {
        guard p.operands.count <= 1 else { throw p.usage("help takes at most one command") }
        if let name = p.operands.first, CommandTable.command(named: name) == nil {
            throw CommandParser.unknownCommand(name)
        }
        topic = p.operands.first
        common = try CommonOptions(p)
    }

    package func run(_ context: RunContext) throws -> ExitStatus {
        context.out.write(topic.flatMap(CommandTable.command(named:)).map(HelpText.command) ?? HelpText.overview())
        return .ok
    }
}
