import Foundation
import CoolcalAnswering
import CoolcalModel
import CoolcalSchedule
import CoolcalSupport

/// `$XDG_CONFIG_HOME/coolcal/config` (default `~/.config/coolcal/config`):
/// `key = value` lines, `#` comments. Keys: those of `SettingsTable` (`me` and
/// `calendar` repeat; `~/` in `calendar` and `spool` is `$HOME/`). Flags and coolcal's environment variables override it.
public struct Config: Equatable {
    public var me: [String] = []
    public var buffer: Buffer?
    public var tz: String?
    /// The domain in UIDs of accepted invitations (`coolcal-invite-12@DOMAIN`).
    public var domain: String?
    /// `name`: the user's display name in the mails coolcal sends (From, the CN of their ATTENDEE).
    public var name: String?
    /// Working hours for `--suggest`.
    public var hours: WorkingHours?
    /// Calendars used when a command names none.
    public var calendars: [String] = []
    /// The inviting server's base URL.
    public var server: String?
    /// `max-duration`: `merge` holds an invitation with an instance longer than this, or
    /// busy longer than this in some 30 days (default 14 days).
    public var maxDuration: Buffer?
    public var path: String?
    /// Every value as written, by key (calendars with `~/` expanded), for `SettingsTable`.
    public var values: [String: [String]] = [:]

    public init() {}

    /// The path coolcal reads, from the environment.
    public static func path(environment env: [String: String]) -> String? {
        if let xdg = env["XDG_CONFIG_HOME"], !xdg.isEmpty { return xdg + "/coolcal/config" }
        if let home = env["HOME"], !home.isEmpty { return home + "/.config/coolcal/config" }
        return nil
    }

    /// A config file larger than this is refused.
    public static let maxBytes = 1 << 20

    /// Reads the file; a missing file is an empty configuration.
    public static func load(environment env: [String: String], diagnostics: Diagnostics) throws -> Config {
        guard let path = path(environment: env), FileManager.default.fileExists(atPath: path) else { return Config() }
        // Through the one opener: a FIFO or a device there is refused, not read forever.
        let data: Data
        do {
            data = try InputFile.read(path, limit: maxBytes, accepting: .regularFiles)
        } catch let error as InputTooLarge {
            throw ConfigError(message: "\(path): too large (\(error.size.map { "\($0) bytes" } ?? "more than that")); at most \(maxBytes) bytes")
        } catch {
            throw ConfigError(message: "\(error)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(message: "\(path): cannot read it as UTF-8 text")
        }
        return try parse(text, path: path, diagnostics: diagnostics, env: env)
    }

    /// `~/x` → `$HOME/x`, as a shell would have done for a flag.
    package static func expandTilde(_ path: String, env: [String: String]) -> String {
        guard path.hasPrefix("~/"), let home = env["HOME"], !home.isEmpty else { return path }
        return home + path.dropFirst()
    }

    public static func parse(_ text: String, path: String, diagnostics: Diagnostics,
                             env: [String: String] = [:]) throws -> Config {
        var config = Config()
        config.path = path
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let eq = line.firstIndex(of: "=") else {
                throw ConfigError(message: "\(path): line \(index + 1): expected 'key = value'")
            }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            guard SettingsTable.configKeys.contains(key) else {
                let meant = suggestion(for: key, among: SettingsTable.configKeys.sorted()).map { " (did you mean '\($0)'?)" } ?? ""
                diagnostics.warn("\(path): line \(index + 1): unknown key '\(key)' ignored\(meant)")
                continue
            }
            config.values[key, default: []].append(key == "calendar" || key == "spool" || key == "parked" ? expandTilde(value, env: env) : value)
            switch key {
            case "me":
                config.me.append(value)
            case "buffer":
                guard let b = Buffer(parsing: value) else {
                    let why = Buffer.isTooLong(value) ? "is longer than the limit of \(Buffer.maximumDays) days" : "is not a duration"
                    throw ConfigError(message: "\(path): line \(index + 1): buffer '\(value)' \(why)")
                }
                config.buffer = b
            case "max-duration":
                guard let d = Buffer(parsing: value), d.days * 86_400 + d.seconds > 0 else {
                    let why = Buffer.isTooLong(value) ? "is longer than the limit of \(Buffer.maximumDays) days" : "is not a duration"
                    throw ConfigError(message: "\(path): line \(index + 1): max-duration '\(value)' \(why)")
                }
                config.maxDuration = d
            case "accept-from":
                guard AcceptFrom(value) != nil else {
                    throw ConfigError(message: "\(path): line \(index + 1): accept-from '\(value)' is not anyone, known, an address or @domain")
                }
            case "trusted-authserv":
                guard !value.contains(where: { $0.isWhitespace || $0 == ";" }) else {
                    throw ConfigError(message: "\(path): line \(index + 1): trusted-authserv '\(value)' is not an authserv-id (one word, as your server writes it)")
                }
            case "tz":
                config.tz = value
            case "domain":
                config.domain = value
            case "name":
                config.name = value
            case "hours":
                guard let h = WorkingHours(parsing: value) else {
                    throw ConfigError(message: "\(path): line \(index + 1): hours '\(value)' is not a range like 09:00-18:00")
                }
                config.hours = h
            case "calendar":
                config.calendars.append(expandTilde(value, env: env))
            case "server":
                config.server = value
            default:
                break
            }
        }
        return config
    }
}

