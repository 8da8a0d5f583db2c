import Foundation
import CoolcalICal
import CoolcalMail
import CoolcalModel
import CoolcalSupport

/// Loads an invitation from a file or `-`, telling a push payload (JSON), an iTIP
/// invitation (iCalendar) and an e-mail message carrying one by content.
public enum InviteLoader {
    /// Payloads larger than this are refused before parsing.
    public static let maxBytes = 1 << 20

    /// An invitation to check or answer; a cancellation is refused (only `accept` and
    /// `merge` apply those to a calendar).
    public static func load(_ path: String, floatingZone: TimeZone) throws -> Invite {
        let invite = try parse(try data(path), name: InputFile.displayName(path), floatingZone: floatingZone)
        if invite.isCancellation { throw cancellation(invite) }
        return invite
    }

    /// The error for a cancellation where an invitation was wanted.
    public static func cancellation(_ invite: Invite) -> InviteError {
        InviteError(file: invite.source, message: "is a cancellation (METHOD:CANCEL), not an invitation; apply it to a calendar with 'coolcal accept \(invite.source) CAL'")
    }

    /// The invitation and, for an iTIP file, the message behind it (for writing the
    /// organizer's event as sent, and for replies).
    public static func open(_ path: String, floatingZone: TimeZone) throws -> InvitationFile {
        try Self.open(try data(path), name: InputFile.displayName(path), floatingZone: floatingZone)
    }

    /// The bytes of an invitation file, standard input (`-`), a pipe, FIFO, socket or
    /// terminal (read against `InputFile.streamTimeout`); devices and directories are 66,
    /// and more than an e-mail's `MessageReader.maxBytes` is refused (65) as soon as it
    /// arrives (what is not a message is held to `maxBytes` by `unwrap`).
    public static func data(_ path: String) throws -> Data {
        // Read up to an e-mail's bound; what is not a message keeps `maxBytes` (`unwrap`).
        let limit = MessageReader.maxBytes
        do {
            return try InputFile.read(path, limit: limit, accepting: .streams)
        } catch let error as InputTooLarge {
            let size = error.size.map { "\($0) bytes" } ?? "more than \(limit) bytes"
            throw InviteError(file: error.path, message: "too large (\(size); at most \(maxBytes), or \(limit) for an e-mail message)")
        }
    }

    /// The invitation bytes in `data`: the calendar part of an e-mail message (with its
    /// headers), or `data` itself. - Throws: a message without an invitation (65).
    public static func unwrap(_ data: Data, name: String) throws -> (data: Data, mail: MailHeaders?) {
        guard !startsLike(data, "BEGIN:VCALENDAR"), !startsLike(data, "{"), !startsLike(data, "["),
              MessageReader.isMessage(data) else {
            guard data.count <= maxBytes else {
                throw InviteError(file: name, message: "too large (\(data.count) bytes; at most \(maxBytes))")
            }
            return (try shaped(data, name: name, part: "invitation"), nil)
        }
        if let messages = Mbox.messages(in: data), messages.count > 1 {
            throw InviteError(file: name, message: "is an mbox of \(messages.count) messages; an INVITE is one message (read them all with 'coolcal merge --spool \(name) CAL')")
        }
        do {
            let found = try MessageReader.read(data)
            guard startsLike(found.calendar, "BEGIN:VCALENDAR") else {
                throw InviteError(file: name, message: "the \(found.partType) part of this message is not iCalendar (no BEGIN:VCALENDAR)")
            }
            return (try shaped(found.calendar, name: name, part: "calendar part"), found.headers)
        } catch let error as MessageError {
            throw InviteError(file: name, message: error.message)
        }
    }

    /// The invitation's bytes with CRs before folds dropped (`CalendarPartShape`); a
    /// second VCALENDAR is an error, never a calendar read and the rest dropped.
    private static func shaped(_ data: Data, name: String, part: String) throws -> Data {
        guard startsLike(data, "BEGIN:VCALENDAR") else { return data }
        guard CalendarPartShape.calendars(in: data) <= 1 else {
            throw InviteError(file: name, message: "a second VCALENDAR in the \(part)")
        }
        return CalendarPartShape.droppingCRsBeforeFolds(data)
    }

    /// `open` of bytes already read; `name` is what messages call them. With
    /// `acceptingReplies` (a `merge` spool), a `METHOD:REPLY` is read too (`Invite.isReply`).
    public static func open(_ data: Data, name: String, floatingZone: TimeZone, acceptingReplies: Bool = false) throws -> InvitationFile {
        let (data, mail) = try unwrap(data, name: name)
        guard try isICalendar(data, name: name) else {
            return InvitationFile(invite: try payload(data, name: name), message: nil, text: data)
        }
        var (invite, calendar) = try ITIPInvite.read(data, file: name, floatingZone: floatingZone, acceptingReplies: acceptingReplies,
                                                     coverage: true)
        invite.mail = mail
        guard case .uid(let uid) = invite.id else { return InvitationFile(invite: invite, message: nil, text: data) }
        do {
            return try InvitationFile(invite: invite, message: try ITIPMessage(data, uid: uid, zones: calendar.zones, file: name), text: data)
                .agreeing(name: name)
        } catch let error as ICalError {
            throw InviteError(file: name, message: error.message)
        }
    }

    /// An invitation from bytes already read; `name` is what messages call it.
    public static func parse(_ data: Data, name: String, floatingZone: TimeZone) throws -> Invite {
        let (data, mail) = try unwrap(data, name: name)
        if try isICalendar(data, name: name) {
            var invite = try ITIPInvite.parse(data, file: name, floatingZone: floatingZone)
            invite.mail = mail
            return invite
        }
        return try payload(data, name: name)
    }

    /// A push payload; bytes that do not even start like JSON are named as what they are
    /// not: none of the three kinds of INVITE.
    private static func payload(_ data: Data, name: String) throws -> Invite {
        do {
            return try PushPayload.parse(data, file: name)
        } catch var error as InviteError where error.message.hasPrefix("not valid JSON") && !startsLike(data, "{") && !startsLike(data, "[") {
            error.message = "neither a JSON push payload, an iCalendar invitation (BEGIN:VCALENDAR) nor an e-mail message (\(error.message))"
            throw error
        }
    }

    /// The bytes start with `prefix` after blank space and a UTF-8 byte-order mark.
    package static func startsLike(_ data: Data, _ prefix: String) -> Bool {
        let head = data.prefix(64).drop(while: { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF })
        return head.starts(with: Array(prefix.utf8))
    }

    /// iCalendar (its first line `BEGIN:VCALENDAR`) or else a push payload; too large
    /// is refused either way.
    private static func isICalendar(_ data: Data, name: String) throws -> Bool {
        guard data.count <= maxBytes else {
            throw InviteError(file: name, message: "too large (\(data.count) bytes; at most \(maxBytes))")
        }
        return startsLike(data, "BEGIN:VCALENDAR")
    }
}

/// An invitation as read from its file, with the iTIP message behind it when it is one.
public struct InvitationFile {
    public var invite: Invite
    public var message: ITIPMessage?
    /// The invitation's own bytes (an e-mail's calendar part), as the inbox keeps them.
    public var text = Data()
}
