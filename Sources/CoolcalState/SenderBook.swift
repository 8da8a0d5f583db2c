import Foundation
import CoolcalModel

/// Whom the person has dealt with (`accept-from = known`), and what `merge` held for
/// them: the state's `known_senders` table and the inbox's `held` column. Accepting an
/// invitation, or answering it tentatively, makes its organizer known; any answer clears
/// its hold (`StateStore.recordAnswer`). A decline makes nobody known.
package struct SenderBook {
    let database: SQLiteDatabase

    /// One remembered sender: the answer that made them known and its invitation's
    /// title (nil for a row older than that memory), and since when.
    package struct Known: Equatable, Sendable {
        package var address: String
        package var answer: Answer?
        package var title: String?
        package var since: Date
    }

    /// Whether the person accepted (or tentatively accepted) an invitation from
    /// `address` (normalized) before.
    package func isKnown(_ address: String) throws -> Bool {
        try database.transaction(.deferred) {
            try database.prepare("SELECT 1 FROM known_senders WHERE address = ?1")
                .row([.text(CalendarAddress.normalized(address))]) { _ in true } ?? false
        }
    }

    /// Makes `address` known from now on, by `answer` (accepted or tentative; any other
    /// is ignored) to the invitation titled `title`. The first answer's time stays; the
    /// latest answer and title are kept.
    package func rememberKnown(_ address: String, answer: Answer, title: String, at date: Date) throws {
        let normalized = CalendarAddress.normalized(address)
        guard !normalized.isEmpty, answer == .accepted || answer == .tentative else { return }
        try database.transaction {
            try database.prepare("""
                INSERT INTO known_senders (address, since, answer, title) VALUES (?1, ?2, ?3, ?4)
                ON CONFLICT (address) DO UPDATE SET answer = excluded.answer, title = excluded.title
                """).run([.text(normalized), .real(date.timeIntervalSince1970), .text(answer.rawValue), .text(title)])
        }
    }

    /// Everyone remembered, by address.
    package func known() throws -> [Known] {
        try database.transaction(.deferred) {
            try database.prepare("SELECT address, answer, title, since FROM known_senders ORDER BY address").rows { row in
                Known(address: row.text(0) ?? "", answer: row.text(1).flatMap(Answer.init(rawValue:)), title: row.text(2),
                      since: Date(timeIntervalSince1970: row.double(3)))
            }
        }
    }

    /// Marks the inbox entry `id` held for this reason (nil: no longer held).
    package func markHeld(id: String, _ reason: HeldReason?) throws {
        try database.transaction {
            try database.prepare("UPDATE invitations SET held = ?2 WHERE id = ?1")
                .run([.text(id), reason.map { .text($0.rawValue) } ?? .null])
        }
    }
}

extension StateStore {
    /// The known senders and the holds.
    package var senders: SenderBook { SenderBook(database: database) }
}
