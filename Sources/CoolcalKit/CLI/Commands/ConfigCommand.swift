import Foundation

/// `coolcal config`: every effective setting and where it came from.
struct ConfigCommand: CommandUnit, Equatable {
    static let spec = CommandSpec(
        name: "config",
        usage: "coolcal config [options]",
        summary: "show the effective settings and where each comes from",
        options: [SharedOptions.tz.spec, SharedOptions.me.spec, SharedOptions.buffer.spec, SharedOptions.state.spec,
                  SharedOptions.server.spec, SharedOptions.json.spec],
        examples: ["coolcal config", "coolcal config --json"])

    var common: CommonOptions
    var buffer: Buffer?

    init(_ p: ParsedArguments) throws {
        guard p.operands.isEmpty else { throw p.usage("config takes no arguments") }
        common = try CommonOptions(p)
        buffer = try p.value(SharedOptions.buffer)
    }

    func run(_ context: RunContext) throws -> ExitStatus {
        let report = ConfigReport(settings: try context.settings, common: common, buffer: buffer,
                                  environment: context.environment.variables, answers: try context.answers)
        context.out.write(report.render(json: common.json))
        return .ok
    }
}

/// The rows `coolcal config` shows.
struct ConfigReport {
    let settings: Settings
    let common: CommonOptions
    let buffer: Buffer?
    let environment: [String: String]
    let answers: Answers

    private var rows: [(key: String, value: String, source: String)] {
        let config = settings.config
        let file = config.path ?? Config.path(environment: environment) ?? "(no HOME)"
        func source(flag: Bool, config inConfig: Bool, otherwise: String) -> String {
            flag ? "command line" : inConfig ? "config file" : otherwise
        }
        let tzSource = common.tz != nil ? "command line" : config.tz != nil ? "config file"
            : (environment["TZ"].map { !$0.isEmpty } ?? false) ? "TZ" : "system"
        let localeSource = ["LC_ALL", "LC_TIME", "LANG"].first { !(environment[$0] ?? "").isEmpty } ?? "default"
        return [
            ("config", file, config.path != nil ? "found" : "not found"),
            ("tz", SystemZone(settings.zone).identifier, tzSource),
            ("me", settings.me.isEmpty ? "(none)" : settings.me.joined(separator: ", "),
             source(flag: !common.me.isEmpty, config: !config.me.isEmpty, otherwise: "default")),
            ("buffer", (buffer ?? config.buffer ?? .standard).description,
             source(flag: buffer != nil, config: config.buffer != nil, otherwise: "default")),
            ("hours", (config.hours ?? .standard).description, source(flag: false, config: config.hours != nil, otherwise: "default")),
            ("calendars", config.calendars.isEmpty ? "(none)" : config.calendars.joined(separator: ", "),
             source(flag: false, config: !config.calendars.isEmpty, otherwise: "default")),
            ("domain", settings.domain, source(flag: false, config: config.domain != nil, otherwise: "host name")),
            ("state", answers.stateDirectory, common.state != nil ? "command line"
                : (environment["COOLCAL_STATE"].map { !$0.isEmpty } ?? false) ? "COOLCAL_STATE"
                : (environment["XDG_DATA_HOME"].map { !$0.isEmpty } ?? false) ? "XDG_DATA_HOME" : "default"),
            ("server", ((try? answers.server()) ?? nil).map(RSVPClient.redacted) ?? config.server.map { _ in "(not a usable URL)" } ?? "(none)",
             common.server != nil ? "command line"
                : (environment["COOLCAL_SERVER"].map { !$0.isEmpty } ?? false) ? "COOLCAL_SERVER"
                : config.server != nil ? "config file" : "default"),
            ("locale", settings.style.locale.identifier, localeSource),
            ("lock timeout", String(format: "%g s", settings.lockTimeout),
             environment["COOLCAL_LOCK_TIMEOUT"] != nil ? "COOLCAL_LOCK_TIMEOUT" : "default"),
        ]
    }

    func render(json: Bool) -> String {
        if json {
            return JSONWriter.string(.object(rows.map {
                ($0.key, .object([("value", .string($0.value)), ("source", .string($0.source))]))
            }))
        }
        return rows.map { row in
            row.key.padding(toLength: 14, withPad: " ", startingAt: 0) + row.value + "  (" + row.source + ")\n"
        }.joined()
    }
}
