/// Where a setting's value came from.
package enum SettingSource: Equatable, CustomStringConvertible {
    case commandLine
    case environment(String)
    case configFile
    /// Nothing was set: the built-in default, named by what it comes from ("default",
    /// "system", "TZ", "host name", "XDG_DATA_HOME").
    case fallback(String)

    package var description: String {
        switch self {
        case .commandLine: return "command line"
        case .environment(let name): return name
        case .configFile: return "config file"
        case .fallback(let what): return what
        }
    }
}

/// One setting and the places it may be given, in the one precedence every command
/// and `coolcal config` use: flag > environment > config file > default.
package struct SettingKey: Sendable {
    /// What `coolcal config` calls it: the config file's key, else the variable's name
    /// without `COOLCAL_` in lower case (`lock-timeout`).
    package var name: String
    /// The long option that sets it, on the commands that have it.
    package var flag: String?
    /// Variables that set it, the first non-empty one winning.
    package var environment: [String] = []
    /// The config file's key.
    package var configKey: String?
    /// What the default is called when nothing sets it (it may depend on the
    /// environment, like TZ for the zone: the system's own setting, not coolcal's).
    package var fallback: @Sendable ([String: String]) -> String = { _ in "default" }
    /// The name `config --json` used before (`lock timeout`), kept one release as a
    /// deprecated duplicate member.
    package var deprecatedName: String? = nil
}

/// A setting as resolved: its values (the last one counts, unless it repeats) and
/// where they came from; no values means the default applies.
package struct ResolvedSetting: Equatable {
    package var values: [String]
    package var source: SettingSource
    package var value: String? { values.last }
}

/// Every setting coolcal reads from more than one place. A new key goes here; the
/// commands read it through `Settings.setting(_:)` and `coolcal config` lists it.
package enum SettingsTable {
    package static let tz = SettingKey(name: "tz", flag: "tz", configKey: "tz",
                               fallback: { ($0["TZ"] ?? "").isEmpty ? "system" : "TZ" })
    package static let me = SettingKey(name: "me", flag: "me", configKey: "me")
    /// The user's display name in the mails coolcal sends for them.
    package static let name = SettingKey(name: "name", configKey: "name")
    package static let buffer = SettingKey(name: "buffer", flag: "buffer", configKey: "buffer")
    package static let hours = SettingKey(name: "hours", flag: "hours", configKey: "hours")
    /// Used by `conflicts`, `events`, `accept` and `merge` when they name no calendar.
    package static let calendars = SettingKey(name: "calendar", configKey: "calendar", fallback: { _ in "default" }, deprecatedName: "calendars")
    /// `merge`'s spool directory when `--spool` is not given.
    package static let spool = SettingKey(name: "spool", flag: "spool", configKey: "spool")
    /// Where `process` parks a message when the state's `parked/` cannot take it
    /// (default `${XDG_STATE_HOME:-~/.local/state}/coolcal/parked`).
    package static let parked = SettingKey(name: "parked", configKey: "parked",
                                   fallback: { ($0["XDG_STATE_HOME"] ?? "").hasPrefix("/") ? "XDG_STATE_HOME" : "default" })
    package static let domain = SettingKey(name: "domain", configKey: "domain", fallback: { _ in "host name" })
    package static let state = SettingKey(name: "state", flag: "state", environment: ["COOLCAL_STATE"],
                                  fallback: { ($0["XDG_DATA_HOME"] ?? "").isEmpty ? "default" : "XDG_DATA_HOME" })
    package static let server = SettingKey(name: "server", flag: "server", environment: ["COOLCAL_SERVER"], configKey: "server")
    package static let locale = SettingKey(name: "locale", environment: ["LC_ALL", "LC_TIME", "LANG"])
    package static let lockTimeout = SettingKey(name: "lock-timeout", environment: ["COOLCAL_LOCK_TIMEOUT"], fallback: { _ in "default" },
                                        deprecatedName: "lock timeout")
    package static let serverTimeout = SettingKey(name: "server-timeout", environment: ["COOLCAL_SERVER_TIMEOUT"], fallback: { _ in "default" },
                                          deprecatedName: "http timeout")
    package static let inputTimeout = SettingKey(name: "input-timeout", environment: ["COOLCAL_INPUT_TIMEOUT"], fallback: { _ in "default" },
                                         deprecatedName: "input timeout")
    /// The command that mails answers (`reply --send`, `--reply`), split on whitespace.
    package static let sendmail = SettingKey(name: "sendmail", environment: ["COOLCAL_SENDMAIL"], configKey: "sendmail")

    /// Whether `merge` may add published events (`METHOD:PUBLISH`, or a calendar with
    /// no method) to the calendar: `yes` or `no` (the default: held for the person).
    package static let allowPublish = SettingKey(name: "allow-publish", configKey: "allow-publish")
    /// `merge` holds an invitation whose event lasts longer (default 14 days).
    package static let maxDuration = SettingKey(name: "max-duration", configKey: "max-duration")
    /// Whose new invitations `merge` answers by itself: `anyone`, `known` (the default),
    /// an address or `@domain`; the config's lines add up, `--accept-from` replaces them.
    package static let acceptFrom = SettingKey(name: "accept-from", flag: "accept-from", configKey: "accept-from")
    /// The authserv-ids of the user's own mail server (`Authentication-Results`, RFC 8601).
    package static let trustedAuthserv = SettingKey(name: "trusted-authserv", configKey: "trusted-authserv")
    /// Whether answers are mailed to the organizer without `--reply`: `mail` or `none` (the default).
    package static let reply = SettingKey(name: "reply", configKey: "reply")
    /// `merge`'s policy when `--policy` is not given (default accept-if-free).
    package static let policy = SettingKey(name: "policy", flag: "policy", configKey: "policy")
    /// Whether `merge` looks for invitations a scheduling server put straight into the
    /// calendars: `yes` or `no` (the default; `merge --calendar-invitations` for one run).
    package static let calendarInvitations = SettingKey(name: "calendar-invitations", configKey: "calendar-invitations")
    package static let all = [tz, me, name, buffer, hours, calendars, spool, domain, state, parked, server, locale, lockTimeout, serverTimeout,
                      inputTimeout, sendmail, allowPublish, maxDuration, acceptFrom, trustedAuthserv, reply, policy, calendarInvitations]

    /// The keys a config file may hold.
    package static var configKeys: Set<String> { Set(all.compactMap(\.configKey)) }

    /// The one precedence: flag > environment > config file > default.
    package static func resolve(_ key: SettingKey, flags: [String: [String]], environment: [String: String],
                        config: [String: [String]]) -> ResolvedSetting {
        if let flag = key.flag, let values = flags[flag], !values.isEmpty { return ResolvedSetting(values: values, source: .commandLine) }
        for name in key.environment {
            if let value = environment[name], !value.isEmpty { return ResolvedSetting(values: [value], source: .environment(name)) }
        }
        if let configKey = key.configKey, let values = config[configKey], !values.isEmpty {
            return ResolvedSetting(values: values, source: .configFile)
        }
        return ResolvedSetting(values: [], source: .fallback(key.fallback(environment)))
    }
}
