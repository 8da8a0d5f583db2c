/// Terminal colours from a calendar's `COLOR` (RFC 7986: a CSS3 name) or
/// `X-APPLE-CALENDAR-COLOR` (`#RRGGBB` or `#RRGGBBAA`).
package enum CalendarColor {
    /// An SGR parameter string for 24-bit colour, or nil when the value is unknown.
    package static func sgr(_ value: String?) -> String? {
        guard let value = value?.trimmingCharacters(in: .whitespaces).lowercased(), !value.isEmpty else { return nil }
        let hex = value.hasPrefix("#") ? String(value.dropFirst()) : (names[value] ?? "")
        guard hex.count == 6 || hex.count == 8, let rgb = UInt32(hex.prefix(6), radix: 16) else { return nil }
        return "38;2;\(rgb >> 16 & 0xFF);\(rgb >> 8 & 0xFF);\(rgb & 0xFF)"
    }

    /// The CSS3 names calendar programs commonly write.
    private static let names: [String: String] = [
        "black": "000000", "white": "ffffff", "red": "ff0000", "green": "008000", "blue": "0000ff",
        "yellow": "ffff00", "orange": "ffa500", "purple": "800080", "pink": "ffc0cb", "brown": "a52a2a",
        "gray": "808080", "grey": "808080", "cyan": "00ffff", "magenta": "ff00ff", "teal": "008080",
        "navy": "000080", "olive": "808000", "maroon": "800000", "lime": "00ff00", "silver": "c0c0c0",
        "steelblue": "4682b4", "seagreen": "2e8b57", "tomato": "ff6347", "gold": "ffd700",
        "royalblue": "4169e1", "crimson": "dc143c", "coral": "ff7f50", "orchid": "da70d6",
        "salmon": "fa8072", "turquoise": "40e0d0", "indigo": "4b0082", "violet": "ee82ee",
        "skyblue": "87ceeb", "forestgreen": "228b22", "darkorange": "ff8c00", "slategray": "708090",
        "dodgerblue": "1e90ff", "firebrick": "b22222", "goldenrod": "daa520", "mediumpurple": "9370db",
    ]
}
