import Foundation
import CoolcalInvite
import CoolcalModel
import CoolcalState
import CoolcalSupport

/// A Maildir as `merge`'s spool. By default nothing in it changes: every message
/// processed is remembered in the state (by its file name, which a later run checks
/// without opening the file; by Message-ID, else the SHA-256 of its bytes) under the
/// Maildir's real path and skipped by later runs; messages missing from it for a day are forgotten. Messages without an
/// invitation are remembered and skipped silently, those whose event is wholly past
/// are remembered and skipped, those flagged `R` (answered in the mail client) are
/// skipped. With `mark`, processed messages also move to `cur/` with `S` added.
///
/// The run lock lives in the state directory (keyed by the real path), not in the
/// Maildir: a mail client or delivery agent never sees coolcal's files there.
package final class MaildirSource: MailboxSource {
    package let maildir: Maildir
    package let realPath: String
    /// What its messages are remembered under: the real path, or for a `--policy report`
    /// run `report:` and the real path (what a report run saw is not what a real run answered).
    package let memory: String
    package let store: StateStore
    package let mark: Bool
    package let now: Date
    private let lock: FileLock
    private let intake: MessageIntake
    /// For each item name: its message and the key it is remembered by.
    private var pending: [String: (message: Maildir.Message, key: String, inviteID: String?)] = [:]
    /// For each item name: its file name without flags, which it is remembered by too.
    private var names: [String: String] = [:]
    /// The items remembered so far.
    private var finished: Set<String> = []
    /// The digest of the listing; nil before `items`. (A run that marks what it processed
    /// has written the state too, so it leaves no stamp: the next run, finding the
    /// renamed names and writing nothing, does.)
    private var listing: ListingDigest?
    /// Whether a message listed was left as it was (unreadable now): the next run must look again.
    private var unsettled = false
    /// When a name noted missing is due to be forgotten.
    private var due: Date?

    package var directory: String { maildir.directory }

    package init(_ maildir: Maildir, store: StateStore, mark: Bool, now: Date, lockTimeout: TimeInterval, report: Bool = false) throws {
        self.maildir = maildir
        realPath = maildir.realPath
        memory = MailboxKeys.memory(realPath: realPath, report: report)
        self.store = store
        // A report run changes nothing in the Maildir.
        self.mark = mark && !report
        self.now = now
        intake = MessageIntake(store: store, realPath: memory, now: now)
        lock = try FileLock(path: MailboxKeys.file(in: store.directory, key: realPath, suffix: "lock"), inState: true, timeout: lockTimeout)
    }

    package func items(floatingZone: TimeZone, diagnostics: Diagnostics) throws -> [SpoolItem] {
        var items: [SpoolItem] = []
        let (listed, digest) = try maildir.listed()
        listing = digest
        // What earlier runs saw, by file name, in one query: such a message is not even
        // opened, nor is a string made for its name; only the new ones are sorted.
        var remembered = RememberedNames(try store.spools.rememberedNames(maildir: memory))
        let fresh = Maildir.ordered(listed.filter { !remembered.contains(listing: RememberedNames.baseName($0.file)) })
        try forgetVanished(remembered, listedAny: !listed.isEmpty, diagnostics: diagnostics)
        for message in fresh {
            let base = String(RememberedNames.baseName(message.file))
            if message.flags.contains("R") {
                diagnostics.note("\(directory)/\(message.name): skipped: answered in the mail client (flag R)")
                continue
            }
            let path = directory + "/" + message.name
            let data: Data
            do {
                data = try InviteLoader.data(path)
            } catch {
                // Unreadable now (too large, or gone: the mail client moved it): not
                // remembered, and looked at again by the next run.
                diagnostics.note("\(path): skipped: \(error)")
                unsettled = true
                continue
            }
            // Known by its name from now on, with what was done with it.
            let known = { (outcome: OutcomeCode) in
                if outcome == .past && self.mark { _ = try self.maildir.markSeen(message) }
                try self.intake.remember(key: "name:" + base, outcome: outcome, inviteID: nil, name: base)
            }
            switch try intake.take(name: message.name, path: path, data: data, floatingZone: floatingZone, diagnostics: diagnostics,
                                   fileName: base) {
            case .skipped(let outcome): if let outcome { try known(outcome) }
            case .seen(let outcome): try known(outcome)
            case .bounded(let reason):
                diagnostics.warn("\(path): \(reason)")
                try known(.noInvitation)
            case .item(let item, let key, let inviteID):
                pending[message.name] = (message, key, inviteID)
                names[message.name] = base
                items.append(item)
            }
        }
        try intake.flush()
        return items
    }

    /// Forgets the messages remembered under names missing from the Maildir for a day
    /// (deleted, or moved to another folder), so the state does not grow with the mail
    /// ever received; a name missing for less is only noted (a message moved from `new/`
    /// to `cur/` between the two directory reads is not gone). A Maildir that lists empty
    /// while names are remembered (a file system not mounted) forgets nothing.
    private func forgetVanished(_ remembered: RememberedNames, listedAny: Bool, diagnostics: Diagnostics) throws {
        guard listedAny else { return }
        let vanished = remembered.unlisted
        let missing = try store.spools.missingNames(maildir: memory)
        guard !vanished.isEmpty || !missing.isEmpty else { return }
        let forgotten = try store.spools.settleMissing(maildir: memory, vanished: vanished, missing: missing, now: now,
                                                       after: Self.forgetAfter)
        // The next run is due a day after the first of them went (or sooner: those just forgotten count too).
        let since = vanished.map { missing[$0] ?? now }
        due = since.count > forgotten ? since.min().map { $0.addingTimeInterval(Self.forgetAfter) } : nil
        if forgotten > 0 {
            diagnostics.note("\(directory): forgot \(forgotten) message\(forgotten == 1 ? "" : "s") missing from the Maildir for a day")
        }
    }

    /// How long a remembered message must be missing before it is forgotten.
    package static let forgetAfter: TimeInterval = 24 * 3600

    /// Every item of a run remembered in one commit. Marked first, then remembered: a
    /// crash in between processes it again (answers are idempotent), never loses it. A
    /// held one is never marked: it is the person's.
    package func finish(_ items: [MergeFinished]) throws {
        for item in items {
            guard let entry = pending[item.name] else { continue }
            if mark && !item.failed && item.outcome != .held { _ = try maildir.markSeen(entry.message) }
            try record(item.name, entry, failed: item.failed, outcome: item.outcome)
            finished.insert(item.name)
        }
        try intake.flush()
    }

    /// Remembers item `name` by its key and its file name (held until `intake.flush()`).
    private func record(_ name: String, _ entry: (message: Maildir.Message, key: String, inviteID: String?),
                        failed: Bool, outcome: OutcomeCode) throws {
        let base = names[name]
        try intake.remember(key: entry.key, outcome: failed ? .failed : outcome, inviteID: entry.inviteID, name: base)
        if let base { try intake.remember(key: "name:" + base, outcome: failed ? .failed : outcome, inviteID: entry.inviteID, name: base) }
    }

    /// Leaves the stamp that lets the next run see, without opening the state, that
    /// nothing changed (`MaildirStamp`): when every message listed is settled (remembered,
    /// or left for its `R` flag, which is in its name), no answer waits in the outbox and
    /// no write-ahead log holds frames (this run wrote nothing: a run that wrote leaves
    /// the stamp to the next). Otherwise removes it.
    package func ended() throws {
        let path = MaildirStamp.path(stateDirectory: store.directory, memory: memory)
        guard let listing, !unsettled, pending.keys.allSatisfy(finished.contains), try store.outbox.entries().allSatisfy({ $0.state == .failed }),
              let state = StateMark.of(directory: store.directory) else {
            MaildirStamp.remove(path)
            return
        }
        try MaildirStamp(memory: memory, listing: listing, state: state, due: due).write(path)
    }

    package func unlock() { lock.unlock() }
}
