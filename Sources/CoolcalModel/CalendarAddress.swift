import Foundation

/// A calendar user's address (`mailto:Me@Example.com`), as coolcal compares them.
public enum CalendarAddress {
    /// `mailto:Me@Example.com` → `me@example.com`.
    /// A value with `mailto:` inside (`CN=ORGANIZER:mailto:x@y`, a parameter that lost
    /// its semicolon, as a rail company writes it) is the address after the last one.
    public static func normalized(_ address: String) -> String {
        var a = address.trimmingCharacters(in: .whitespaces).lowercased()
        if let found = a.range(of: "mailto:", options: .backwards) { a = String(a[found.upperBound...]) }
        return a.trimmingCharacters(in: .whitespaces)
    }

    /// The address of a mail header such as `From: "Alice" <Alice@Example.com>`,
    /// normalized (`alice@example.com`); nil when it holds none.
    /// A header naming more than one mailbox (`a@x, b@y`, a group) names none: which
    /// of them sent it cannot be told (a forger lists the organizer beside himself).
    public static func ofHeader(_ header: String) -> String? {
        guard outsideQuotes(header).filter({ $0 == "@" }).count == 1 else { return nil }
        var text = Substring(header)
        if let open = text.lastIndex(of: "<"), let close = text[open...].firstIndex(of: ">") {
            text = text[text.index(after: open)..<close]
        }
        let address = normalized(String(text))
        return address.contains("@") && !address.contains(" ") ? address : nil
    }

    /// Who mailed an invitation, for organizer binding: nil when it did not come by mail,
    /// "" when its mail has no single sender address (binding then holds it).
    public static func sender(of mail: MailHeaders?) -> String? {
        mail.map { $0.from.flatMap(ofHeader) ?? "" }
    }

    /// The text without its quoted strings and comments (a display name may hold an `@`).
    private static func outsideQuotes(_ text: String) -> String {
        var out = ""
        var quoted = false, depth = 0, escaped = false
        for c in text {
            if escaped { escaped = false; continue }
            if c == "\\" && (quoted || depth > 0) { escaped = true; continue }
            if c == "\"" && depth == 0 { quoted.toggle(); continue }
            if !quoted && c == "(" { depth += 1; continue }
            if !quoted && c == ")" && depth > 0 { depth -= 1; continue }
            if !quoted && depth == 0 { out.append(c) }
        }
        return out
    }
}
