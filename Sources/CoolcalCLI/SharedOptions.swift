import CoolcalSchedule

/// The options several commands share, each declared once.
package enum SharedOptions {
    package static let json = Flag("json", help: "print JSON for programs (see coolcal(1) for the fields)")
    package static let tz = Option<String>("tz", value: "ZONE", help: "zone for all-day dates, floating times and output (default: config tz, TZ, the system zone)")
    package static let me = Option<String>("me", value: "ADDRESS", repeatable: true, completion: .none, help: "your calendar address; events you declined are free (repeatable; config: me)")
    package static let color = Option<ColorChoice>("color", value: "WHEN", help: "colour: auto (on a terminal unless NO_COLOR is set), always or never")
    package static let state = Option<String>("state", value: "DIR", completion: .directory, help: "where answers, the inbox and the outbox live (default: COOLCAL_STATE, $XDG_DATA_HOME/coolcal)")
    package static let server = Option<String>("server", value: "URL", completion: .none, help: "the inviting server that answers go to (default: COOLCAL_SERVER, config server)")
    package static let buffer = Option<Buffer>("buffer", value: "DURATION", completion: .none, help: "time before and after the invitation (default: config buffer, else 2h; e.g. 90m, 1h30m, 0)")
    package static let quiet = Flag("quiet", short: "q", help: "print nothing but errors and warnings; the exit status tells")
    package static let verbose = Flag("verbose", short: "v", help: "say on stderr what was done and why (what was read, parsed, written, sent)")
    package static let help = Flag("help", short: "h", help: "show this help")
    package static let reply = Flag("reply", help: "also mail the iTIP REPLY to the organizer of an iCalendar invitation, once per answer and version (through sendmail; queued when it fails; default: config reply)")
    package static let noReply = Flag("no-reply", help: "mail no answer this time, whatever the config's reply key says")

    /// What commands that answer an invitation take: where the answer is kept and sent.
    package static let answering = [state.spec, server.spec, quiet.spec]
    /// What commands that write a calendar take, besides their own.
    package static let writing = [tz.spec, me.spec, buffer.spec] + answering
    /// What commands that list the state take.
    package static let listing = [json.spec, tz.spec, state.spec, color.spec]
}

/// When to colour output.
public enum ColorChoice: String, Equatable, Sendable, CaseIterable, ArgumentValue {
    case auto, always, never

    package init?(argument: String) { self.init(rawValue: argument) }
    package static var choices: [String]? { allCases.map(\.rawValue) }
    package static func invalid(_ text: String, option: String) -> String {
        "--\(option) must be auto, always or never, not '\(text)'"
    }
}

/// The options that shape a run's settings, read from any command's arguments (an
/// option the command does not declare is simply absent).
package struct CommonOptions: Equatable {
    package var json = false
    package var tz: String?
    package var me: [String] = []
    package var color: ColorChoice = .auto
    /// `--state DIR`.
    package var state: String?
    /// `--server URL`.
    package var server: String?
    package var quiet = false
    package var verbose = false
    /// The command they belong to, for usage messages.
    package var command: String?
    /// `process --recipient`: addresses added to `me` (the configured one or `--me`).
    package var recipients: [String] = []
    /// Every valued option as typed, by long name: where `SettingsTable` looks first.
    package var given: [String: [String]] = [:]

    package init(command: String? = nil) { self.command = command }

    package init(_ p: ParsedArguments) throws {
        command = p.command
        json = p.has(SharedOptions.json)
        tz = try p.value(SharedOptions.tz)
        me = try p.all(SharedOptions.me)
        color = try p.value(SharedOptions.color) ?? .auto
        state = try p.value(SharedOptions.state)
        server = try p.value(SharedOptions.server)
        quiet = p.has(SharedOptions.quiet)
        verbose = p.has(SharedOptions.verbose)
        given = p.values
    }
}

extension Buffer: ArgumentValue {
    package init?(argument: String) { self.init(parsing: argument) }
    package static func invalid(_ text: String, option: String) -> String {
        Buffer.isTooLong(text) ? "--\(option) '\(text)' is longer than the limit of \(Buffer.maximumDays) days"
            : "--\(option) '\(text)' is not a duration (e.g. 2h, 90m, 1h30m, 0)"
    }
}

extension WorkingHours: ArgumentValue {
    package init?(argument: String) { self.init(parsing: argument) }
    package static func invalid(_ text: String, option: String) -> String {
        "--\(option) '\(text)' is not a range like 09:00-18:00"
    }
}
