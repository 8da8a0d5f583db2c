import Foundation
import CoolcalModel

/// How text output looks: locale and zone for dates, colour and Unicode only where
/// the reader is a terminal that wants them.
package struct TextStyle {
    package var locale: Locale
    package var zone: TimeZone
    package var color: Bool
    package var unicode: Bool
    package var terminal: Bool

    package init(locale: Locale, zone: TimeZone, color: Bool, unicode: Bool, terminal: Bool) {
        self.locale = locale
        self.zone = zone
        self.color = color
        self.unicode = unicode
        self.terminal = terminal
    }

    /// The locale POSIX programs use: `LC_ALL`, then `LC_TIME`, then `LANG`
    /// (Foundation on Linux ignores them). `C`/`POSIX` or unset → `en_US_POSIX`.
    package static func locale(environment env: [String: String]) -> Locale {
        let raw = localeVariable(env) ?? ""
        let base = raw.split(separator: ".").first.map(String.init)?.split(separator: "@").first.map(String.init) ?? ""
        if base.isEmpty || base == "C" || base == "POSIX" { return Locale(identifier: "en_US_POSIX") }
        return Locale(identifier: base)
    }

    /// True unless the locale's codeset is something other than UTF-8.
    package static func wantsUnicode(environment env: [String: String]) -> Bool {
        guard let raw = localeVariable(env) else { return true }
        if raw == "C" || raw == "POSIX" { return false }
        guard let dot = raw.firstIndex(of: ".") else { return true }
        let codeset = raw[raw.index(after: dot)...].split(separator: "@").first.map { $0.lowercased() } ?? ""
        return codeset == "utf-8" || codeset == "utf8"
    }

    private static func localeVariable(_ env: [String: String]) -> String? {
        for key in ["LC_ALL", "LC_TIME", "LANG"] {
            if let v = env[key], !v.isEmpty { return v }
        }
        return nil
    }

    /// Text from a calendar or payload made safe to print (see `PrintableText`).
    package func printable(_ text: String, keepNewlines: Bool = false) -> String {
        PrintableText.clean(text, keepNewlines: keepNewlines)
    }

    /// Wraps `text` in an SGR sequence when colour is on.
    package func paint(_ text: String, _ sgr: String?) -> String {
        guard color, let sgr else { return text }
        return "\u{1B}[\(sgr)m\(text)\u{1B}[0m"
    }

    package func bold(_ text: String) -> String { paint(text, "1") }
    package func dim(_ text: String) -> String { paint(text, "2") }
}
