import Foundation

/// Answers by mail: each version of an invitation (UID, SEQUENCE, RECURRENCE-ID and the
/// answer) is queued once, as one message with one Message-ID. The message waits in the
/// outbox (`channel = 'mail'`) until a sendmail took it; `mail_replies` remembers it
/// afterwards. `StateStore.mailReplies`.
package struct MailReplies {
    let database: SQLiteDatabase

    /// Queues `message` for `version` unless that version was mailed or is queued. A
    /// version whose mail failed for good is queued again: the answer was given again.
    /// - Parameter responseKey: the recorded answer it belongs to (nil for a tentative one,
    ///   which `responses` does not list).
    @discardableResult
    package func queue(version: String, responseKey: String?, inviteID: String, message: String,
                               at date: Date) throws -> MailQueueing {
        try database.transaction {
            let known = try database.prepare("SELECT outbox_key, sent_at IS NOT NULL FROM mail_replies WHERE version = ?1")
                .row([.text(version)]) { (key: $0.text(0) ?? "", sent: $0.int(1) != 0) }
            if let known, known.sent { return .alreadySent }
            if let known {
                let state = try database.prepare("SELECT state FROM outbox WHERE idempotency_key = ?1")
                    .row([.text(known.key)]) { $0.text(0) }
                switch state {
                case "queued", "sending": return .alreadyQueued(known.key)
                case "failed":
                    try database.prepare("""
                        UPDATE outbox SET state = 'queued', body = ?2, next_attempt_at = NULL, retrying_since = NULL
                        WHERE idempotency_key = ?1
                        """)
                        .run([.text(known.key), .text(message)])
                    return .queued(known.key)
                default:
                    // Neither sent nor in the outbox (removed by hand): forget it and start over.
                    try database.prepare("DELETE FROM mail_replies WHERE version = ?1").run([.text(version)])
                }
            }
            let key = StateStore.idempotencyKey(method: "reply", inviteID: inviteID)
            try database.prepare("""
                INSERT INTO outbox (idempotency_key, channel, method, invite_id, body, created_at)
                VALUES (?1, 'mail', 'reply', ?2, ?3, ?4)
                """).run([.text(key), .text(inviteID), .text(message), .real(date.timeIntervalSince1970)])
            try database.prepare("""
                INSERT INTO mail_replies (version, outbox_key, response_key, invite_id, queued_at) VALUES (?1, ?2, ?3, ?4, ?5)
                """).run([.text(version), .text(key), .optional(responseKey), .text(inviteID), .real(date.timeIntervalSince1970)])
            return .queued(key)
        }
    }

    /// Whether `version` has been handed to a sendmail.
    package func sent(version: String) throws -> Bool {
        try database.prepare("SELECT 1 FROM mail_replies WHERE version = ?1 AND sent_at IS NOT NULL")
            .row([.text(version)]) { _ in true } ?? false
    }

    /// How the latest mail reply of each answer stands, by response key: delivered
    /// (handed to sendmail), queued or failed.
    package func deliveries() throws -> [String: Delivery] {
        var result: [String: Delivery] = [:]
        let rows = try database.prepare("""
            SELECT m.response_key, m.sent_at IS NOT NULL, o.state FROM mail_replies m
            LEFT JOIN outbox o ON o.idempotency_key = m.outbox_key
            WHERE m.response_key IS NOT NULL ORDER BY m.rowid
            """).rows { row in
            (key: row.text(0) ?? "", sent: row.int(1) != 0, state: row.text(2))
        }
        for row in rows {
            result[row.key] = row.sent ? .delivered : row.state.flatMap(Delivery.init(rawValue:)) ?? .queued
        }
        return result
    }

    /// The invitations whose latest answer (accepted, declined, tentative) was recorded
    /// but not mailed: no REPLY was queued or sent for it.
    package func untold() throws -> Set<String> {
        var latest: [String: String] = [:]
        _ = try database.prepare("""
            SELECT invite_id, key FROM responses WHERE answer IN ('accepted', 'declined', 'tentative') ORDER BY id
            """).rows { row -> Void in
            if let id = row.text(0), let key = row.text(1) { latest[id] = key }
        }
        let mailed = try deliveries()
        return Set(latest.filter { mailed[$0.value] == nil }.keys)
    }
}

/// What `MailReplies.queue` did.
package enum MailQueueing: Equatable, Sendable {
    /// Newly queued (or a failed one queued again) under this outbox key.
    case queued(String)
    /// Already waiting in the outbox under this key: nothing added.
    case alreadyQueued(String)
    /// Already handed to a sendmail: nothing to do.
    case alreadySent
}
