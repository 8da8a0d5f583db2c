import Foundation
import CoolcalModel

/// What `merge` has processed in a Maildir it must not change: the messages are
/// remembered here (by Message-ID, else a content hash), keyed by the Maildir's real path.
public struct SpoolMemory {
    let database: SQLiteDatabase

    /// The outcome recorded for this message of this Maildir, or nil when it is new.
    public func maildirOutcome(maildir: String, key: String) throws -> String? {
        try database.transaction(.deferred) {
            try database.prepare("SELECT outcome FROM maildir_messages WHERE maildir = ?1 AND key = ?2")
                .row([.text(maildir), .text(key)]) { $0.text(0) ?? "" }
        }
    }

    /// Remembers a processed message; the first outcome stays (a message is processed once).
    /// - Returns: false when it was already recorded (another merge processed it first).
    @discardableResult
    public func recordMaildirMessage(maildir: String, key: String, outcome: OutcomeCode, inviteID: String?,
                                     at date: Date) throws -> Bool {
        try database.transaction {
            try database.prepare("""
                INSERT OR IGNORE INTO maildir_messages (maildir, key, outcome, invite_id, processed_at)
                VALUES (?1, ?2, ?3, ?4, ?5)
                """).run([.text(maildir), .text(key), .text(outcome.rawValue), .optional(inviteID), .real(date.timeIntervalSince1970)])
            return database.changes > 0
        }
    }

    /// How many messages of this Maildir are recorded.
    public func maildirCount(maildir: String) throws -> Int {
        try database.transaction(.deferred) {
            try Int(database.prepare("SELECT count(*) FROM maildir_messages WHERE maildir = ?1")
                .row([.text(maildir)]) { $0.int(0) } ?? 0)
        }
    }
}

extension StateStore {
    /// What merge remembers of the spools it must not change.
    public var spools: SpoolMemory { SpoolMemory(database: database) }
}
