import Foundation
import CoolcalModel

/// The inbox of received invitations: the state's `invitations` table, with each entry's
/// answer mark and where its event stands (`InboxStates`). One of the small stores over
/// the state's one connection (`StateStore.inbox`).
package struct InboxTable {
    let database: SQLiteDatabase
    /// The database file, named by a damaged row's error.
    let path: String

    /// Records a received invitation.
    ///
    /// A re-sent invitation (same id) with a different payload replaces the stored
    /// one and becomes unread and recent again, because it is news (new times); the
    /// same payload again changes nothing.
    /// - Returns: true when the invitation was not in the inbox before.
    @discardableResult
    package func record(_ invite: InvitationSummary, payload: String, at date: Date) throws -> Bool {
        let id = invite.id
        let mail = { (value: String?) -> SQLiteValue in value.map(SQLiteValue.text) ?? .null }
        let values: [SQLiteValue] = [
            .text(id), .text(invite.title), .text(invite.start.jsonString), .text(invite.end.jsonString),
            .integer(invite.allDay ? 1 : 0), .text(payload), .real(date.timeIntervalSince1970),
            mail(invite.mail?.from), mail(invite.mail?.subject), mail(invite.mail?.messageID),
            mail(invite.organizer), .text(invite.kind.rawValue), mail(invite.foundIn),
            .text(invite.inboxTitle.storedKind), mail(invite.kind == .reply ? invite.partstat : nil),
            mail(invite.kind == .reply ? InboxTitle.storedDelegates(invite.delegatedTo) : nil),
        ]
        return try database.transaction {
            let row = try database.prepare("SELECT payload, found_in FROM invitations WHERE id = ?1")
                .row([.text(id)]) { (payload: $0.text(0), mailed: $0.text(1) == nil) }
            let stored = row?.payload
            switch stored {
            case .none:
                try database.prepare("""
                    INSERT INTO invitations (id, title, start, "end", all_day, payload, received_at, read,
                                             mail_from, mail_subject, mail_message_id, organizer, kind, found_in,
                                             title_kind, partstat, delegated_to)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
                    """).run(values)
                return true
            case .some where invite.foundIn != nil && row?.mailed == true:
                // Found pending in a calendar: one entry per UID, the mailed one's payload kept.
                try database.prepare("UPDATE invitations SET found_in = ?2 WHERE id = ?1")
                    .run([.text(id), mail(invite.foundIn)])
                return false
            case .some(let old) where old != payload:
                try database.prepare("""
                    UPDATE invitations SET title = ?2, start = ?3, "end" = ?4, all_day = ?5, payload = ?6,
                    received_at = ?7, read = 0, mail_from = ?8, mail_subject = ?9, mail_message_id = ?10,
                    organizer = ?11, kind = ?12, held = NULL, dismissed = 0, found_in = COALESCE(?13, found_in),
                    title_kind = ?14, partstat = ?15, delegated_to = ?16 WHERE id = ?1
                    """).run(values)
                return false
            case .some:
                // The same invitation, now also seen in an e-mail: keep who sent it (not news).
                if invite.mail != nil {
                    try database.prepare("""
                        UPDATE invitations SET mail_from = ?8, mail_subject = ?9, mail_message_id = ?10 WHERE id = ?1
                        """).run(Array(values.prefix(10)))
                }
                return false
            }
        }
    }

    private static let inboxColumns = #"id, title, start, "end", all_day, payload, received_at, read, rowid, mail_from, mail_subject, mail_message_id, held, kind, organizer, dismissed, found_in, title_kind, partstat, delegated_to"#

    /// Every invitation, newest first (ties: the later recorded first).
    package func entries() throws -> [InboxEntry] {
        try database.transaction(.deferred) {
            let marks = try answers()
            let untold = try MailReplies(database: database).untold()
            var entries = try database.prepare("SELECT \(Self.inboxColumns) FROM invitations ORDER BY received_at DESC, rowid DESC")
                .rows { row in
                    var entry = try inboxEntry(row)
                    entry.answer = marks[entry.id]
                    entry.untold = entry.organizer != nil && entry.kind == .invitation && untold.contains(entry.id)
                    return entry
                }
            try InboxStates(database: database).annotate(&entries)
            return entries
        }
    }

    /// The invitation with this id (`Invite.ID.text`), or nil.
    package func entry(id: String) throws -> InboxEntry? {
        try database.transaction(.deferred) {
            try database.prepare("SELECT \(Self.inboxColumns) FROM invitations WHERE id = ?1")
                .row([.text(id)]) { try inboxEntry($0) }
                .map { found in
                    var entry = found
                    entry.answer = try answers()[found.id]
                    return entry
                }
        }
    }

    /// The invitation an operand names: by its local number (what `inbox` shows),
    /// else its id (a payload's id, an iTIP invitation's UID); nil when none.
    package func entry(named key: String) throws -> InboxEntry? {
        if let number = Int64(key), number > 0, key.allSatisfy(\.isASCII),
           let entry = try database.transaction(.deferred, {
               try database.prepare("SELECT \(Self.inboxColumns) FROM invitations WHERE rowid = ?1")
                   .row([.integer(number)]) { try inboxEntry($0) }
           }) {
            return try self.entry(id: entry.id) ?? entry
        }
        return try entry(id: key)
    }

    /// Marks one invitation read. - Returns: false when there is no such invitation.
    @discardableResult
    package func markRead(id: String) throws -> Bool {
        try database.transaction {
            try database.prepare("UPDATE invitations SET read = 1 WHERE id = ?1").run([.text(id)])
            // changes counts matched rows, so an already-read invitation still reports true.
            return database.changes > 0
        }
    }

    /// Dismisses one invitation without answering it (`review`'s `x`): read, and no longer
    /// among the unanswered; a changed re-sent invitation brings it back.
    /// - Returns: false when there is no such invitation.
    @discardableResult
    package func dismiss(id: String) throws -> Bool {
        try database.transaction {
            try database.prepare("UPDATE invitations SET read = 1, dismissed = 1 WHERE id = ?1").run([.text(id)])
            return database.changes > 0
        }
    }

    private func inboxEntry(_ row: SQLiteStatement) throws -> InboxEntry {
        let id = row.text(0) ?? ""
        return InboxEntry(
            id: id,
            title: InboxTitle.stored(kind: row.text(17), title: row.text(1) ?? "", attendee: row.text(14),
                                     partstat: row.text(18), delegatedTo: row.text(19)),
            start: try StateStore.time(row.text(2), column: "start", id: id, path: path),
            end: try StateStore.time(row.text(3), column: "end", id: id, path: path),
            allDay: row.int(4) != 0, payload: row.text(5) ?? "",
            receivedAt: StateStore.date(row.double(6)), read: row.int(7) != 0, number: row.int(8),
            mail: row.text(9) == nil && row.text(10) == nil && row.text(11) == nil
                ? nil : MailHeaders(from: row.text(9), subject: row.text(10), messageID: row.text(11)),
            held: row.text(12).flatMap(HeldReason.init(rawValue:)),
            kind: row.text(13).flatMap(InboxKind.init(rawValue:)) ?? .invitation, organizer: row.text(14),
            dismissed: row.int(15) != 0, foundIn: row.text(16))
    }

    /// An organizer's update moved the event where I am busy and my PARTSTAT went back to
    /// NEEDS-ACTION: the entry is unanswered (`answer` nil, `state` updated) until the
    /// next accept, decline or tentative.
    package func reopen(id: String, at date: Date) throws {
        try database.transaction {
            try database.prepare("UPDATE invitations SET reopened_at = ?2 WHERE id = ?1")
                .run([.text(id), .real(date.timeIntervalSince1970)])
        }
    }

    /// Each invitation's answer as the inbox marks it: the latest accept, decline or
    /// tentative; else `.comment` when it was only commented on; absent when unanswered
    /// (or moved where I am busy since the last answer: `reopen`).
    package func answers() throws -> [String: Answer] {
        try database.transaction(.deferred) {
            var latest: [String: Answer] = [:]
            _ = try database.prepare("""
                SELECT r.invite_id, r.answer FROM responses r LEFT JOIN invitations i ON i.id = r.invite_id
                WHERE i.reopened_at IS NULL ORDER BY r.id
                """).rows { row -> Void in
                guard let id = row.text(0), let answer = row.text(1).flatMap(Answer.init(rawValue:)) else { return }
                if answer != .comment || latest[id] == nil { latest[id] = answer }
            }
            return latest
        }
    }
}
