import Foundation

/// The RSVP outbox as the drainer sees it. Entries leave it only when the server
/// acknowledged them, so a crash or an unreachable server loses nothing.
extension StateStore {
    /// Every outbox entry, queued and failed, in the order they were queued.
    public func outbox() throws -> [OutboxEntry] {
        try database.transaction(.deferred) {
            try database.prepare("""
                SELECT id, idempotency_key, method, invite_id, body, created_at, attempts, last_error, state, channel
                FROM outbox ORDER BY id
                """).rows { row in
                let key = row.text(1) ?? ""
                let channel = row.text(9).flatMap(OutboxChannel.init(rawValue:))
                let answer = row.text(2).flatMap(Answer.init(method:))
                guard let channel, let state = row.text(8).flatMap(OutboxEntry.State.init(rawValue:)),
                      channel == .mail ? row.text(2) == "reply" : answer != nil else {
                    throw StateError(kind: .io, path: databasePath, message: "damaged state: outbox entry '\(key)'")
                }
                return OutboxEntry(sequence: row.int(0), key: key, answer: answer, channel: channel, inviteID: row.text(3) ?? "",
                                   body: row.text(4) ?? "{}", createdAt: Self.date(row.double(5)),
                                   attempts: Int(row.int(6)), lastError: row.text(7), state: state)
            }
        }
    }

    /// The server acknowledged `key` (2xx): the entry leaves the outbox and the answer
    /// is marked delivered, together, so a repeated answer is not queued again.
    /// - Returns: false when no such entry was queued (another coolcal delivered it).
    @discardableResult
    public func markDelivered(_ key: String, at date: Date = Date()) throws -> Bool {
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

    /// The server refused `key` for good (4xx): kept as failed with `reason`, for
    /// `coolcal outbox` to show; no run retries it unless the answer is given again.
    @discardableResult
    public func markFailed(_ key: String, reason: String) throws -> Bool {
        try update(key, "state = 'failed', attempts = attempts + 1, last_error = ?2", reason)
    }

    /// An attempt that may succeed later (server down, timeout, 5xx): the entry stays
    /// queued, with one more attempt and the error, for the next run.
    @discardableResult
    public func recordAttempt(_ key: String, error: String) throws -> Bool {
        try update(key, "attempts = attempts + 1, last_error = ?2", error)
    }

    private func update(_ key: String, _ assignments: String, _ text: String) throws -> Bool {
        try database.transaction {
            try database.prepare("UPDATE outbox SET \(assignments) WHERE idempotency_key = ?1")
                .run([.text(key), .text(text)])
            return database.changes > 0
        }
    }
}
