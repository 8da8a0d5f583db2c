/// One option of a command, as parsing, help, completions and the man-page test see it.
public struct OptionSpec: Sendable {
    public var long: String
    public var short: Character?
    /// The value's name in help (`ZONE`), or nil for a flag.
    public var value: String?
    public var repeatable: Bool
    public var help: String

    init(_ long: String, short: Character? = nil, value: String? = nil, repeatable: Bool = false, help: String) {
        self.long = long
        self.short = short
        self.value = value
        self.repeatable = repeatable
        self.help = help
    }
}

/// One command: the single source of truth for parsing and help.
public struct CommandSpec: Sendable {
    public var name: String
    public var usage: String
    public var summary: String
    public var options: [OptionSpec]
    public var examples: [String]
}

/// Every command coolcal knows.
public enum CommandTable {
    static let json = OptionSpec("json", help: "print JSON for programs (see coolcal(1) for the fields)")
    static let tz = OptionSpec("tz", value: "ZONE", help: "zone for all-day dates, floating times and output (default: config tz, TZ, the system zone)")
    static let me = OptionSpec("me", value: "ADDRESS", repeatable: true, help: "your calendar address; events you declined are free (repeatable; config: me)")
    static let color = OptionSpec("color", value: "WHEN", help: "colour: auto (on a terminal unless NO_COLOR is set), always or never")
    static let help = OptionSpec("help", short: "h", help: "show this help")
    static let state = OptionSpec("state", value: "DIR", help: "where answers, the inbox and the outbox live (default: COOLCAL_STATE, $XDG_DATA_HOME/coolcal)")
    static let server = OptionSpec("server", value: "URL", help: "the inviting server that answers go to (default: COOLCAL_SERVER, config server)")

    public static let conflicts = CommandSpec(
        name: "conflicts",
        usage: "coolcal conflicts [options] INVITE [CAL...]",
        summary: "report the busy events in an invitation's buffered window",
        options: [
            json, tz, me,
            buffer,
            OptionSpec("suggest", value: "N", help: "also list the next N free slots of the invitation's length"),
            OptionSpec("hours", value: "HH:MM-HH:MM", help: "working hours for --suggest, in --tz (default 09:00-18:00; config: hours)"),
            OptionSpec("weekends", help: "let --suggest use Saturdays and Sundays"),
            OptionSpec("quiet", short: "q", help: "print nothing; the exit status tells (0 free, 1 busy)"),
            color, help,
        ],
        examples: [
            "coolcal conflicts invite.json ~/calendars/work.ics ~/calendars/family/",
            "coolcal conflicts --json --buffer 30m - work.ics < invite.json",
            "coolcal conflicts --suggest 3 --hours 08:30-17:00 invite.json work.ics",
        ])

    public static let events = CommandSpec(
        name: "events",
        usage: "coolcal events [options] [CAL...]",
        summary: "list the occurrences in a time window (an agenda)",
        options: [
            OptionSpec("from", value: "TIME", help: "window start: 2022-08-20T00:00:00Z, with an offset, or a date in --tz (default: today)"),
            OptionSpec("to", value: "TIME", help: "window end, exclusive (default: one day after --from)"),
            json, tz, me, color, help,
        ],
        examples: [
            "coolcal events --from 2022-08-20T00:00:00Z --to 2022-08-21T00:00:00Z ~/cal.ics",
            "coolcal events --from 2022-08-20 --json work.ics",
        ])

    static let buffer = OptionSpec("buffer", value: "DURATION", help: "time before and after the invitation (default: config buffer, else 2h; e.g. 90m, 1h30m, 0)")

    public static let accept = CommandSpec(
        name: "accept",
        usage: "coolcal accept [options] INVITE CAL [CAL...]",
        summary: "write the invitation into the first calendar as a VEVENT, safely",
        options: [
            OptionSpec("if-free", help: "accept only when the buffered window is free in every CAL; else exit 1, write nothing"),
            OptionSpec("dry-run", short: "n", help: "print the VEVENT that would be written; write nothing"),
            tz, me, buffer, state, server, help,
        ],
        examples: [
            "coolcal accept invite.json ~/calendars/work.ics",
            "coolcal accept --if-free invite.json ~/calendars/work.ics ~/calendars/family/",
        ])

    public static let decline = CommandSpec(
        name: "decline",
        usage: "coolcal decline [options] INVITE",
        summary: "decline an invitation (never touches a calendar)",
        options: [state, server, help],
        examples: ["coolcal decline invite.json"])

    public static let reply = CommandSpec(
        name: "reply",
        usage: "coolcal reply --me ADDRESS --accept|--decline|--tentative [options] INVITE",
        summary: "print an iTIP answer (METHOD:REPLY) to an iCalendar invitation, ready to mail",
        options: [
            OptionSpec("accept", help: "answer that you attend (PARTSTAT=ACCEPTED)"),
            OptionSpec("decline", help: "answer that you do not attend (PARTSTAT=DECLINED)"),
            OptionSpec("tentative", help: "answer that you may attend (PARTSTAT=TENTATIVE)"),
            OptionSpec("comment", value: "TEXT", help: "a note for the organizer (COMMENT)"),
            OptionSpec("me", value: "ADDRESS", repeatable: true, help: "the attendee you answer as (default: config me)"),
            help,
        ],
        examples: [
            "coolcal reply --me me@example.com --accept invite.ics > reply.ics",
            "coolcal reply --me me@example.com --decline --comment 'On holiday' invite.ics",
        ])

    public static let merge = CommandSpec(
        name: "merge",
        usage: "coolcal merge --spool DIR [options] CAL [CAL...]",
        summary: "answer every invitation in a spool directory by policy (for cron)",
        options: [
            OptionSpec("spool", value: "DIR", help: "the directory where invitations arrive (required)"),
            OptionSpec("policy", value: "POLICY", help: "accept-if-free (default), accept-all, decline-busy or report"),
            tz, me, buffer, state, server, help,
        ],
        examples: [
            "coolcal merge --spool ~/.local/share/coolcal/spool ~/calendars/work.ics",
            "*/5 * * * * coolcal merge --spool $HOME/.local/share/coolcal/spool $HOME/cal.ics",
        ])

    public static let comment = CommandSpec(
        name: "comment",
        usage: "coolcal comment [options] INVITE TEXT",
        summary: "send a comment on an invitation to the inviting server",
        options: [state, server, help],
        examples: ["coolcal comment invite.json 'Running 10 minutes late'"])

    public static let notify = CommandSpec(
        name: "notify",
        usage: "coolcal notify [options] INVITE [CAL...]",
        summary: "rewrite a push payload's notification text and badge (a push-pipeline filter)",
        options: [tz, state, help],
        examples: ["coolcal notify payload.json > shown.json", "receiver | coolcal notify - ~/cal.ics | display"])

    public static let inbox = CommandSpec(
        name: "inbox",
        usage: "coolcal inbox [options] [open ID]",
        summary: "list received invitations (newest first), or open one and mark it read",
        options: [json, tz, state, color, help],
        examples: ["coolcal inbox", "coolcal inbox open 12", "coolcal inbox --json"])

    public static let responses = CommandSpec(
        name: "responses",
        usage: "coolcal responses [options]",
        summary: "list the answers given, by the invitation's start",
        options: [json, tz, state, color, help],
        examples: ["coolcal responses", "coolcal responses --json"])

    public static let outbox = CommandSpec(
        name: "outbox",
        usage: "coolcal outbox [options] [flush]",
        summary: "show the answers waiting for the server, or deliver them now",
        options: [json, state, server, help],
        examples: ["coolcal outbox", "coolcal outbox flush"])

    public static let completions = CommandSpec(
        name: "completions",
        usage: "coolcal completions bash|zsh|fish",
        summary: "print a shell completion script",
        options: [help],
        examples: [
            "coolcal completions bash > ~/.local/share/bash-completion/completions/coolcal",
            "coolcal completions zsh > ~/.zfunc/_coolcal",
            "coolcal completions fish > ~/.config/fish/completions/coolcal.fish",
        ])

    public static let config = CommandSpec(
        name: "config",
        usage: "coolcal config [options]",
        summary: "show the effective settings and where each comes from",
        options: [tz, me, buffer, state, server, json, help],
        examples: ["coolcal config", "coolcal config --json"])

    public static let helpCommand = CommandSpec(
        name: "help",
        usage: "coolcal help [COMMAND]",
        summary: "show help for coolcal or one command",
        options: [help],
        examples: ["coolcal help conflicts"])

    public static let all: [CommandSpec] = [
        conflicts, events, accept, decline, reply, comment, merge, notify, inbox, responses, outbox, config, completions,
        helpCommand,
    ]

    public static func command(named name: String) -> CommandSpec? {
        all.first { $0.name == name }
    }
}
