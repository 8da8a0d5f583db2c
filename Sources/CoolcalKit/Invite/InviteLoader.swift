import Foundation

/// Loads an invitation from a file or `-`, telling a push payload (JSON) from an
/// iTIP invitation (iCalendar) by content.
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
        try open(try data(path), name: InputFile.displayName(path), floatingZone: floatingZone)
    }

    /// The bytes of an invitation file, standard input (`-`), a pipe, FIFO, socket or
    /// terminal (read against `InputFile.streamTimeout`); devices and directories are 66,
    /// and more than `maxBytes` is refused (65) as soon as it arrives.
    public static func data(_ path: String) throws -> Data {
        do {
            return try InputFile.read(path, limit: maxBytes, accepting: .streams)
        } catch let error as InputTooLarge {
            let size = error.size.map { "\($0) bytes" } ?? "more than \(maxBytes) bytes"
            throw InviteError(file: error.path, message: "too large (\(size); at most \(maxBytes))")
        }
    }

    /// `open` of bytes already read; `name` is what messages call them.
    public static func open(_ data: Data, name: String, floatingZone: TimeZone) throws -> InvitationFile {
        guard try isICalendar(data, name: name) else {
            return InvitationFile(invite: try PushPayload.parse(data, file: name), message: nil)
        }
        let (invite, calendar) = try ITIPInvite.read(data, file: name, floatingZone: floatingZone)
        guard case .uid(let uid) = invite.id else { return InvitationFile(invite: invite, message: nil) }
        do {
            return InvitationFile(invite: invite, message: try ITIPMessage(data, uid: uid, zones: calendar.zones, file: name))
        } catch let error as ICalError {
            throw InviteError(file: name, message: error.message)
        }
    }

    /// An invitation from bytes already read; `name` is what messages call it.
    public static func parse(_ data: Data, name: String, floatingZone: TimeZone) throws -> Invite {
        if try isICalendar(data, name: name) {
            return try ITIPInvite.parse(data, file: name, floatingZone: floatingZone)
        }
        return try PushPayload.parse(data, file: name)
    }

    /// iCalendar (its first line `BEGIN:VCALENDAR`) or else a push payload; too large
    /// is refused either way.
    private static func isICalendar(_ data: Data, name: String) throws -> Bool {
        guard data.count <= maxBytes else {
            throw InviteError(file: name, message: "too large (\(data.count) bytes; at most \(maxBytes))")
        }
        let head = data.prefix(64).drop(while: { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF })
        return head.starts(with: Array("BEGIN:VCALENDAR".utf8))
    }
}

/// An invitation as read from its file, with the iTIP message behind it when it is one.
public struct InvitationFile {
    public var invite: Invite
    public var message: ITIPMessage?
}
