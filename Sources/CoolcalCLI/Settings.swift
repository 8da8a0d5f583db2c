import Foundation
import CoolcalAnswering
import CoolcalCalendars
import CoolcalCheck
import CoolcalICal
import CoolcalModel
import CoolcalOutput
import CoolcalSchedule
import CoolcalSupport
import CoolcalWriting
import CoolcalZones

/// Flags merged with the config file and the environment (`SettingsTable` says which
/// wins).
package struct Settings {
    /// The floating zone (`--tz`, config `tz`, `TZ`, the system's), made when first used:
    /// a run that prints no time and reads no calendar never loads ICU's zone data. A
    /// name that can be wrong is checked here, when the settings are read.
    package var zone: TimeZone { madeZone.value }
    let madeZone: Lazy<TimeZone>
    package let me: [String]
    package let config: Config
    /// How text is printed; made when first used (its locale loads ICU's data too).
    package var style: TextStyle { madeStyle.value }
    private let madeStyle: Lazy<TextStyle>
    package let now: Date
    package let lockTimeout: TimeInterval
    /// `allow-publish = yes`: merge adds published events instead of holding them.
    package let allowPublish: Bool
    /// `calendar-invitations = yes`: merge looks for invitations pending in the calendars.
    package let calendarInvitations: Bool
    /// `reply = mail`: answers are mailed to the organizer without `--reply`.
    package let replyMail: Bool
    /// `accept-from` (config lines, or `--accept-from` for one run); default `known`.
    package let acceptFrom: [AcceptFrom]
    /// Seconds per request to the inviting server (`COOLCAL_SERVER_TIMEOUT`, default 5,
    /// 0.1 to 300): a stalled server must not hang cron.
    package let serverTimeout: TimeInterval
    package let environment: [String: String]
    /// Where loading calendars reports warnings (a CalDAV netrc readable by others).
    package let diagnostics: Diagnostics

    package init(_ common: CommonOptions, _ env: RunEnvironment, _ diagnostics: Diagnostics) throws {
        self.diagnostics = diagnostics
        config = try Config.load(environment: env.variables, diagnostics: diagnostics)
        let zone = try Settings.zone(common, config, env.variables, diagnostics)
        madeZone = zone
        given = common.given
        let configured = SettingsTable.resolve(SettingsTable.me, flags: given, environment: env.variables, config: config.values).values
        me = configured + common.recipients.filter { !configured.contains($0) }
        let noColor = !(env.variables["NO_COLOR"] ?? "").isEmpty || env.variables["TERM"] == "dumb"
        let color: Bool
        switch common.color {
        case .always: color = true
        case .never: color = false
        case .auto: color = env.stdoutIsTerminal && !noColor
        }
        let variables = env.variables, terminal = env.stdoutIsTerminal
        madeStyle = Lazy {
            TextStyle(locale: TextStyle.locale(environment: variables), zone: zone.value, color: color,
                      unicode: TextStyle.wantsUnicode(environment: variables), terminal: terminal)
        }
        now = env.now
        environment = env.variables
        lockTimeout = FileLock.timeout(environment: env.variables)
        switch SettingsTable.resolve(SettingsTable.allowPublish, flags: [:], environment: env.variables, config: config.values).value {
        case nil, "no": allowPublish = false
        case "yes": allowPublish = true
        case let other?:
            throw ConfigError(message: "\(config.path ?? "config"): allow-publish must be yes or no, not '\(PrintableText.clean(other, keepNewlines: false))'")
        }
        switch SettingsTable.resolve(SettingsTable.calendarInvitations, flags: [:], environment: env.variables, config: config.values).value {
        case nil, "no": calendarInvitations = false
        case "yes": calendarInvitations = true
        case let other?:
            throw ConfigError(message: "\(config.path ?? "config"): calendar-invitations must be yes or no, not '\(PrintableText.clean(other, keepNewlines: false))'")
        }
        switch SettingsTable.resolve(SettingsTable.reply, flags: [:], environment: env.variables, config: config.values).value {
        case nil, "none": replyMail = false
        case "mail": replyMail = true
        case let other?:
            throw ConfigError(message: "\(config.path ?? "config"): reply must be mail or none, not '\(PrintableText.clean(other, keepNewlines: false))'")
        }
        serverTimeout = HTTPExchange.timeout(environment: env.variables)
        let rules = SettingsTable.resolve(SettingsTable.acceptFrom, flags: given, environment: env.variables, config: config.values)
        acceptFrom = try rules.values.isEmpty ? [.known] : rules.values.map { value in
            guard let rule = AcceptFrom(value) else {
                throw UsageError("--accept-from must be anyone, known, an address or @domain, not '\(PrintableText.clean(value, keepNewlines: false))'",
                                 command: common.command)
            }
            return rule
        }
    }

    /// Flags as typed, for `setting(_:)`.
    package let given: [String: [String]]

    /// A setting by the one precedence (flag > environment > config > default).
    package func setting(_ key: SettingKey) -> ResolvedSetting {
        SettingsTable.resolve(key, flags: given, environment: environment, config: config.values)
    }

    /// The config's `policy` (merge's default), else accept-if-free.
    package var mergePolicy: MergePolicy {
        get throws {
            guard let value = SettingsTable.resolve(SettingsTable.policy, flags: [:], environment: environment, config: config.values).value else {
                return .acceptIfFree
            }
            guard let policy = MergePolicy(rawValue: value) else {
                throw ConfigError(message: "\(config.path ?? "config"): policy must be one of "
                                  + "\(MergePolicy.allCases.map(\.rawValue).joined(separator: ", ")), not '\(PrintableText.clean(value, keepNewlines: false))'")
            }
            return policy
        }
    }

    /// The domain for UIDs of accepted invitations.
    package var domain: String { NewEvent.domain(configured: config.domain) }

    package func buffer(_ flag: Buffer?) -> Buffer { flag ?? config.buffer ?? .standard }

    /// The zone the settings name, checked now; made now only where checking it needs it.
    private static func zone(_ common: CommonOptions, _ config: Config, _ env: [String: String],
                             _ diagnostics: Diagnostics) throws -> Lazy<TimeZone> {
        if let name = common.tz {
            guard let zone = known(name) else {
                throw UsageError("unknown time zone '\(name)' (use an IANA name such as Europe/Berlin)", command: common.command)
            }
            return Lazy(made: zone)
        }
        if let name = config.tz {
            guard let zone = known(name) else { throw ConfigError(message: "\(config.path ?? "config"): tz '\(name)' is not a known time zone") }
            return Lazy(made: zone)
        }
        if let tz = env["TZ"], !tz.isEmpty {
            let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
            if universal.contains(name) { return Lazy { known(name) ?? .gmt } }
            if let zone = known(name) { return Lazy(made: zone) }
            diagnostics.warn("TZ '\(tz)' is not a known time zone; using \(TimeZone.current.identifier)")
        }
        return Lazy { TimeZone.current }
    }

    /// Names of UTC that are always known: `TZ=UTC` (a server's, cron's, the tests')
    /// needs no check, so no zone is made before it is used.
    private static let universal: Set<String> = ["UTC", "Etc/UTC", "GMT"]

    /// The system zone called `name`; nil when there is none.
    private static func known(_ name: String) -> TimeZone? {
        (ZoneBook.systemZone(named: name) as? SystemZone)?.timeZone
    }

    package func expansion() -> ExpansionOptions {
        ExpansionOptions(floatingZone: zone, me: me)
    }

    /// The calendars named on the command line, else those of the config file, each
    /// probed once (URL, directory, file).
    package func calendars(_ named: [String], command: String) throws -> [CalendarLocation] {
        try calendarOperands(named, command: command).map(CalendarLocation.init)
    }

    /// The calendar operands named, else the config file's `calendar` lines; neither
    /// is 64. `missing` says what the calendar is for (`a calendar to write to`).
    package func calendarOperands(_ named: [String], command: String, missing: String = "a calendar") throws -> [String] {
        if !named.isEmpty { return named }
        guard !config.calendars.isEmpty else {
            throw UsageError("missing \(missing) (name one, or add 'calendar = PATH' to the config file)", command: command)
        }
        return config.calendars
    }

    /// The main job's reader for this run: expansion options, environment, diagnostics.
    package var reader: CalendarReader {
        CalendarReader(options: expansion(), environment: environment, diagnostics: diagnostics)
    }

    /// A writer for calendars with this run's lock timeout and environment.
    package var writer: CalendarWriter {
        var writer = CalendarWriter(lockTimeout: lockTimeout)
        writer.environment = environment
        writer.diagnostics = diagnostics
        return writer
    }
}
