import Foundation
import CoolcalInvite
import CoolcalMail
import CoolcalModel
import CoolcalState
import CoolcalSupport

/// A Maildir as `merge`'s spool. By default nothing in it changes: every message
/// processed is remembered in the state (by Message-ID, else the SHA-256 of its bytes)
/// under the Maildir's real path and skipped by later runs. Messages without an
/// invitation are remembered and skipped silently, those whose event is wholly past
/// are remembered and skipped, those flagged `R` (answered in the mail client) are
/// skipped. With `mark`, processed messages also move to `cur/` with `S` added.
///
/// The run lock lives in the state directory (keyed by the real path), not in the
/// Maildir: a mail client or delivery agent never sees coolcal's files there.
package final class MaildirSource: MergeSource {
    package let maildir: Maildir
    package let realPath: String
    package let store: StateStore
    package let mark: Bool
    package let now: Date
    private let lock: FileLock
    private let intake: MessageIntake
    /// For each item name: its message and the key it is remembered by.
    private var pending: [String: (message: Maildir.Message, key: String, inviteID: String?)] = [:]
    /// For each item name: the key its file name is remembered by.
    private var names: [String: String] = [:]

    package var directory: String { maildir.directory }

    package init(_ maildir: Maildir, store: StateStore, mark: Bool, now: Date, lockTimeout: TimeInterval) throws {
        self.maildir = maildir
        realPath = maildir.realPath
        self.store = store
        self.mark = mark
        self.now = now
        intake = MessageIntake(store: store, realPath: maildir.realPath, now: now)
        let hash = MessageReader.sha256(Data(realPath.utf8)).prefix(32)
        lock = try FileLock(path: store.directory + "/maildir-\(hash).lock", timeout: lockTimeout)
    }

    package func items(floatingZone: TimeZone, diagnostics: Diagnostics) throws -> [SpoolItem] {
        var items: [SpoolItem] = []
        for message in try maildir.messages() {
            if message.flags.contains("R") {
                diagnostics.note("\(directory)/\(message.name): skipped: answered in the mail client (flag R)")
                continue
            }
            let path = directory + "/" + message.name
            // A message remembered by its name (the part before `:2,`) is not even opened.
            let nameKey = "name:" + Self.baseName(message.name)
            if try store.spools.maildirOutcome(maildir: realPath, key: nameKey) != nil { continue }
            let data: Data
            do {
                data = try InviteLoader.data(path)
            } catch {
                // Unreadable now (too large, or gone: the mail client moved it): not remembered.
                diagnostics.note("\(path): skipped: \(error)")
                continue
            }
            switch try intake.take(name: message.name, path: path, data: data, floatingZone: floatingZone, diagnostics: diagnostics) {
            case .skipped(let outcome):
                // Known by its name from now on, with what was done with it.
                if let outcome {
                    if outcome == .past && mark { _ = try maildir.markSeen(message) }
                    try intake.remember(key: nameKey, outcome: outcome, inviteID: nil)
                }
            case .item(let item, let key, let inviteID):
                pending[message.name] = (message, key, inviteID)
                names[message.name] = nameKey
                items.append(item)
            }
        }
        return items
    }

    package func finish(_ name: String, failed: Bool, outcome: OutcomeCode, note: String) throws {
        guard let entry = pending[name] else { return }
        // Marked first, then remembered: a crash in between processes it again (answers
        // are idempotent), never loses it. A held one is never marked: it is the person's.
        if mark && !failed && outcome != .held { _ = try maildir.markSeen(entry.message) }
        try intake.remember(key: entry.key, outcome: failed ? .failed : outcome, inviteID: entry.inviteID)
        if let nameKey = names[name] { try intake.remember(key: nameKey, outcome: failed ? .failed : outcome, inviteID: entry.inviteID) }
    }

    package func unlock() { lock.unlock() }

    /// A Maildir file name without its info part (`:2,FLAGS`), which the mail client changes.
    package static func baseName(_ name: String) -> String {
        let file = name.split(separator: "/").last.map(String.init) ?? name
        return file.split(separator: ":", maxSplits: 1).first.map(String.init) ?? file
    }
}
