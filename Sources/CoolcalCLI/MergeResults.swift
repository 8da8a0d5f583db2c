import Foundation
import CoolcalInvite
import CoolcalModel
import CoolcalSupport

/// What `merge` did with each invitation: a line per invitation as it goes, or with
/// `--json` one document at the end (`{"spool", "outcomes": [...]}`).
package struct MergeResults {
    package let json: Bool
    private var outcomes: [JSONValue] = []

    package init(json: Bool) {
        self.json = json
    }

    /// `outcome` (accepted, declined, busy, free, ignored, cancelled, failed) for `name`;
    /// `invite` nil when it could not be read (`detail` is then the reason).
    /// With `-q` only the lines that need a person are printed: an invitation that
    /// failed or stayed busy.
    package mutating func add(_ context: RunContext, _ outcome: String, _ name: String, _ invite: Invite?, _ detail: String) {
        guard json else {
            let padded = outcome.padding(toLength: 9, withPad: " ", startingAt: 0)
            let line = invite.map { "\(padded) \(name)  \($0.title)  \($0.start.jsonString)  (\(detail))" } ?? "\(padded) \(name)"
            if context.common.quiet && (outcome == "busy" || outcome == "failed") {
                return context.out.write(PrintableText.clean(line) + "\n")
            }
            return context.say(line)
        }
        var fields: [(String, JSONValue)] = [("name", .string(name)), ("outcome", .string(outcome))]
        if let invite {
            fields += [
                ("id", .string(invite.id.text)), ("title", .string(invite.title)),
                ("start", .string(invite.start.jsonString)), ("end", .string(invite.end.jsonString)),
                ("detail", .string(detail)),
            ]
            if let mail = invite.mail {
                fields.append(("from", mail.from.map(JSONValue.string) ?? .null))
                fields.append(("subject", mail.subject.map(JSONValue.string) ?? .null))
                fields.append(("message_id", mail.messageID.map(JSONValue.string) ?? .null))
            }
        } else {
            fields.append(("error", .string(detail)))
        }
        outcomes.append(.object(fields))
    }

    package func document(_ spool: String) -> String {
        JSONWriter.string(.object([("spool", .string(spool)), ("outcomes", .array(outcomes))]))
    }
}
