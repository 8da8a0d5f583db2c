import Foundation

/// A calendar user's address (`mailto:Me@Example.com`), as coolcal compares them.
public enum CalendarAddress {
    /// `mailto:Me@Example.com` → `me@example.com`.
    public static func normalized(_ address: String) -> String {
        var a = address.trimmingCharacters(in: .whitespaces)
        if a.lowercased().hasPrefix("mailto:") { a.removeFirst(7) }
        return a.lowercased()
    }
}
