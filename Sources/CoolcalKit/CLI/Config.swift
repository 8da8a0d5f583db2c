import Foundation

/// `$XDG_CONFIG_HOME/coolcal/config` (default `~/.config/coolcal/config`):
/// `key = value` lines, `#` comments. Keys: `me` (repeatable), `buffer`, `tz`, `domain`.
/// Flags override it.
public struct Config: Equatable {
    public var me: [String] = []
    public var buffer: Buffer?
    public var tz: String?
    /// The domain in UIDs of accepted invitations (`coolcal-invite-12@DOMAIN`).
    public var domain: String?
    public var path: String?

    public init() {}

    /// The path coolcal reads, from the environment.
    public static func path(environment env: [String: String]) -> String? {
        if let xdg = env["XDG_CONFIG_HOME"], !xdg.isEmpty { return xdg + "/coolcal/config" }
        if let home = env["HOME"], !home.isEmpty { return home + "/.config/coolcal/config" }
        return nil
    }

    /// Reads the file; a missing file is an empty configuration.
    public static func load(environment env: [String: String], diagnostics: Diagnostics) throws -> Config {
        guard let path = path(environment: env), FileManager.default.fileExists(atPath: path) else { return Config() }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ConfigError(message: "\(path): cannot read it as UTF-8 text")
        }
        return try parse(text, path: path, diagnostics: diagnostics)
    }

    public static func parse(_ text: String, path: String, diagnostics: Diagnostics) throws -> Config {
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
            switch key {
            case "me":
                config.me.append(value)
            case "buffer":
                guard let b = Buffer(parsing: value) else {
                    throw ConfigError(message: "\(path): line \(index + 1): buffer '\(value)' is not a duration")
                }
                config.buffer = b
            case "tz":
                config.tz = value
            case "domain":
                config.domain = value
            default:
                diagnostics.warn("\(path): line \(index + 1): unknown key '\(key)' ignored")
            }
        }
        return config
    }
}

/// A configuration file coolcal cannot use (EX_CONFIG, 78).
public struct ConfigError: Error, CustomStringConvertible, Equatable {
    public var message: String
    public var description: String { message }
}
