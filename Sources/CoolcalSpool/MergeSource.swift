import Foundation
import CoolcalInvite
import CoolcalMail
import CoolcalModel
import CoolcalState
import CoolcalSupport

/// One invitation a `merge` run found in its spool: loaded, or why it could not be.
package struct SpoolItem {
    /// What the output calls it: the file name in a spool, `new/NAME` or `cur/NAME` in a Maildir.
    package let name: String
    package let loaded: Result<InvitationFile, Error>
}

/// Where `merge` takes invitations from: a plain spool directory (files, moved into
/// `done/` and `failed/`) or a Maildir (left alone, remembered in the state). Holds the
/// run lock from `open` until released.
package protocol MergeSource: AnyObject {
    /// The directory, as given.
    var directory: String { get }
    /// The pending invitations, in the order they are answered.
    func items(floatingZone: TimeZone, diagnostics: Diagnostics) throws -> [SpoolItem]
    /// Records what was done with the items of a run, in order (each item's `note`: the
    /// JSON or the reason kept for it; `failed`: it could not be read, and goes to
    /// `failed/`): a plain spool syncs its directories once, a mailbox remembers them all
    /// in one commit.
    func finish(_ items: [MergeFinished]) throws
    /// Whether `finish` keeps the answered items' notes (a plain spool's `NAME.outcome`):
    /// a mailbox keeps none, and its run does not make them.
    var keepsNotes: Bool { get }
    /// `merge --policy report`: remembers what the run reported, apart from what real runs
    /// answered, so that the next report run is silent about it and a real run still
    /// answers it (a mailbox's messages; a plain spool reports its files every time).
    func remember(reported items: [MergeFinished]) throws
    /// The run is over: what it answered is recorded and the outbox delivered (a Maildir
    /// leaves its stamp for the next run: `MaildirSource.unchanged`).
    func ended() throws
    /// Releases the run lock.
    func unlock()
}

/// One item `merge` is done with, for `MergeSource.finish`.
package struct MergeFinished {
    package var name: String
    package var failed: Bool
    package var outcome: OutcomeCode
    package var note: String

    /// The memberwise initializer, for the targets above.
    package init(name: String, failed: Bool, outcome: OutcomeCode, note: String) {
        self.name = name
        self.failed = failed
        self.outcome = outcome
        self.note = note
    }
}

extension MergeSource {
    package var keepsNotes: Bool { false }

    package func remember(reported items: [MergeFinished]) throws {}

    package func ended() throws {}
}

/// A mailbox (a Maildir, an mbox): its messages are remembered in the state, not moved,
/// so a `--policy report` run remembers what it reported as a real run remembers what it
/// finished, in the report run's own memory (`MailboxKeys.memory`).
package protocol MailboxSource: MergeSource {}

extension MailboxSource {
    /// A report run's items, remembered (in its own memory) as reported.
    package func remember(reported items: [MergeFinished]) throws {
        try finish(items.map { MergeFinished(name: $0.name, failed: false, outcome: $0.outcome, note: "") })
    }
}

package enum MergeSources {
    /// A Maildir (a directory with `cur/` and `new/`), an mbox file, else a plain spool; the run lock is
    /// taken before anything is listed. `state` opens the state (a Maildir's record and lock).
    /// - Throws: 66 for a missing directory, 75 when another merge holds the lock.
    /// `report`: a `--policy report` run, whose mailbox memory is its own.
    package static func open(_ directory: String, mark: Bool, now: Date, lockTimeout: TimeInterval, report: Bool = false,
                            state: () throws -> StateStore) throws -> MergeSource {
        if Maildir.isMaildir(directory) {
            return try MaildirSource(Maildir(directory: directory), store: state(), mark: mark, now: now,
                                     lockTimeout: lockTimeout, report: report)
        }
        if MboxSource.isMbox(directory) {
            return try MboxSource(path: directory, store: state(), now: now, lockTimeout: lockTimeout, report: report)
        }
        let spool = Spool(directory: directory)
        // Checked before the run lock: a missing spool is 66 naming it, not a failure
        // to create the lock file inside it.
        _ = try spool.pending()
        let lock = try FileLock(path: directory + "/.coolcal-merge.lock", timeout: lockTimeout)
        return PlainSource(spool: spool, lock: lock, store: try state(), now: now)
    }
}

/// Today's spool: every pending file is an invitation; answered ones move to `done/`
/// with a `.outcome` note, unreadable ones to `failed/` with a `.reason`. A held one
/// stays where it is, for the person, and is remembered in the state (by the spool's
/// real path and the file's SHA-256, as a Maildir's messages are) so that later runs
/// do not report it again; changed, it is news and decided again.
package final class PlainSource: MergeSource {
    package let spool: Spool
    package let lock: FileLock
    package let store: StateStore
    package let now: Date
    private let realPath: String
    /// For each item name, the key a held one is remembered by.
    private var keys: [String: String] = [:]
    package var directory: String { spool.directory }
    package var keepsNotes: Bool { true }

    package init(spool: Spool, lock: FileLock, store: StateStore, now: Date) {
        self.spool = spool
        self.lock = lock
        self.store = store
        self.now = now
        realPath = URL(fileURLWithPath: spool.directory).resolvingSymlinksInPath().path
    }

    package func items(floatingZone: TimeZone, diagnostics: Diagnostics) throws -> [SpoolItem] {
        var items: [SpoolItem] = []
        for name in try spool.pending(diagnostics: diagnostics) {
            let path = directory + "/" + name
            guard let data = try? InviteLoader.data(path) else {
                // Unreadable: the loader says why, and it goes to failed/.
                items.append(SpoolItem(name: name, loaded: Result { try InviteLoader.open(path, floatingZone: floatingZone) }))
                continue
            }
            let key = "sha256:" + MessageReader.sha256(data)
            if try store.spools.maildirOutcome(maildir: realPath, key: key) == OutcomeCode.held.rawValue {
                diagnostics.note("\(path): skipped: held for you earlier (coolcal inbox --held)")
                continue
            }
            keys[name] = key
            items.append(SpoolItem(name: name, loaded: Result { try InviteLoader.open(data, name: InputFile.displayName(path), floatingZone: floatingZone, acceptingReplies: true) }))
        }
        return items
    }

    package func finish(_ items: [MergeFinished]) throws {
        for item in items where item.outcome == .held {
            guard let key = keys[item.name] else { continue }
            try store.spools.recordMaildirMessage(maildir: realPath, key: key, outcome: .held, inviteID: nil, at: now)
        }
        try spool.finish(items.filter { $0.outcome != .held }.map { ($0.name, $0.failed, $0.note) })
    }

    package func unlock() { lock.unlock() }
}
