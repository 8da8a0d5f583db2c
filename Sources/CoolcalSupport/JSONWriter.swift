/// Serializes `JSONValue` with keys in the order given: compact, or pretty with
/// two-space indents, always ending in a newline. Written as UTF-8 bytes into one
/// buffer, made a `String` once (`merge` writes every conflict of every invitation:
/// megabytes of it for a large calendar).
public enum JSONWriter {
    public static func string(_ value: JSONValue, pretty: Bool = true) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(1 << 12)
        emit(value, indent: pretty ? 0 : nil, into: &out)
        out.append(0x0A)
        return String(decoding: out, as: UTF8.self)
    }

    private static func emit(_ value: JSONValue, indent: Int?, into out: inout [UInt8]) {
        switch value {
        case .null: out += "null".utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .int(let i): out += String(i).utf8
        case .double(let d): out += (d.isFinite ? String(d) : "null").utf8
        case .string(let s): quote(s, into: &out)
        case .array(let items):
            container(0x5B, 0x5D, items.count, indent, &out) { i, level, out in
                Self.emit(items[i], indent: level, into: &out)
            }
        case .object(let pairs):
            container(0x7B, 0x7D, pairs.count, indent, &out) { i, level, out in
                quote(pairs[i].0, into: &out)
                out.append(0x3A)
                if level != nil { out.append(0x20) }
                Self.emit(pairs[i].1, indent: level, into: &out)
            }
        }
    }

    private static func container(_ open: UInt8, _ close: UInt8, _ count: Int, _ indent: Int?,
                                  _ out: inout [UInt8], _ item: (Int, Int?, inout [UInt8]) -> Void) {
        out.append(open)
        guard count > 0 else { out.append(close); return }
        let inner = indent.map { $0 + 2 }
        for i in 0..<count {
            if i > 0 { out.append(0x2C) }
            if let inner { newline(inner, &out) }
            item(i, inner, &out)
        }
        if let indent { newline(indent, &out) }
        out.append(close)
    }

    private static func newline(_ indent: Int, _ out: inout [UInt8]) {
        out.append(0x0A)
        out.append(contentsOf: repeatElement(0x20, count: indent))
    }

    private static func quote(_ s: String, into out: inout [UInt8]) {
        out.append(0x22)
        defer { out.append(0x22) }
        // Most strings need no escape: no quote, backslash or control byte, and no 0xE2
        // (the first byte of U+2028 and U+2029; a string with any other 0xE2 character
        // takes the loop below too): their bytes are copied whole.
        var text = s
        let copied = text.withUTF8 { bytes -> Bool in
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C && $0 != 0xE2 }) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if copied { return }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\"".utf8
            case "\\": out += "\\\\".utf8
            case "\n": out += "\\n".utf8
            case "\r": out += "\\r".utf8
            case "\t": out += "\\t".utf8
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8
            default: out += String(scalar).utf8
            }
        }
    }
}
