import Foundation
import CoolcalModel

/// What `merge` has processed in a Maildir it must not change: the messages are
/// remembered here (by file name, by Message-ID, else a content hash), keyed by the
/// Maildir's real path, each row with the file name it was found under (so that a
/// message gone from the Maildir is forgotten).
package struct SpoolMemory {
    let database: SQLiteDatabase

    /// The outcome recorded for this message of this Maildir, or nil when it is new.
    package func maildirOutcome(maildir: String, key: String) throws -> String? {
        try database.transaction(.deferred) {
            try database.prepare("SELECT outcome FROM maildir_messages WHERE maildir = ?1 AND key = ?2")
                .row([.text(maildir), .text(key)]) { $0.text(0) ?? "" }
        }
    }

    /// Remembers a processed message; the first outcome stays (a message is processed once).
    /// - Parameter name: the Maildir file name (without flags) it was found under; nil for
    ///   an mbox's message or a spool file.
    /// - Returns: false when it was already recorded (another merge processed it first).
    @discardableResult
    package func recordMaildirMessage(maildir: String, key: String, outcome: OutcomeCode, inviteID: String?,
                                     at date: Date, name: String? = nil) throws -> Bool {
        try database.transaction {
            try database.prepare("""
                INSERT OR IGNORE INTO maildir_messages (maildir, key, outcome, invite_id, processed_at, name)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                """).run([.text(maildir), .text(key), .text(outcome.rawValue), .optional(inviteID), .real(date.timeIntervalSince1970),
                          .optional(name)])
            return database.changes > 0
        }
    }

    /// The file names (without flags) remembered for this Maildir: one query for a run,
    /// one string made per row (each name is a slice of its key).
    package func rememberedNames(maildir: String) throws -> [Substring] {
        try database.transaction(.deferred) {
            // `name:` up to `name;` (the next byte): a range of the primary key.
            try database.prepare("SELECT key FROM maildir_messages WHERE maildir = ?1 AND key >= 'name:' AND key < 'name;'")
                .rows([.text(maildir)]) { ($0.text(0) ?? "").dropFirst(5) }
        }
    }

    /// The names of this Maildir seen missing by an earlier run, each with since when: one
    /// query for a run (empty as a rule).
    package func missingNames(maildir: String) throws -> [String: Date] {
        try database.transaction(.deferred) {
            var missing: [String: Date] = [:]
            let rows = try database.prepare("SELECT name, since FROM maildir_missing WHERE maildir = ?1")
                .rows([.text(maildir)]) { ($0.text(0) ?? "", $0.double(1)) }
            for (name, since) in rows {
                missing[name] = Date(timeIntervalSince1970: since)
            }
            return missing
        }
    }

    /// Settles what went missing from this Maildir, in one transaction: a name in
    /// `vanished` missing since `after` ago or longer is forgotten (every row recorded
    /// for it); one newly missing is noted as missing since `now`; a name noted before and
    /// no longer in `vanished` (back in the Maildir, or no longer remembered) loses its note.
    /// - Parameter missing: what `missingNames` returned for this run.
    /// - Returns: how many names were forgotten.
    package func settleMissing(maildir: String, vanished: Set<String>, missing: [String: Date], now: Date,
                              after: TimeInterval) throws -> Int {
        try database.transaction {
            let forget = try database.prepare("DELETE FROM maildir_messages WHERE maildir = ?1 AND (key = 'name:' || ?2 OR name = ?2)")
            let note = try database.prepare("INSERT OR IGNORE INTO maildir_missing (maildir, name, since) VALUES (?1, ?2, ?3)")
            let unnote = try database.prepare("DELETE FROM maildir_missing WHERE maildir = ?1 AND name = ?2")
            var forgotten = 0
            for name in vanished {
                // (A millisecond's grace: a time read back from the state may round below.)
                if let since = missing[name], now.timeIntervalSince(since) >= after - 0.001 {
                    try forget.run([.text(maildir), .text(name)])
                    try unnote.run([.text(maildir), .text(name)])
                    forgotten += 1
                } else if missing[name] == nil {
                    try note.run([.text(maildir), .text(name), .real(now.timeIntervalSince1970)])
                }
            }
            for name in missing.keys where !vanished.contains(name) { try unnote.run([.text(maildir), .text(name)]) }
            return forgotten
        }
    }

    /// How many messages of this Maildir are recorded.
    package func maildirCount(maildir: String) throws -> Int {
        try database.transaction(.deferred) {
            try Int(database.prepare("SELECT count(*) FROM maildir_messages WHERE maildir = ?1")
                .row([.text(maildir)]) { $0.int(0) } ?? 0)
        }
    }
}

extension StateStore {
    /// What merge remembers of the spools it must not change.
    package var spools: SpoolMemory { SpoolMemory(database: database) }
}
