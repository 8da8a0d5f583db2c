import Foundation
import CoolcalMail

/// What a mailbox spool (a Maildir, an mbox file) is known by in the state: its real path.
enum MailboxKeys {
    /// What its messages are remembered under: the real path, or for a `--policy report`
    /// run `report:` and it (what a report run saw is not what a real run answered).
    static func memory(realPath: String, report: Bool) -> String {
        (report ? "report:" : "") + realPath
    }

    /// A file of the mailbox's in the state directory: `maildir-HASH.SUFFIX`, HASH from `key`.
    static func file(in stateDirectory: String, key: String, suffix: String) -> String {
        stateDirectory + "/maildir-\(MessageReader.sha256(Data(key.utf8)).prefix(32)).\(suffix)"
    }
}
