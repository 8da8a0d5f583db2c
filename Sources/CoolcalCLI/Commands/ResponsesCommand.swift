import CoolcalOutput
import CoolcalModel

/// `coolcal responses`: the answers given, by the invitation's start.
package struct ResponsesCommand: CommandUnit, Equatable {
    package static let spec = CommandSpec(
        name: "responses",
        usage: "coolcal responses [options]",
        summary: "list the answers given, by the invitation's start",
        options: SharedOptions.listing,
        examples: ["coolcal responses", "coolcal responses --json"])

    package var common: CommonOptions

    package init(_ p: ParsedArguments) throws {
        guard p.operands.isEmpty else { throw p.usage("responses takes no arguments") }
        common = try CommonOptions(p)
    }

    package func run(_ context: RunContext) throws -> ExitStatus {
        let answers = try context.answers
        _ = try answers.server()
        let store = try answers.open()
        try answers.deliver(store)
        context.out.write(ResponsesText(style: try context.settings.style).render(try store.responses(), json: common.json))
        return .ok
    }
}
