/// Text from a calendar, payload or server made safe to print to a terminal.
public enum PrintableText {
    /// C0 and C1 control characters and DEL: never printed raw to a terminal.
    public static func isControl(_ u: Unicode.Scalar) -> Bool {
        u.value < 0x20 || (0x7F...0x9F).contains(u.value)
    }

    /// Unicode's explicit bidirectional embeddings, overrides and isolates (U+202A–202E,
    /// U+2066–2069): they reorder what follows on screen (`Pay invoice \u{202E}fdp.exe`
    /// shows as "…exe.pdf"), so they are never printed.
    public static func isBidiControl(_ u: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(u.value) || (0x2066...0x2069).contains(u.value)
    }

    /// U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR: line breaks to a terminal.
    public static func isSeparator(_ u: Unicode.Scalar) -> Bool {
        u.value == 0x2028 || u.value == 0x2029
    }

    /// Control characters (escape sequences, bells, carriage returns) and the line and
    /// paragraph separators become spaces, newlines too unless kept; bidi controls go.
    public static func clean(_ text: String, keepNewlines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) || isBidiControl($0) || isSeparator($0) }) else { return text }
        var out = String.UnicodeScalarView()
        for u in text.unicodeScalars where !isBidiControl(u) {
            out.append((isControl(u) || isSeparator(u)) && !(keepNewlines && u == "\n") ? " " : u)
        }
        return String(out)
    }

    /// The longest a title is in a one-line output, in grapheme clusters.
    public static let titleLimit = 200

    /// A title for a one-line output: cleaned, on one line, cut at `limit` (by default
    /// `titleLimit`) grapheme clusters with `…` (the stored event keeps it whole).
    public static func title(_ text: String, limit: Int = titleLimit) -> String {
        let line = clean(text, keepNewlines: false)
        guard line.count > limit else { return line }
        return String(line.prefix(max(0, limit - 1))) + "…"
    }
}
