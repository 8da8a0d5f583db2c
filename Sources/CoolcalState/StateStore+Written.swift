import Foundation

/// One event coolcal wrote for an accepted (or tentative) invitation: which calendar,
/// which UID, and a hash of the block as written, so that changing your mind removes
/// it only when nobody edited it since.
package struct WrittenEvent: Equatable, Sendable {
    /// `Invite.ID.text`.
    package var inviteID: String
    /// The calendar as coolcal opens it again: an absolute path, or the URL.
    package var calendar: String
    package var uid: String
    /// `EventHash` of the block as written (empty when there is none to compare: iTIP).
    package var hash: String
    /// `.accepted` or `.tentative`.
    package var answer: Answer
    package var writtenAt: Date

    package init(inviteID: String, calendar: String, uid: String, hash: String, answer: Answer, writtenAt: Date) {
        self.inviteID = inviteID
        self.calendar = calendar
        self.uid = uid
        self.hash = hash
        self.answer = answer
        self.writtenAt = writtenAt
    }
}

/// The calendars coolcal wrote accepted invitations into.
extension StateStore {
    /// Remembers (or updates) what was written for `event.inviteID` into `event.calendar`.
    package func recordWritten(_ event: WrittenEvent) throws {
        try database.transaction {
            try database.prepare("""
                INSERT INTO written_events (invite_id, calendar, uid, hash, answer, written_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                ON CONFLICT (invite_id, calendar) DO UPDATE SET uid = ?3, hash = ?4, answer = ?5, written_at = ?6
                """).run([.text(event.inviteID), .text(event.calendar), .text(event.uid), .text(event.hash),
                          .text(event.answer.rawValue), .real(event.writtenAt.timeIntervalSince1970)])
        }
    }

    /// What coolcal wrote for this invitation, oldest first.
    package func written(inviteID: String) throws -> [WrittenEvent] {
        try database.transaction(.deferred) {
            try database.prepare("""
                SELECT invite_id, calendar, uid, hash, answer, written_at FROM written_events
                WHERE invite_id = ?1 ORDER BY written_at, rowid
                """).rows([.text(inviteID)]) { row in
                guard let answer = row.text(4).flatMap(Answer.init(rawValue:)) else {
                    throw StateError(kind: .io, path: databasePath, message: "damaged state: written event of '\(inviteID)'")
                }
                return WrittenEvent(inviteID: row.text(0) ?? "", calendar: row.text(1) ?? "", uid: row.text(2) ?? "",
                                    hash: row.text(3) ?? "", answer: answer, writtenAt: Self.date(row.double(5)))
            }
        }
    }

    /// Forgets the event written into `calendar` (it was removed from it).
    package func forgetWritten(inviteID: String, calendar: String) throws {
        try database.transaction {
            try database.prepare("DELETE FROM written_events WHERE invite_id = ?1 AND calendar = ?2")
                .run([.text(inviteID), .text(calendar)])
        }
    }
}
