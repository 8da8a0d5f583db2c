/// Text from a calendar, payload or server made safe to print to a terminal.
public enum PrintableText {
    /// C0 and C1 control characters and DEL: never printed raw to a terminal.
    public static func isControl(_ u: Unicode.Scalar) -> Bool {
        u.value < 0x20 || (0x7F...0x9F).contains(u.value)
    }

    /// Control characters (escape sequences, bells, carriage returns) become spaces;
    /// newlines too unless kept.
    public static func clean(_ text: String, keepNewlines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for u in text.unicodeScalars {
            out.append(isControl(u) && !(keepNewlines && u == "\n") ? " " : u)
        }
        return String(out)
    }
}
