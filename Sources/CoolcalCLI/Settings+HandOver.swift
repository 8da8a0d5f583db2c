import Foundation
import CoolcalAnswering
import CoolcalMail

extension Settings {
    /// `process`'s hand-over key (issue #48): a hash of everything that decides an answer,
    /// so a message is handed only to a holder that would answer it alike
    /// (`HandOverPlace`): the working directory (a calendar named by a relative path is
    /// another file elsewhere), the calendars, `me` (with `--recipient`), policy,
    /// accept-from, reply and zone as this run resolved them, every setting of
    /// `SettingsTable` by its one precedence (the inviting server, sendmail, buffer, state,
    /// locale… from flags, environment or config), every value of the config file, and
    /// where credentials come from (`HOME`, `NETRC`).
    package func handOverKey(calendars: [String], policy: MergePolicy, reply: Bool) -> String {
        var lines = ["cwd=" + FileManager.default.currentDirectoryPath,
                     "calendars=" + calendars.joined(separator: "\u{0}"), "me=" + me.joined(separator: "\u{0}"),
                     "policy=" + policy.rawValue, "accept-from=" + acceptFrom.map(\.description).joined(separator: "\u{0}"),
                     "reply=\(reply)", "tz=" + zone.identifier]
        for key in SettingsTable.all {
            lines.append("setting." + key.name + "=" + setting(key).values.joined(separator: "\u{0}"))
        }
        for (key, values) in config.values.sorted(by: { $0.key < $1.key }) {
            lines.append("config." + key + "=" + values.joined(separator: "\u{0}"))
        }
        for name in ["HOME", "NETRC"] { lines.append("env." + name + "=" + (environment[name] ?? "")) }
        return String(MessageReader.sha256(Data(lines.joined(separator: "\n").utf8)).prefix(32))
    }
}
