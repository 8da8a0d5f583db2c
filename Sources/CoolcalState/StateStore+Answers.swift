import Foundation
import CoolcalSupport

/// The answers given, and the outbox rows that tell the server about them.
extension StateStore {
    /// Records an answer and, when a server is configured, queues it for the server,
    /// both in one transaction: an answer is never recorded without its outbox row,
    /// nor queued without being recorded.
    ///
    /// Repeating the latest answer of its kind (the same accept or decline, or the same
    /// comment text) adds nothing: it keeps its idempotency key, updates the stored title
    /// and times, and re-queues it if the server refused it earlier or no server was
    /// configured then, unless the server already acknowledged it. A different answer
    /// (accept after decline) is a new answer with a new key, so the server sees both,
    /// in order.
    /// - Parameter server: the configured server, or nil (then nothing is queued). Only
    ///   whether there is one matters: the URL is not stored, `OutboxDrainer` sends to
    ///   the server configured when it runs.
    @discardableResult
    package func recordAnswer(_ answer: Answer, for invite: InvitationSummary, comment: String?, at date: Date,
                             queueFor server: URL?) throws -> RecordedAnswer {
        let id = invite.id
        let kinds = answer == .comment ? "'comment'" : "'accepted', 'declined', 'tentative'"
        let details: [SQLiteValue] = [
            .text(invite.title), .text(invite.start.jsonString), .text(invite.end.jsonString),
            .integer(invite.allDay ? 1 : 0),
        ]
        return try database.transaction {
            // Answered after a move (`reopen`): a new answer, even the one given before.
            var reopened = false
            if answer != .comment {
                // The person decided: no longer held. Only an accept or a tentative makes its
                // organizer someone they deal with; a decline makes nobody known.
                try senders.markHeld(id: id, nil)
                if let organizer = invite.organizer {
                    try senders.rememberKnown(organizer, answer: answer, title: invite.title, at: date)
                }
                reopened = try database.prepare("SELECT reopened_at IS NOT NULL FROM invitations WHERE id = ?1")
                    .row([.text(id)]) { $0.int(0) != 0 } ?? false
                if reopened { try database.prepare("UPDATE invitations SET reopened_at = NULL WHERE id = ?1").run([.text(id)]) }
            }
            let latest = try database.prepare("""
                SELECT key, answer, comment, delivered_at IS NOT NULL FROM responses
                WHERE invite_id = ?1 AND answer IN (\(kinds)) ORDER BY id DESC LIMIT 1
                """).row([.text(id)]) { (key: $0.text(0) ?? "", answer: $0.text(1), comment: $0.text(2),
                                        delivered: $0.int(3) != 0) }
            if let latest, !reopened, latest.answer == answer.rawValue, latest.comment == comment, !latest.key.isEmpty {
                try database.prepare("""
                    UPDATE responses SET title = ?2, start = ?3, "end" = ?4, all_day = ?5 WHERE key = ?1
                    """).run([.text(latest.key)] + details)
                let queued = server != nil && !latest.delivered
                if queued { try enqueue(key: latest.key, answer: answer, inviteID: id, comment: comment, at: date) }
                return RecordedAnswer(key: latest.key, isNew: false, queued: try queued || isQueued(latest.key))
            }
            let key = Self.idempotencyKey(answer: answer, inviteID: id)
            try database.prepare("""
                INSERT INTO responses (key, invite_id, answer, comment, answered_at, title, start, "end", all_day)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
                """).run([.text(key), .text(id), .text(answer.rawValue), .optional(comment),
                          .real(date.timeIntervalSince1970)] + details)
            if server != nil { try enqueue(key: key, answer: answer, inviteID: id, comment: comment, at: date) }
            return RecordedAnswer(key: key, isNew: true, queued: server != nil)
        }
    }

    /// Every answer, sorted by the invitation's start, then by when it was given. Starts
    /// compare as their JSON text, so an all-day date sorts before that day's times.
    package func responses() throws -> [ResponseEntry] {
        var entries: [String: InboxEntry] = [:]
        // The inbox only adds to the answers' lines: a damaged one leaves them as they are.
        for entry in (try? inbox.entries()) ?? [] where entries[entry.id] == nil { entries[entry.id] = entry }
        return try database.transaction(.deferred) {
            let mail = try mailReplies.deliveries()
            return try database.prepare("""
                SELECT r.key, r.invite_id, r.answer, r.comment, r.answered_at, r.title, r.start, r."end",
                       r.all_day, r.delivered_at IS NOT NULL, o.state
                FROM responses r LEFT JOIN outbox o ON o.idempotency_key = r.key
                ORDER BY r.start, r.answered_at, r.id
                """).rows { row in
                let key = row.text(0) ?? ""
                guard let answer = row.text(2).flatMap(Answer.init(rawValue:)) else {
                    throw StateError(kind: .io, path: databasePath, message: "damaged state: answer '\(key)'")
                }
                let delivery: Delivery = row.int(9) != 0 ? .delivered
                    : row.text(10).flatMap { Delivery(rawValue: $0) } ?? .local
                let id = row.text(1) ?? ""
                let entry = entries[id]
                return ResponseEntry(
                    key: key, inviteID: id, answer: answer, comment: row.text(3),
                    answeredAt: Self.date(row.double(4)), title: row.text(5) ?? "",
                    start: try time(row.text(6), column: "start", id: key),
                    end: try time(row.text(7), column: "end", id: key), allDay: row.int(8) != 0, delivery: delivery,
                    mail: mail[key], state: entry?.state ?? .current, number: entry?.number,
                    untold: answer != .comment && mail[key] == nil && entry?.organizer != nil && entry?.kind == .invitation)
            }
        }
    }

    /// Queues (or re-queues a refused) request for `key`; a queued one stays as it is.
    private func enqueue(key: String, answer: Answer, inviteID: String, comment: String?, at date: Date) throws {
        try database.prepare("""
            INSERT INTO outbox (idempotency_key, method, invite_id, body, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT (idempotency_key) DO UPDATE SET state = 'queued'
            """).run([.text(key), .text(answer.method), .text(inviteID), .text(Self.requestBody(comment: comment)),
                      .real(date.timeIntervalSince1970)])
    }

    private func isQueued(_ key: String) throws -> Bool {
        try database.prepare("SELECT 1 FROM outbox WHERE idempotency_key = ?1 AND state = 'queued'")
            .row([.text(key)]) { _ in true } ?? false
    }

    /// The request body: `{}`, or `{"comment":"…"}` escaped by the house JSON writer.
    package static func requestBody(comment: String?) -> String {
        let object = JSONValue.object(comment.map { [("comment", JSONValue.string($0))] } ?? [])
        var text = JSONWriter.string(object, pretty: false)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// `coolcal-accept-<id>-<uuid>`: readable in server logs, unique per answer thanks
    /// to the random UUID, and stored, so every retry sends the same key. The id part
    /// is cut to safe ASCII because header values cannot carry arbitrary text.
    package static func idempotencyKey(answer: Answer, inviteID: String) -> String {
        idempotencyKey(method: answer.method, inviteID: inviteID)
    }

    /// `idempotencyKey(answer:inviteID:)` for any outbox method (`reply` for mail).
    package static func idempotencyKey(method: String, inviteID: String) -> String {
        let safe = String(inviteID.unicodeScalars.prefix(64).map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._@".unicodeScalars.contains(scalar))
                ? Character(scalar) : "_"
        })
        return "coolcal-\(method)-\(safe)-\(UUID().uuidString.lowercased())"
    }
}
