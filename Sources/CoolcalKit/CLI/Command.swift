/// What the user asked for, fully parsed (values from the config file are merged later).
public enum Command: Equatable {
    case help(String?)
    case version
    case conflicts(ConflictsRequest)
    case events(EventsRequest)
}

/// When to colour output.
public enum ColorChoice: String, Equatable, Sendable {
    case auto, always, never
}

/// Options shared by the commands that read calendars.
public struct CommonRequest: Equatable {
    /// The command these options belong to, for usage messages.
    public var command: String?
    public var json = false
    public var tz: String?
    public var me: [String] = []
    public var color: ColorChoice = .auto
}

public struct ConflictsRequest: Equatable {
    public var common = CommonRequest()
    public var invite: String
    public var calendars: [String]
    public var buffer: Buffer?
    public var quiet = false
}

public struct EventsRequest: Equatable {
    public var common = CommonRequest()
    public var calendars: [String]
    public var from: String?
    public var to: String?
}

/// `[String] → Command`, a pure function: no files, no environment.
public enum CommandParser {
    public static func parse(_ args: [String]) throws -> Command {
        guard let first = args.first else { return .help(nil) }
        let rest = Array(args.dropFirst())
        switch first {
        case "-h", "--help": return .help(nil)
        case "--version", "-V": return .version
        case "help":
            let parsed = try ArgumentParser.parse(rest, spec: CommandTable.helpCommand)
            if parsed.has("help") { return .help("help") }
            guard parsed.operands.count <= 1 else { throw UsageError("help takes at most one command", command: "help") }
            if let name = parsed.operands.first, CommandTable.command(named: name) == nil {
                throw unknownCommand(name)
            }
            return .help(parsed.operands.first)
        case "conflicts":
            let parsed = try ArgumentParser.parse(rest, spec: CommandTable.conflicts)
            if parsed.has("help") { return .help("conflicts") }
            return .conflicts(try conflicts(parsed))
        case "events":
            let parsed = try ArgumentParser.parse(rest, spec: CommandTable.events)
            if parsed.has("help") { return .help("events") }
            return .events(try events(parsed))
        default:
            if first.hasPrefix("-") {
                throw UsageError("unknown option '\(first)' (options come after the command)", command: nil)
            }
            throw unknownCommand(first)
        }
    }

    private static func unknownCommand(_ name: String) -> UsageError {
        var message = "unknown command '\(name)'"
        if let near = suggestion(for: name, among: CommandTable.all.map(\.name)) {
            message += "; did you mean '\(near)'?"
        }
        return UsageError(message, command: nil)
    }

    private static func common(_ p: ParsedArguments, _ command: String) throws -> CommonRequest {
        var c = CommonRequest()
        c.command = command
        c.json = p.has("json")
        c.tz = p.value("tz")
        c.me = p.all("me")
        if let raw = p.value("color") {
            guard let choice = ColorChoice(rawValue: raw) else {
                throw UsageError("--color must be auto, always or never, not '\(raw)'", command: command)
            }
            c.color = choice
        }
        return c
    }

    private static func conflicts(_ p: ParsedArguments) throws -> ConflictsRequest {
        guard p.operands.count >= 2 else {
            let what = p.operands.isEmpty ? "an invitation and at least one calendar" : "at least one calendar"
            throw UsageError("missing \(what)", command: "conflicts")
        }
        var request = ConflictsRequest(invite: p.operands[0], calendars: Array(p.operands.dropFirst()))
        request.common = try common(p, "conflicts")
        request.quiet = p.has("quiet")
        if let raw = p.value("buffer") {
            guard let buffer = Buffer(parsing: raw) else {
                throw UsageError("--buffer '\(raw)' is not a duration (e.g. 2h, 90m, 1h30m, 0)", command: "conflicts")
            }
            request.buffer = buffer
        }
        if p.operands.dropFirst().contains("-") {
            throw UsageError("only the invitation can be read from standard input", command: "conflicts")
        }
        return request
    }

    private static func events(_ p: ParsedArguments) throws -> EventsRequest {
        guard !p.operands.isEmpty else { throw UsageError("missing a calendar", command: "events") }
        if p.operands.contains("-") {
            throw UsageError("calendars cannot be read from standard input", command: "events")
        }
        var request = EventsRequest(calendars: p.operands, from: p.value("from"), to: p.value("to"))
        request.common = try common(p, "events")
        return request
    }
}
