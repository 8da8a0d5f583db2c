import Foundation
import CoolcalInvite
import CoolcalMail
import CoolcalModel
import CoolcalSchedule
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
            guard MessageReader.isMessage(data) else {
                try remember(key: "sha256:" + MessageReader.sha256(data), outcome: .notAMessage, inviteID: nil)
                try remember(key: nameKey, outcome: .notAMessage, inviteID: nil)
                continue
            }
            let found: MailInvitation
            let headers: MailHeaders?
            var failure: Error? = nil
            do {
                found = try MessageReader.read(data)
                headers = found.headers
            } catch let error as MessageError {
                let key = Self.key(error.headers, data)
                if let seen = try store.spools.maildirOutcome(maildir: realPath, key: key) {
                    try remember(key: nameKey, outcome: OutcomeCode(rawValue: seen) ?? .failed, inviteID: nil)
                    continue
                }
                if error.message.hasPrefix("no calendar invitation") {
                    try remember(key: key, outcome: .noInvitation, inviteID: nil)
                    try remember(key: nameKey, outcome: .noInvitation, inviteID: nil)
                    continue
                }
                found = MailInvitation(calendar: Data(), headers: error.headers ?? MailHeaders(), partType: "")
                headers = error.headers
                failure = InviteError(file: path, message: error.message)
            }
            let key = Self.key(headers, data, calendar: failure == nil ? found.calendar : nil)
            // (Older states remember a message by its Message-ID alone.)
            let legacy = Self.key(headers, data)
            if let seen = try store.spools.maildirOutcome(maildir: realPath, key: key)
                ?? (legacy != key ? store.spools.maildirOutcome(maildir: realPath, key: legacy) : nil) {
                diagnostics.note("\(path): skipped: processed by an earlier merge")
                // Known by its name from now on, with what was done with it.
                try remember(key: nameKey, outcome: OutcomeCode(rawValue: seen) ?? .failed, inviteID: nil)
                continue
            }
            let loaded: Result<InvitationFile, Error> = failure.map { .failure($0) } ?? Result {
                var file = try InviteLoader.open(found.calendar, name: path, floatingZone: floatingZone, acceptingReplies: true)
                file.invite.mail = found.headers
                return file
            }
            if case .success(let file) = loaded, !file.invite.isAttendeeTraffic, isPast(file.invite, zone: floatingZone) {
                diagnostics.note("\(path): skipped: the event is over")
                if mark { _ = try maildir.markSeen(message) }
                try remember(key: key, outcome: .past, inviteID: file.invite.id.text)
                try remember(key: nameKey, outcome: .past, inviteID: file.invite.id.text)
                continue
            }
            pending[message.name] = (message, key, try? loaded.get().invite.id.text)
            names[message.name] = nameKey
            items.append(SpoolItem(name: message.name, loaded: loaded))
        }
        return items
    }

    package func finish(_ name: String, failed: Bool, outcome: OutcomeCode, note: String) throws {
        guard let entry = pending[name] else { return }
        // Marked first, then remembered: a crash in between processes it again (answers
        // are idempotent), never loses it. A held one is never marked: it is the person's.
        if mark && !failed && outcome != .held { _ = try maildir.markSeen(entry.message) }
        try remember(key: entry.key, outcome: failed ? .failed : outcome, inviteID: entry.inviteID)
        if let nameKey = names[name] { try remember(key: nameKey, outcome: failed ? .failed : outcome, inviteID: entry.inviteID) }
    }

    package func unlock() { lock.unlock() }

    private func remember(key: String, outcome: OutcomeCode, inviteID: String?) throws {
        try store.spools.recordMaildirMessage(maildir: realPath, key: key, outcome: outcome, inviteID: inviteID, at: now)
    }

    /// `mid:` and the Message-ID — with `#` and the SHA-256 of its calendar part when it has
    /// one (two invitations under one Message-ID are two messages) — else `sha256:` and the
    /// hash of the bytes.
    package static func key(_ headers: MailHeaders?, _ data: Data, calendar: Data? = nil) -> String {
        if let id = headers?.messageID, !id.isEmpty {
            return "mid:" + id + (calendar.map { "#" + MessageReader.sha256($0) } ?? "")
        }
        return "sha256:" + MessageReader.sha256(data)
    }

    /// A Maildir file name without its info part (`:2,FLAGS`), which the mail client changes.
    package static func baseName(_ name: String) -> String {
        let file = name.split(separator: "/").last.map(String.init) ?? name
        return file.split(separator: ":", maxSplits: 1).first.map(String.init) ?? file
    }

    /// Every instance ended before now.
    private func isPast(_ invite: Invite, zone: TimeZone) -> Bool {
        let finder = ConflictFinder(buffer: Buffer(days: 0, seconds: 0), zone: zone)
        let end = invite.checked.map { instance -> Int64 in
            var single = invite.first
            single.start = instance.start
            single.end = instance.end
            return finder.span(of: single).end
        }.max() ?? Int64.max
        return end <= Int64(now.timeIntervalSince1970)
    }
}
