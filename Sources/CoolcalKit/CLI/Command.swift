/// What the user asked for, fully parsed (values from the config file are merged later).
public enum Command: Equatable {
    case help(String?)
    case version
    case conflicts(ConflictsRequest)
    case events(EventsRequest)
    case accept(AcceptRequest)
    case decline(CommonRequest, String)
    case reply(ReplyRequest)
    case comment(CommonRequest, String, String)
    case merge(MergeRequest)
    case notify(CommonRequest, String, [String])
    case inbox(CommonRequest, open: String?)
    case responses(CommonRequest)
    case outbox(CommonRequest, flush: Bool)
    case config(CommonRequest, Buffer?)
    case completions(Shell)
}

/// Shells `coolcal completions` writes for.
public enum Shell: String, Equatable, Sendable, CaseIterable {
    case bash, zsh, fish
}

public struct AcceptRequest: Equatable {
    public var common = CommonRequest()
    public var invite: String
    public var calendars: [String]
    public var buffer: Buffer?
    public var ifFree = false
    public var dryRun = false
}

public struct ReplyRequest: Equatable {
    public var common = CommonRequest()
    public var invite: String
    /// ACCEPTED, DECLINED or TENTATIVE.
    public var partstat: String
    public var comment: String?
}

/// What `merge` does with each invitation.
public enum MergePolicy: String, Equatable, Sendable, CaseIterable {
    case acceptIfFree = "accept-if-free"
    case acceptAll = "accept-all"
    case declineBusy = "decline-busy"
    case report
}

public struct MergeRequest: Equatable {
    public var common = CommonRequest()
    public var spool: String
    public var calendars: [String]
    public var buffer: Buffer?
    public var policy: MergePolicy = .acceptIfFree
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
    /// `--state DIR`.
    public var state: String?
    /// `--server URL`.
    public var server: String?
}

public struct ConflictsRequest: Equatable {
    public var common = CommonRequest()
    public var invite: String
    public var calendars: [String]
    public var buffer: Buffer?
    public var quiet = false
    public var suggest: Int?
    public var hours: WorkingHours?
    public var weekends = false
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
        case "accept":
            let parsed = try ArgumentParser.parse(rest, spec: CommandTable.accept)
            if parsed.has("help") { return .help("accept") }
            return .accept(try accept(parsed))
        case "decline":
            let parsed = try ArgumentParser.parse(rest, spec: CommandTable.decline)
            if parsed.has("help") { return .help("decline") }
            guard parsed.operands.count == 1 else {
                throw UsageError(parsed.operands.isEmpty ? "missing an invitation" : "decline takes one invitation", command: "decline")
            }
            return .decline(try common(parsed, "decline"), parsed.operands[0])
        case "reply":
            let parsed = try ArgumentParser.parse(rest, spec: CommandTable.reply)
            if parsed.has("help") { return .help("reply") }
            return .reply(try reply(parsed))
        case "comment":
            let parsed = try ArgumentParser.parse(rest, spec: CommandTable.comment)
            if parsed.has("help") { return .help("comment") }
            guard parsed.operands.count == 2 else {
                throw UsageError("comment needs an invitation and the text", command: "comment")
            }
            guard !parsed.operands[1].trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw UsageError("the comment is empty", command: "comment")
            }
            return .comment(try common(parsed, "comment"), parsed.operands[0], parsed.operands[1])
        case "notify":
            let parsed = try ArgumentParser.parse(rest, spec: CommandTable.notify)
            if parsed.has("help") { return .help("notify") }
            guard let invite = parsed.operands.first else { throw UsageError("missing a payload", command: "notify") }
            return .notify(try common(parsed, "notify"), invite, Array(parsed.operands.dropFirst()))
        case "inbox":
            let parsed = try ArgumentParser.parse(rest, spec: CommandTable.inbox)
            if parsed.has("help") { return .help("inbox") }
            switch parsed.operands.count {
            case 0: return .inbox(try common(parsed, "inbox"), open: nil)
            case 2 where parsed.operands[0] == "open": return .inbox(try common(parsed, "inbox"), open: parsed.operands[1])
            default: throw UsageError("inbox takes nothing, or 'open ID'", command: "inbox")
            }
        case "responses":
            let parsed = try ArgumentParser.parse(rest, spec: CommandTable.responses)
            if parsed.has("help") { return .help("responses") }
            guard parsed.operands.isEmpty else { throw UsageError("responses takes no arguments", command: "responses") }
            return .responses(try common(parsed, "responses"))
        case "outbox":
            let parsed = try ArgumentParser.parse(rest, spec: CommandTable.outbox)
            if parsed.has("help") { return .help("outbox") }
            guard parsed.operands.isEmpty || parsed.operands == ["flush"] else {
                throw UsageError("outbox takes nothing, or 'flush'", command: "outbox")
            }
            return .outbox(try common(parsed, "outbox"), flush: !parsed.operands.isEmpty)
        case "config":
            let parsed = try ArgumentParser.parse(rest, spec: CommandTable.config)
            if parsed.has("help") { return .help("config") }
            guard parsed.operands.isEmpty else { throw UsageError("config takes no arguments", command: "config") }
            return .config(try common(parsed, "config"), try buffer(parsed, "config"))
        case "completions":
            let parsed = try ArgumentParser.parse(rest, spec: CommandTable.completions)
            if parsed.has("help") { return .help("completions") }
            guard parsed.operands.count == 1, let shell = Shell(rawValue: parsed.operands[0]) else {
                throw UsageError("completions needs one of bash, zsh, fish", command: "completions")
            }
            return .completions(shell)
        case "merge":
            let parsed = try ArgumentParser.parse(rest, spec: CommandTable.merge)
            if parsed.has("help") { return .help("merge") }
            return .merge(try merge(parsed))
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
        c.state = p.value("state")
        c.server = p.value("server")
        if let raw = p.value("color") {
            guard let choice = ColorChoice(rawValue: raw) else {
                throw UsageError("--color must be auto, always or never, not '\(raw)'", command: command)
            }
            c.color = choice
        }
        return c
    }

    private static func conflicts(_ p: ParsedArguments) throws -> ConflictsRequest {
        guard let invite = p.operands.first else {
            throw UsageError("missing an invitation (and calendars, unless the config names some)", command: "conflicts")
        }
        var request = ConflictsRequest(invite: invite, calendars: Array(p.operands.dropFirst()))
        request.common = try common(p, "conflicts")
        request.quiet = p.has("quiet")
        request.buffer = try buffer(p, "conflicts")
        if let raw = p.value("suggest") {
            guard let n = Int(raw), (1...100).contains(n) else {
                throw UsageError("--suggest needs a number from 1 to 100, not '\(raw)'", command: "conflicts")
            }
            request.suggest = n
        }
        if let raw = p.value("hours") {
            guard let hours = WorkingHours(parsing: raw) else {
                throw UsageError("--hours '\(raw)' is not a range like 09:00-18:00", command: "conflicts")
            }
            request.hours = hours
        }
        request.weekends = p.has("weekends")
        if p.operands.dropFirst().contains("-") {
            throw UsageError("only the invitation can be read from standard input", command: "conflicts")
        }
        return request
    }

    private static func buffer(_ p: ParsedArguments, _ command: String) throws -> Buffer? {
        guard let raw = p.value("buffer") else { return nil }
        guard let buffer = Buffer(parsing: raw) else {
            if Buffer.isTooLong(raw) {
                throw UsageError("--buffer '\(raw)' is longer than the limit of \(Buffer.maximumDays) days", command: command)
            }
            throw UsageError("--buffer '\(raw)' is not a duration (e.g. 2h, 90m, 1h30m, 0)", command: command)
        }
        return buffer
    }

    private static func accept(_ p: ParsedArguments) throws -> AcceptRequest {
        guard p.operands.count >= 2 else {
            let what = p.operands.isEmpty ? "an invitation and a calendar" : "a calendar to write to"
            throw UsageError("missing \(what)", command: "accept")
        }
        if p.operands.dropFirst().contains("-") {
            throw UsageError("only the invitation can be read from standard input", command: "accept")
        }
        var request = AcceptRequest(invite: p.operands[0], calendars: Array(p.operands.dropFirst()))
        request.common = try common(p, "accept")
        request.buffer = try buffer(p, "accept")
        request.ifFree = p.has("if-free")
        request.dryRun = p.has("dry-run")
        return request
    }

    private static func reply(_ p: ParsedArguments) throws -> ReplyRequest {
        let answers = [("accept", "ACCEPTED"), ("decline", "DECLINED"), ("tentative", "TENTATIVE")].filter { p.has($0.0) }
        guard answers.count == 1 else {
            throw UsageError(answers.isEmpty ? "missing the answer: --accept, --decline or --tentative"
                                             : "give one answer, not --\(answers.map(\.0).joined(separator: " and --"))",
                             command: "reply")
        }
        guard p.operands.count == 1 else {
            throw UsageError(p.operands.isEmpty ? "missing an invitation" : "reply takes one invitation", command: "reply")
        }
        var request = ReplyRequest(invite: p.operands[0], partstat: answers[0].1, comment: p.value("comment"))
        if let comment = request.comment, comment.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw UsageError("the comment is empty", command: "reply")
        }
        request.common = try common(p, "reply")
        return request
    }

    private static func merge(_ p: ParsedArguments) throws -> MergeRequest {
        guard let spool = p.value("spool") else { throw UsageError("missing --spool DIR", command: "merge") }
        guard !p.operands.isEmpty else { throw UsageError("missing a calendar", command: "merge") }
        if p.operands.contains("-") {
            throw UsageError("calendars cannot be read from standard input", command: "merge")
        }
        var request = MergeRequest(spool: spool, calendars: p.operands)
        request.common = try common(p, "merge")
        request.buffer = try buffer(p, "merge")
        if let raw = p.value("policy") {
            guard let policy = MergePolicy(rawValue: raw) else {
                throw UsageError("--policy must be one of \(MergePolicy.allCases.map(\.rawValue).joined(separator: ", ")), not '\(raw)'",
                                 command: "merge")
            }
            request.policy = policy
        }
        return request
    }

    private static func events(_ p: ParsedArguments) throws -> EventsRequest {
        if p.operands.contains("-") {
            throw UsageError("calendars cannot be read from standard input", command: "events")
        }
        var request = EventsRequest(calendars: p.operands, from: p.value("from"), to: p.value("to"))
        request.common = try common(p, "events")
        return request
    }
}
