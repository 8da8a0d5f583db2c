import Foundation
import CoolcalAnswering
import CoolcalMail

extension Settings {
    /// `process`'s hand-over key (issue #48): a hash of what decides an answer — the
    /// calendars, `me` (with `--recipient`), policy, accept-from, reply, zone, buffer, and
    /// every value of the config — so a message is handed only to a holder that would
    /// answer it alike (`HandOverPlace`).
    package func handOverKey(calendars: [String], policy: MergePolicy, reply: Bool) -> String {
        var lines = ["calendars=" + calendars.joined(separator: "\u{0}"), "me=" + me.joined(separator: "\u{0}"),
                     "policy=" + policy.rawValue, "accept-from=" + acceptFrom.map(\.description).joined(separator: "\u{0}"),
                     "reply=\(reply)", "tz=" + zone.identifier, "buffer=" + String(describing: config.buffer),
                     "allow-publish=\(allowPublish)", "calendar-invitations=\(calendarInvitations)"]
        for (key, values) in config.values.sorted(by: { $0.key < $1.key }) {
            lines.append("config." + key + "=" + values.joined(separator: "\u{0}"))
        }
        return String(MessageReader.sha256(Data(lines.joined(separator: "\n").utf8)).prefix(32))
    }
}
