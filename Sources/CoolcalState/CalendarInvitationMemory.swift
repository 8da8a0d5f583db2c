import Foundation

/// Which versions of the invitations found pending in the calendars were already
/// decided (issue 49): a run of `merge --calendar-invitations` does not repeat itself,
/// and a version with another key (a new SEQUENCE, RECURRENCE-ID or times) comes back.
public struct CalendarInvitationMemory {
    let database: SQLiteDatabase

    /// Whether this version (`PendingInvitation.rememberedKey`) was decided before.
    public func knows(_ key: String) throws -> Bool {
        try database.transaction(.deferred) {
            try database.prepare("SELECT 1 FROM calendar_invitations WHERE key = ?1").row([.text(key)]) { $0.int(0) } != nil
        }
    }

    /// The UIDs of the invitations found in calendars that are held for the person and not
    /// answered: free time for every other invitation's conflict check (`IgnoreReason.held`).
    public func heldUIDs() throws -> Set<String> {
        try database.transaction(.deferred) {
            Set(try database.prepare("""
                SELECT id FROM invitations WHERE found_in IS NOT NULL AND held IS NOT NULL AND dismissed = 0
                AND id NOT IN (SELECT invite_id FROM responses WHERE answer IN ('accepted', 'declined', 'tentative'))
                """).rows { $0.text(0) ?? "" })
        }
    }

    /// Remembers this version as decided.
    public func remember(_ key: String, inviteID: String, calendar: String, at date: Date) throws {
        try database.transaction {
            try database.prepare("""
                INSERT OR REPLACE INTO calendar_invitations (key, invite_id, calendar, decided_at) VALUES (?1, ?2, ?3, ?4)
                """).run([.text(key), .text(inviteID), .text(calendar), .real(date.timeIntervalSince1970)])
        }
    }
}

extension StateStore {
    public var calendarInvitations: CalendarInvitationMemory { CalendarInvitationMemory(database: database) }
}
