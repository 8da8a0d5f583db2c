import Foundation

/// Loads an invitation from a file or `-`, telling a push payload (JSON) from an
/// iTIP invitation (iCalendar) by content.
public enum InviteLoader {
    /// Payloads larger than this are refused before parsing.
    public static let maxBytes = 1 << 20

    public static func load(_ path: String, floatingZone: TimeZone) throws -> Invite {
        try parse(try InputFile.read(path), name: InputFile.displayName(path), floatingZone: floatingZone)
    }

    /// An invitation from bytes already read; `name` is what messages call it.
    public static func parse(_ data: Data, name: String, floatingZone: TimeZone) throws -> Invite {
        guard data.count <= maxBytes else {
            throw InviteError(file: name, message: "too large (\(data.count) bytes; at most \(maxBytes))")
        }
        let head = data.prefix(64).drop(while: { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF })
        if head.starts(with: Array("BEGIN:VCALENDAR".utf8)) {
            return try ITIPInvite.parse(data, file: name, floatingZone: floatingZone)
        }
        return try PushPayload.parse(data, file: name)
    }
}
