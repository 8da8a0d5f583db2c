import Foundation

/// The RSVP outbox as the drainer sees it (`StateStore.outbox`). Entries leave it only
/// when the server acknowledged them, so a crash or an unreachable server loses nothing.
/// Answers are queued with their record (`StateStore.recordAnswer`), mail replies by
/// `MailReplies`.
package struct Outbox {
    let database: SQLiteDatabase
    /// The database file, named by a damaged row's error.
    let path: String

    /// Every outbox entry, queued and failed, in the order they were queued.
    package func entries() throws -> [OutboxEntry] {
        try database.transaction(.deferred) {
            try database.prepare("""
                SELECT id, idempotency_key, method, invite_id, body, created_at, attempts, last_error, state, channel,
                       next_attempt_at, retrying_since
                FROM outbox ORDER BY id
                """).rows { row in
                let key = row.text(1) ?? ""
                let channel = row.text(9).flatMap(OutboxChannel.init(rawValue:))
                let answer = row.text(2).flatMap(Answer.init(method:))
                guard let channel, let state = row.text(8).flatMap(OutboxEntry.State.init(rawValue:)),
                      channel == .mail ? row.text(2) == "reply" : answer != nil else {
                    throw StateError(kind: .io, path: path, message: "damaged state: outbox entry '\(key)'")
                }
                return OutboxEntry(sequence: row.int(0), key: key, answer: answer, channel: channel, inviteID: row.text(3) ?? "",
                                   body: row.text(4) ?? "{}", createdAt: StateStore.date(row.double(5)),
                                   attempts: Int(row.int(6)), lastError: row.text(7), state: state,
                                   nextAttemptAt: row.isNull(10) ? nil : StateStore.date(row.double(10)),
                                   retryingSince: row.isNull(11) ? nil : StateStore.date(row.double(11)))
            }
        }
    }

    /// The server acknowledged `key` (2xx): the entry leaves the outbox and the answer
    /// is marked delivered, together, so a repeated answer is not queued again.
    /// - Returns: false when no such entry was queued (another coolcal delivered it).
    @discardableResult
    package func markDelivered(_ key: String, at date: Date = Date()) throws -> Bool {
        try database.transaction {
            try database.prepare("DELETE FROM outbox WHERE idempotency_key = ?1").run([.text(key)])
            let found = database.changes > 0
            try database.prepare("UPDATE responses SET delivered_at = ?2 WHERE key = ?1")
                .run([.text(key), .real(date.timeIntervalSince1970)])
            try database.prepare("UPDATE mail_replies SET sent_at = ?2 WHERE outbox_key = ?1")
                .run([.text(key), .real(date.timeIntervalSince1970)])
            return found
        }
    }

    /// Refused for good (a 4xx, a sendmail's permanent failure, or 72 hours of temporary
    /// ones): kept as failed with `reason`, for `coolcal outbox` to show; no run sends it
    /// again until `outbox retry` or the answer given again queues it.
    @discardableResult
    package func markFailed(_ key: String, reason: String) throws -> Bool {
        try update(key, "state = 'failed', attempts = attempts + 1, last_error = ?2", [.text(reason)])
    }

    /// An attempt that may succeed later (server down, timeout, 5xx, a sendmail's
    /// temporary failure): the entry stays queued, with one more attempt and the error.
    /// - Parameters:
    ///   - next: not tried again by a run before then (nil: by the next run).
    ///   - now: when the attempt was; the first one starts the entry's 72 hours of retries.
    @discardableResult
    package func recordAttempt(_ key: String, error: String, next: Date? = nil, now: Date = Date()) throws -> Bool {
        try update(key, """
            state = 'queued', attempts = attempts + 1, last_error = ?2, next_attempt_at = ?3,
            retrying_since = COALESCE(retrying_since, ?4)
            """, [.text(error), next.map { .real($0.timeIntervalSince1970) } ?? .null, .real(now.timeIntervalSince1970)])
    }

    /// A sendmail is about to be given the mail reply `key`: a crash from here on leaves it
    /// `sending`, which the next run takes for not sent and sends again (same message,
    /// same Message-ID). Committed before the sendmail runs.
    @discardableResult
    package func markSending(_ key: String) throws -> Bool {
        try update(key, "state = 'sending'", [])
    }

    /// Puts failed entries back in the queue, to be sent by the next run as if new:
    /// every one (`selector` nil), or those whose idempotency key or invitation id is
    /// `selector`.
    /// - Returns: how many were queued again.
    package func retryFailed(_ selector: String? = nil) throws -> Int {
        try database.transaction {
            try database.prepare("""
                UPDATE outbox SET state = 'queued', next_attempt_at = NULL, retrying_since = NULL
                WHERE state = 'failed' AND (?1 IS NULL OR idempotency_key = ?1 OR invite_id = ?1)
                """).run([selector.map { .text($0) } ?? .null])
            return database.changes
        }
    }

    private func update(_ key: String, _ assignments: String, _ values: [SQLiteValue]) throws -> Bool {
        try database.transaction {
            try database.prepare("UPDATE outbox SET \(assignments) WHERE idempotency_key = ?1")
                .run([.text(key)] + values)
            return database.changes > 0
        }
    }
}
