import Foundation
import CoolcalModel

/// An answer to an invitation, as stored (`rawValue`) and as sent (`method`).
package enum Answer: String, Sendable, CaseIterable {
    case accepted
    case declined
    case comment
    /// `accept --tentative`: may attend (sent as `…/tentative`).
    case tentative

    /// The last path segment of the server request: `accept`, `decline`, `tentative`, `comment`.
    package var method: String {
        switch self {
        case .accepted: return "accept"
        case .declined: return "decline"
        case .tentative: return "tentative"
        case .comment: return "comment"
        }
    }

    /// The answer for a server method name, as stored in the outbox.
    package init?(method: String) {
        guard let answer = Answer.allCases.first(where: { $0.method == method }) else { return nil }
        self = answer
    }
}

/// One received invitation in the inbox.
package struct InboxEntry: Equatable, Sendable {
    /// `Invite.ID.text`.
    package var id: String
    /// What it is called, as data (Output's `InboxTitleText` says it); an event's title
    /// may be empty, the inbox shows `---` then.
    package var title: InboxTitle
    /// The invitation's times as `Invite` has them (`end` exclusive).
    package var start: OccurrenceTime
    package var end: OccurrenceTime
    package var allDay: Bool
    /// The payload as received (JSON text, or the iTIP text), for `inbox open`.
    package var payload: String
    /// When it was first received, or last re-sent with different content.
    package var receivedAt: Date
    /// Set by `markRead` (`coolcal inbox open ID`); a changed re-sent invitation clears it.
    package var read: Bool
    /// The short local number `inbox` shows: the row's id (rows are never deleted, so it stays).
    package var number: Int64 = 0
    /// The e-mail it arrived in (sender, subject, Message-ID), nil when it did not.
    package var mail: MailHeaders? = nil
    /// Its answer: the latest accept, decline or tentative, else `.comment` when only
    /// commented on; nil when unanswered.
    package var answer: Answer? = nil
    /// Why `merge` held it for the person; nil once it is answered, or when it was not held.
    package var held: HeldReason? = nil
    package var kind: InboxKind = .invitation
    /// Its ORGANIZER's address, normalized; nil when it has none (a push payload). For a
    /// reply, the attendee who answered.
    package var organizer: String? = nil
    /// Where its event stands now.
    package var state: InboxState = .current
    /// Dismissed in `review` (`x`) without an answer: the organizer was told nothing.
    package var dismissed = false
    /// Its latest answer was recorded but not mailed to its organizer (an iTIP invitation).
    package var untold = false
    /// The times it had when last answered, when they differ from its times now (an
    /// update moved it since): what `inbox open` shows as `was`.
    package var wasStart: OccurrenceTime? = nil
    package var wasEnd: OccurrenceTime? = nil
    /// The calendar it was found pending in (issue 49: a scheduling server put it there);
    /// nil for one that came only by mail or push.
    package var foundIn: String? = nil

    /// Not accepted, declined or tentatively accepted (a comment is no answer), nor
    /// dismissed: what `inbox --unanswered` lists and `review` walks.
    package var isUnanswered: Bool { kind != .reply && !dismissed && (answer == nil || answer == .comment) }
}

/// Where an answer stands with the server.
package enum Delivery: String, Sendable {
    /// No server was configured when it was given: kept locally only.
    case local
    /// In the outbox, waiting for the server.
    case queued
    /// The server refused it (4xx); kept in the outbox with the reason.
    case failed
    /// The server acknowledged it (2xx).
    case delivered
}

/// One answer given, as `coolcal responses` lists it.
package struct ResponseEntry: Equatable, Sendable {
    /// The idempotency key the server sees for this answer.
    package var key: String
    /// `Invite.ID.text`.
    package var inviteID: String
    package var answer: Answer
    /// The comment given with the answer, if any (always set for `.comment`).
    package var comment: String?
    package var answeredAt: Date
    /// The invitation's title and times when it was (last) answered.
    package var title: String
    package var start: OccurrenceTime
    package var end: OccurrenceTime
    package var allDay: Bool
    /// Whether the server has it yet.
    package var delivery: Delivery
    /// How its REPLY by mail stands (`delivered`: handed to sendmail); nil when it
    /// was not answered by mail.
    package var mail: Delivery? = nil
    /// Where the invitation's event stands now (its inbox entry's `state`).
    package var state: InboxState = .current
    /// Its inbox number, when the inbox has it.
    package var number: Int64? = nil
    /// An answer to an iTIP invitation with an organizer, not mailed to them.
    package var untold = false
}

/// One request waiting in (or refused from) the RSVP outbox.
package struct OutboxEntry: Equatable, Sendable {
    /// `queued` waits for a run (a mail reply after its `nextAttemptAt`); `sending`: a
    /// sendmail was started for it and has not been seen to finish (a run that finds one
    /// crashed, and sends it again); `failed` is kept for the user to see, and to queue
    /// again with `outbox retry`.
    package enum State: String, Sendable { case queued, sending, failed }

    /// Creation order: the outbox is sent in this order.
    package var sequence: Int64
    /// Sent as the `Idempotency-Key` header; stable across retries.
    package var key: String
    /// The answer, which picks the request path (`accept`, `decline`, `comment`); nil
    /// for a mail reply (`method` is `reply`, the partstat is inside the message).
    package var answer: Answer?
    /// How it is delivered: to the inviting server, or by mail through sendmail.
    package var channel: OutboxChannel = .server
    /// As stored: `accept`, `decline`, `comment`, or `reply` (mail).
    package var method: String { answer?.method ?? "reply" }
    /// `Invite.ID.text`, percent-encoded into the path when sent.
    package var inviteID: String
    /// The JSON request body: `{}` or `{"comment":"…"}`; for mail, the whole message.
    package var body: String
    package var createdAt: Date
    /// Requests sent for it so far that did not deliver it.
    package var attempts: Int
    /// Why the last attempt did not deliver it, with any server credentials redacted.
    package var lastError: String?
    /// Queued, sending or failed.
    package var state: State
    /// A mail reply that failed for now is not tried again before this (backoff); nil: at once.
    package var nextAttemptAt: Date? = nil
    /// When its first temporary failure was; retries end 72 hours after it.
    package var retryingSince: Date? = nil

    /// A mail reply's `Message-ID`, without its angle brackets, as queued: every attempt
    /// sends the same one.
    package var messageID: String? {
        guard channel == .mail, let value = MessageHeader.value(of: "message-id", in: body) else { return nil }
        return value.hasPrefix("<") && value.hasSuffix(">") ? String(value.dropFirst().dropLast()) : value
    }
}

/// One header of a message as coolcal queued it (unfolded, before the first empty line).
enum MessageHeader {
    static func value(of name: String, in message: String) -> String? {
        var found: String?
        for line in message.prefix(64 * 1024).split(separator: "\n", omittingEmptySubsequences: false) {
            let line = line.hasSuffix("\r") ? line.dropLast() : line
            if line.isEmpty { break }
            if line.first == " " || line.first == "\t" {
                if let so = found { found = so + " " + line.trimmingCharacters(in: .whitespaces) }
                continue
            }
            if found != nil { break }
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == name else { continue }
            found = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return found
    }
}

/// What `recordAnswer` did.
package struct RecordedAnswer: Equatable, Sendable {
    /// The answer's idempotency key (the same one when the answer repeats the last).
    package var key: String
    /// False when the answer only repeated the latest one of its kind, which changes
    /// nothing (so re-running `accept` or `merge` after a crash is harmless).
    package var isNew: Bool
    /// True when the answer waits in the outbox after this call.
    package var queued: Bool
}

/// Where an outbox entry goes.
package enum OutboxChannel: String, Sendable {
    /// The inviting server's RSVP endpoint.
    case server
    /// The organizer's mailbox, through the configured sendmail.
    case mail
}
