import CoolcalModel

/// One command: its options and operands, how it is read from a command line, and
/// what it does. Each lives in one file under `CLI/Commands/`.
package protocol CommandUnit: Sendable {
    /// What parsing, help, completions and the man-page test know of it.
    static var spec: CommandSpec { get }
    /// Reads the command from its arguments; a usage error names what is wrong.
    init(_ arguments: ParsedArguments) throws
    /// The options that shape the run's settings (zone, addresses, colour, state).
    var common: CommonOptions { get }
    func run(_ context: RunContext) throws -> ExitStatus
}

/// One command's help, usage and options: the single source for parsing and help.
public struct CommandSpec: Sendable {
    /// What a shell offers for a command's operands.
    public enum Operands: Sendable, Equatable { case files, words([String]), commands }

    public var name: String
    public var usage: String
    public var summary: String
    /// Its own options, then `--verbose` and `--help`, which every command has.
    public var options: [OptionSpec]
    public var examples: [String]
    public var operands: Operands

    package init(name: String, usage: String, summary: String, options: [OptionSpec], examples: [String],
         operands: Operands = .files) {
        self.name = name
        self.usage = usage
        self.summary = summary
        self.options = options + [SharedOptions.verbose.spec, SharedOptions.help.spec]
        self.examples = examples
        self.operands = operands
    }
}

/// Every command coolcal knows, in the order help lists them.
public enum CommandTable {
    package static let units: [any CommandUnit.Type] = [
        ConflictsCommand.self, EventsCommand.self, AcceptCommand.self, DeclineCommand.self, ReplyCommand.self,
        CommentCommand.self, MergeCommand.self, ProcessCommand.self, NotifyCommand.self, ReviewCommand.self, InboxCommand.self, ResponsesCommand.self,
        OutboxCommand.self, KnownCommand.self, ConfigCommand.self, CompletionsCommand.self, HelpCommand.self,
    ]

    public static var all: [CommandSpec] { units.map { $0.spec } }

    package static func unit(named name: String) -> (any CommandUnit.Type)? {
        units.first { $0.spec.name == name }
    }

    public static func command(named name: String) -> CommandSpec? {
        unit(named: name)?.spec
    }
}

/// What a command line asks for.
package enum ParsedCommand {
    case help(String?)
    case version
    case run(any CommandUnit)
}

/// `[String] → ParsedCommand`, a pure function: no files, no environment.
public enum CommandParser {
    /// Parses a command line and names what it asks for (`help`, `version`, or the
    /// command); a `UsageError` otherwise. (For the argument fuzzer.)
    public static func commandName(_ args: [String]) throws -> String {
        switch try parse(args) {
        case .help: return "help"
        case .version: return "version"
        case .run(let command): return type(of: command).spec.name
        }
    }

    package static func parse(_ args: [String]) throws -> ParsedCommand {
        guard let first = args.first else { return .help(nil) }
        switch first {
        case "-h", "--help": return .help(nil)
        case "--version", "-V": return .version
        default: break
        }
        guard let unit = CommandTable.unit(named: first) else {
            if first.hasPrefix("-") {
                throw UsageError("unknown option '\(first)' (options come after the command)", command: nil)
            }
            throw unknownCommand(first)
        }
        let parsed = try ArgumentParser.parse(Array(args.dropFirst()), spec: unit.spec)
        if parsed.has(SharedOptions.help) { return .help(unit.spec.name) }
        return .run(try unit.init(parsed))
    }

    package static func unknownCommand(_ name: String) -> UsageError {
        var message = "unknown command '\(name)'"
        if let near = suggestion(for: name, among: CommandTable.all.map(\.name)) {
            message += "; did you mean '\(near)'?"
        }
        return UsageError(message, command: nil)
    }
}
