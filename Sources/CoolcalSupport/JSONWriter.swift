/// Serializes `JSONValue` with keys in the order given: compact, or pretty with
/// two-space indents, always ending in a newline.
public enum JSONWriter {
    public static func string(_ value: JSONValue, pretty: Bool = true) -> String {
        var out = ""
        Self.write(value, indent: pretty ? 0 : nil, into: &out)
        return out + "\n"
    }

    private static func write(_ value: JSONValue, indent: Int?, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += d.isFinite ? String(d) : "null"
        case .string(let s): quote(s, into: &out)
        case .array(let items):
            container("[", "]", items.count, indent, &out) { i, level, out in
                Self.write(items[i], indent: level, into: &out)
            }
        case .object(let pairs):
            container("{", "}", pairs.count, indent, &out) { i, level, out in
                quote(pairs[i].0, into: &out)
                out += level == nil ? ":" : ": "
                Self.write(pairs[i].1, indent: level, into: &out)
            }
        }
    }

    private static func container(_ open: String, _ close: String, _ count: Int, _ indent: Int?,
                                  _ out: inout String, _ item: (Int, Int?, inout String) -> Void) {
        out += open
        guard count > 0 else { out += close; return }
        let inner = indent.map { $0 + 2 }
        for i in 0..<count {
            if i > 0 { out += "," }
            if let inner { out += "\n" + String(repeating: " ", count: inner) }
            item(i, inner, &out)
        }
        if let indent { out += "\n" + String(repeating: " ", count: indent) }
        out += close
    }

    private static func quote(_ s: String, into out: inout String) {
        out += "\""
        defer { out += "\"" }
        // Most strings need no escape: no quote, backslash or control byte, and no 0xE2
        // (the first byte of U+2028 and U+2029; a string with any other 0xE2 character
        // takes the loop below too). `merge` quotes every conflict of every invitation.
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C && $0 != 0xE2 }) {
            out += s
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
    }
}
