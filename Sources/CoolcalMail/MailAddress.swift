/// One mailbox of a header (`Name <local@domain>`), as Swift values; the Mail/ folder
/// turns it into a header with GMime's encoders.
public struct MailAddress: Equatable, Sendable {
    /// The display name (a CN), nil for a bare address.
    public var name: String?
    /// A single addr-spec, `local@domain`.
    public var address: String

    /// A mailbox from a calendar address (`mailto:` optional, case-insensitive) and a
    /// display name (none when it only repeats the address); nil unless it is exactly one plain addr-spec. Anything that could
    /// make `sendmail -t` see a second recipient (a comma, angle brackets, spaces,
    /// control characters, a group) is refused, not cleaned.
    public init?(calendarAddress raw: String, name: String? = nil) {
        var text = Substring(raw.trimmingCharacters(in: .whitespaces))
        if text.lowercased().hasPrefix("mailto:") { text = text.dropFirst(7) }
        let refused = Set("<>(),;:\"[]\\ \t")
        let at = text.filter { $0 == "@" }.count
        guard at == 1, let sign = text.firstIndex(of: "@"), sign != text.startIndex, text.index(after: sign) != text.endIndex,
              !text.contains(where: { refused.contains($0) }),
              text.unicodeScalars.allSatisfy({ !HeaderText.isControl($0) && $0.value > 0x20 }) else { return nil }
        address = String(text)
        // A CN that is only the address again (Gmail writes those) names nobody.
        var cleaned = name.map(HeaderText.clean)
        if let given = cleaned, given.lowercased().replacingOccurrences(of: "mailto:", with: "") == address.lowercased() { cleaned = nil }
        self.name = cleaned?.isEmpty == false ? cleaned : nil
    }
}

/// Header values from data that came from a user or a file: control characters
/// (CR, LF, TAB, C1, Unicode line and paragraph separators) become spaces, runs of
/// spaces one, so no value can end its header line and start another.
public enum HeaderText {
    public static func clean(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var lastWasSpace = true
        for scalar in text.unicodeScalars {
            let space = isControl(scalar) || scalar == " "
            if space {
                if !lastWasSpace { out.append(" ") }
            } else {
                out.append(scalar)
            }
            lastWasSpace = space
        }
        var result = String(out)
        while result.hasSuffix(" ") { result.removeLast() }
        return result
    }

    /// C0, DEL, C1, and U+2028/U+2029 (which some readers take as line breaks).
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
