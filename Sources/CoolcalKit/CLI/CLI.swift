import Foundation

/// The command-line program as a function: arguments and environment in, output
/// and an exit status out. `Sources/coolcal/main.swift` only calls this.
public enum CLI {
    public static func run(_ args: [String], environment: RunEnvironment, stdout: TextSink, stderr: TextSink) -> Int32 {
        let diagnostics = Diagnostics()
        let status: ExitStatus
        do {
            let command = try CommandParser.parse(args)
            status = try execute(command, environment, stdout, diagnostics)
        } catch let error as UsageError {
            flush(diagnostics, stderr)
            stderr.write("coolcal: error: \(error.message)\n" + HelpText.usageLine(error.command))
            return ExitStatus.usage.rawValue
        } catch {
            flush(diagnostics, stderr)
            stderr.write("coolcal: error: \(error)\n")
            return ExitStatus.of(error).rawValue
        }
        flush(diagnostics, stderr)
        return status.rawValue
    }

    private static func flush(_ diagnostics: Diagnostics, _ stderr: TextSink) {
        for warning in diagnostics.warnings { stderr.write("coolcal: warning: \(warning)\n") }
    }

    private static func execute(_ command: Command, _ env: RunEnvironment, _ out: TextSink,
                                _ diagnostics: Diagnostics) throws -> ExitStatus {
        switch command {
        case .help(nil):
            out.write(HelpText.overview())
        case .help(let name?):
            if let spec = CommandTable.command(named: name) { out.write(HelpText.command(spec)) }
        case .version:
            out.write(HelpText.version + "\n")
        case .conflicts(let request):
            let settings = try Settings(request.common, env, diagnostics)
            return try ConflictsCommand(request: request, settings: settings, diagnostics: diagnostics).run(out)
        case .events(let request):
            let settings = try Settings(request.common, env, diagnostics)
            return try EventsCommand(request: request, settings: settings, diagnostics: diagnostics).run(out)
        case .accept(let request):
            let settings = try Settings(request.common, env, diagnostics)
            return try AcceptCommand(request: request, settings: settings, diagnostics: diagnostics).run(out)
        case .decline(let common, let path):
            let settings = try Settings(common, env, diagnostics)
            let invite = try InviteLoader.load(path, floatingZone: settings.zone)
            try Answers(settings: settings, common: common, diagnostics: diagnostics).record(.declined, for: invite)
            out.write("declined: \(invite.title) (id \(invite.id.text))\n")
        case .reply(let request):
            let settings = try Settings(request.common, env, diagnostics)
            try ReplyCommand(request: request, settings: settings).run(out)
        case .comment(let common, let path, let text):
            let settings = try Settings(common, env, diagnostics)
            let invite = try InviteLoader.load(path, floatingZone: settings.zone)
            try Answers(settings: settings, common: common, diagnostics: diagnostics).record(.comment, for: invite, comment: text)
            out.write("commented: \(invite.title) (id \(invite.id.text))\n")
        case .notify(let common, let path, let calendars):
            let settings = try Settings(common, env, diagnostics)
            return try NotifyCommand(settings: settings, common: common, diagnostics: diagnostics)
                .run(path: path, calendars: calendars, out)
        case .inbox(let common, let open):
            let settings = try Settings(common, env, diagnostics)
            return try InboxCommand(settings: settings, common: common, diagnostics: diagnostics).run(open: open, out)
        case .responses(let common):
            let settings = try Settings(common, env, diagnostics)
            let answers = Answers(settings: settings, common: common, diagnostics: diagnostics)
            _ = try answers.server()
            let store = try answers.open()
            try answers.deliver(store)
            out.write(ResponsesText(style: settings.style).render(try store.responses(), json: common.json))
        case .outbox(let common, let flush):
            let settings = try Settings(common, env, diagnostics)
            return try OutboxCommand(answers: Answers(settings: settings, common: common, diagnostics: diagnostics))
                .run(flush: flush, json: common.json, out)
        case .merge(let request):
            let settings = try Settings(request.common, env, diagnostics)
            return try MergeCommand(request: request, settings: settings, diagnostics: diagnostics).run(out)
        case .config(let common, let buffer):
            let settings = try Settings(common, env, diagnostics)
            let answers = Answers(settings: settings, common: common, diagnostics: diagnostics)
            out.write(ConfigReport(settings: settings, common: common, buffer: buffer, environment: env.variables,
                                   answers: answers).render(json: common.json))
        case .completions(let shell):
            out.write(Completions.script(for: shell))
        }
        return .ok
    }
}

/// Flags merged with the config file and the environment.
struct Settings {
    let zone: TimeZone
    let me: [String]
    let config: Config
    let style: TextStyle
    let now: Date
    let lockTimeout: TimeInterval
    let environment: [String: String]
    /// Where loading calendars reports warnings (a CalDAV netrc readable by others).
    let diagnostics: Diagnostics

    init(_ common: CommonRequest, _ env: RunEnvironment, _ diagnostics: Diagnostics) throws {
        self.diagnostics = diagnostics
        config = try Config.load(environment: env.variables, diagnostics: diagnostics)
        zone = try Settings.zone(common, config, env.variables, diagnostics)
        me = common.me.isEmpty ? config.me : common.me
        let noColor = !(env.variables["NO_COLOR"] ?? "").isEmpty || env.variables["TERM"] == "dumb"
        let color: Bool
        switch common.color {
        case .always: color = true
        case .never: color = false
        case .auto: color = env.stdoutIsTerminal && !noColor
        }
        style = TextStyle(locale: TextStyle.locale(environment: env.variables), zone: zone, color: color,
                          unicode: TextStyle.wantsUnicode(environment: env.variables), terminal: env.stdoutIsTerminal)
        now = env.now
        environment = env.variables
        lockTimeout = FileLock.timeout(environment: env.variables)
    }

    /// The domain for UIDs of accepted invitations.
    var domain: String { NewEvent.domain(configured: config.domain) }

    func buffer(_ flag: Buffer?) -> Buffer { flag ?? config.buffer ?? .standard }

    private static func zone(_ common: CommonRequest, _ config: Config, _ env: [String: String],
                             _ diagnostics: Diagnostics) throws -> TimeZone {
        if let name = common.tz {
            guard let zone = ZoneBook.systemZone(named: name) as? SystemZone else {
                throw UsageError("unknown time zone '\(name)' (use an IANA name such as Europe/Berlin)", command: common.command)
            }
            return zone.timeZone
        }
        if let name = config.tz {
            guard let zone = ZoneBook.systemZone(named: name) as? SystemZone else {
                throw ConfigError(message: "\(config.path ?? "config"): tz '\(name)' is not a known time zone")
            }
            return zone.timeZone
        }
        if let tz = env["TZ"], !tz.isEmpty {
            let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
            if let zone = ZoneBook.systemZone(named: name) as? SystemZone { return zone.timeZone }
            diagnostics.warn("TZ '\(tz)' is not a known time zone; using \(TimeZone.current.identifier)")
        }
        return TimeZone.current
    }

    func expansion() -> ExpansionOptions {
        ExpansionOptions(floatingZone: zone, me: me)
    }

    /// The calendars named on the command line, else those of the config file.
    func calendars(_ named: [String], command: String) throws -> [String] {
        if !named.isEmpty { return named }
        guard !config.calendars.isEmpty else {
            throw UsageError("missing a calendar (name one, or add 'calendar = PATH' to the config file)", command: command)
        }
        return config.calendars
    }

    /// Reads calendars (files, vdirs, CalDAV URLs); with a window, only what may
    /// reach it is parsed.
    func loadCalendars(_ paths: [String], window: TimeWindow? = nil) throws -> [LoadedCalendar] {
        try paths.map { try CalendarSource.load(path: $0, window: window, environment: environment, diagnostics: diagnostics) }
    }
}
