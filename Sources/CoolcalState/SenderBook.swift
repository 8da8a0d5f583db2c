import Foundation
import CoolcalModel

/// Whom the person has dealt with (`accept-from = known`), and what `merge` held for
/// them: the state's `known_senders` table and the inbox's `held` column. Answering an
/// invitation makes its organizer known and clears its hold (`StateStore.recordAnswer`).
public struct SenderBook {
    let database: SQLiteDatabase

    /// Whether the person answered an invitation from `address` (normalized) before.
    public func isKnown(_ address: String) throws -> Bool {
        try database.transaction(.deferred) {
            try database.prepare("SELECT 1 FROM known_senders WHERE address = ?1")
                .row([.text(CalendarAddress.normalized(address))]) { _ in true } ?? false
        }
    }

    /// Makes `address` known from now on (idempotent).
    public func rememberKnown(_ address: String, at date: Date) throws {
        let normalized = CalendarAddress.normalized(address)
        guard !normalized.isEmpty else { return }
        try database.transaction {
            try database.prepare("INSERT OR IGNORE INTO known_senders (address, since) VALUES (?1, ?2)")
                .run([.text(normalized), .real(date.timeIntervalSince1970)])
        }
    }

    /// Marks the inbox entry `id` held for this reason (nil: no longer held).
    public func markHeld(id: String, _ reason: HeldReason?) throws {
        try database.transaction {
            try database.prepare("UPDATE invitations SET held = ?2 WHERE id = ?1")
                .run([.text(id), reason.map { .text($0.rawValue) } ?? .null])
        }
    }
}

extension StateStore {
    /// The known senders and the holds.
    public var senders: SenderBook { SenderBook(database: database) }
}
