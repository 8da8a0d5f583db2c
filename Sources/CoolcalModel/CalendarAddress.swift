import Foundation

/// A calendar user's address (`mailto:Me@Example.com`), as coolcal compares them.
public enum CalendarAddress {
    /// `mailto:Me@Example.com` → `me@example.com`.
    public static func normalized(_ address: String) -> String {
        var a = address.trimmingCharacters(in: .whitespaces)
        if a.lowercased().hasPrefix("mailto:") { a.removeFirst(7) }
        return a.lowercased()
    }

    /// The address of a mail header such as `From: "Alice" <Alice@Example.com>`,
    /// normalized (`alice@example.com`); nil when it holds none.
    public static func ofHeader(_ header: String) -> String? {
        var text = Substring(header)
        if let open = text.lastIndex(of: "<"), let close = text[open...].firstIndex(of: ">") {
            text = text[text.index(after: open)..<close]
        }
        let address = normalized(String(text))
        return address.contains("@") && !address.contains(" ") ? address : nil
    }
}
