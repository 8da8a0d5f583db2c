import Foundation
import CoolcalInvite
import CoolcalMail
import CoolcalModel
import CoolcalState

/// How a mailbox spool (a Maildir, an mbox) takes in one message: read with GMime,
/// skipped when it was processed before — known by its Message-ID and the SHA-256 of
/// its calendar part (`key`), remembered in the state under the mailbox's real path —
/// when it holds no invitation, or when its event is wholly past; else an item for
/// the run. Nothing in the mailbox is changed here.
package struct MessageIntake {
    package let store: StateStore
    /// The mailbox's real path: what its messages are remembered under.
    package let realPath: String
    package let now: Date
    /// What `remember` holds until `flush()`.
    private let records = Records()

    /// The messages remembered and not yet written.
    private final class Records {
        var rows: [(key: String, outcome: OutcomeCode, inviteID: String?, name: String?)] = []
    }

    /// What became of one message.
    package enum Taken {
        /// For the run, with the key it is remembered by once done.
        case item(SpoolItem, key: String, inviteID: String?)
        /// Not for the run; `outcome` is what it is remembered as (nil: not remembered, as
        /// for one unreadable now).
        case skipped(OutcomeCode?)
        /// Processed by an earlier run, remembered as `outcome`.
        case seen(OutcomeCode)
        /// Not read past a bound (a calendar part nested too deep): remembered as no
        /// invitation; `reason` says what the person can do.
        case bounded(String)
    }

    /// `path`: what messages call it; `data`: its bytes; `fileName`: the Maildir file name
    /// (without flags) it is remembered under, nil for an mbox's message.
    package func take(name: String, path: String, data: Data, floatingZone: TimeZone, diagnostics: Diagnostics,
                      fileName: String? = nil) throws -> Taken {
        guard MessageReader.isMessage(data) else {
            try remember(key: "sha256:" + MessageReader.sha256(data), outcome: .notAMessage, inviteID: nil, name: fileName)
            return .skipped(.notAMessage)
        }
        // Nothing in it could be an invitation: no MIME walk (the Maildir remembers its name).
        guard CalendarSniff.mayHoldCalendar(data) else { return .skipped(.noInvitation) }
        let found: MailInvitation
        let headers: MailHeaders?
        var failure: Error? = nil
        do {
            found = try MessageReader.read(data)
            headers = found.headers
        } catch let error as MessageError {
            let key = Self.key(error.headers, data)
            if let seen = try store.spools.maildirOutcome(maildir: realPath, key: key) {
                return .seen(OutcomeCode(rawValue: seen) ?? .failed)
            }
            if error.message.hasPrefix("no calendar invitation") {
                try remember(key: key, outcome: .noInvitation, inviteID: nil, name: fileName)
                return .skipped(.noInvitation)
            }
            if error.message.hasPrefix(MessageReader.nestedTooDeep) {
                try remember(key: key, outcome: .noInvitation, inviteID: nil, name: fileName)
                return .bounded(error.message)
            }
            found = MailInvitation(calendar: Data(), headers: error.headers ?? MailHeaders(), partType: "")
            headers = error.headers
            failure = InviteError(file: path, message: error.message)
        }
        let key = Self.key(headers, data, calendar: failure == nil ? found.calendar : nil)
        // (Older states remember a message by its Message-ID alone.)
        let legacy = Self.key(headers, data)
        if let seen = try store.spools.maildirOutcome(maildir: realPath, key: key)
            ?? (legacy != key ? store.spools.maildirOutcome(maildir: realPath, key: legacy) : nil) {
            diagnostics.note("\(path): skipped: processed by an earlier merge")
            return .seen(OutcomeCode(rawValue: seen) ?? .failed)
        }
        let loaded: Result<InvitationFile, Error> = failure.map { .failure($0) } ?? Result {
            var file = try InviteLoader.open(found.calendar, name: path, floatingZone: floatingZone, acceptingReplies: true)
            file.invite.mail = found.headers
            return try file.agreeing(name: path)
        }
        if case .success(let file) = loaded, !file.invite.isAttendeeTraffic, file.invite.everyInstanceEnded(before: now, zone: floatingZone) {
            diagnostics.note("\(path): skipped: the event is over")
            try remember(key: key, outcome: .past, inviteID: file.invite.id.text, name: fileName)
            return .skipped(.past)
        }
        return .item(SpoolItem(name: name, loaded: loaded), key: key, inviteID: try? loaded.get().invite.id.text)
    }

    /// Remembers a message (by `key`, found under the file `name`) as `outcome` — in
    /// memory until `flush()`, or until 512 wait: one commit (one sync) for many messages,
    /// not one each. What a crash loses is only looked at again by the next run.
    package func remember(key: String, outcome: OutcomeCode, inviteID: String?, name: String? = nil) throws {
        records.rows.append((key, outcome, inviteID, name))
        if records.rows.count >= 512 { try flush() }
    }

    /// Remembers each finished item that `pending` knows (by its key, with its invitation's
    /// id; a failed one as failed), then writes them all in one transaction.
    package func remember(_ items: [MergeFinished], pending: [String: (key: String, inviteID: String?)]) throws {
        for item in items {
            guard let entry = pending[item.name] else { continue }
            try remember(key: entry.key, outcome: item.failed ? .failed : item.outcome, inviteID: entry.inviteID)
        }
        try flush()
    }

    /// Writes what `remember` holds, in one transaction.
    package func flush() throws {
        guard !records.rows.isEmpty else { return }
        try store.together {
            for row in records.rows {
                try store.spools.recordMaildirMessage(maildir: realPath, key: row.key, outcome: row.outcome, inviteID: row.inviteID,
                                                      at: now, name: row.name)
            }
        }
        records.rows.removeAll()
    }

    /// `mid:` and the Message-ID — with `#` and the SHA-256 of its calendar part when it has
    /// one (two invitations under one Message-ID are two messages) — else `sha256:` and the
    /// hash of the bytes.
    package static func key(_ headers: MailHeaders?, _ data: Data, calendar: Data? = nil) -> String {
        if let id = headers?.messageID, !id.isEmpty {
            return "mid:" + id + (calendar.map { "#" + MessageReader.sha256($0) } ?? "")
        }
        return "sha256:" + MessageReader.sha256(data)
    }
}
