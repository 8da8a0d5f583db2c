import Foundation

/// A JSON value that keeps object key order (for output) and tells integers from
/// other numbers (for input validation).
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The value of `key` in an object (first match), else nil.
    public subscript(key: String) -> JSONValue? {
        if case .object(let pairs) = self { return pairs.first { $0.0 == key }?.1 }
        return nil
    }

    /// A short name of the value's type, for messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

extension JSONValue: Decodable {
    public init(from decoder: Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !array.isAtEnd { items.append(try array.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            // Decoded keys come back unordered; keep them sorted for stability.
            var pairs: [(String, JSONValue)] = []
            for key in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                pairs.append((key.stringValue, try object.decode(JSONValue.self, forKey: key)))
            }
            self = .object(pairs)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .null }
        else if let b = try? single.decode(Bool.self) { self = .bool(b) }
        else if let i = try? single.decode(Int64.self) { self = .int(i) }
        else if let d = try? single.decode(Double.self) { self = .double(d) }
        else { self = .string(try single.decode(String.self)) }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }
}

extension JSONValue {
    /// Foundation's JSON parsers accept `{"a": 1,}`; RFC 8259 does not. The line and
    /// column of the first comma that closes nothing, else nil.
    public static func trailingComma(in data: Data) -> (line: Int, column: Int)? {
        var inString = false, escaped = false
        var line = 1, column = 0
        var comma: (Int, Int)?
        for byte in data {
            column += 1
            if byte == 0x0A { line += 1; column = 0 }
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                continue
            }
            switch byte {
            case 0x22: inString = true; comma = nil
            case 0x2C: comma = (line, column)
            case 0x7D, 0x5D: if let c = comma { return (c.0, c.1) }
            case 0x20, 0x09, 0x0A, 0x0D: break
            default: comma = nil
            }
        }
        return nil
    }
}

extension JSONValue {
    /// One step from a document's root to a value: an object member or an array element.
    public enum PathStep: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    /// The text of every number in `data` that is not an `Int64` as written (fractions,
    /// exponents, integers out of range), by where it sits; a key given twice keeps both.
    /// A `Double` cannot show such a number as the user wrote it
    /// (`123456789012345678901234567890` becomes `1.2345678901234568e+29`), so messages
    /// take its text from here. `data` is JSON that has already been decoded; anything
    /// else gives a partial answer, never a crash.
    public static func numberTexts(in data: Data) -> [[PathStep]: [String]] {
        struct Frame {
            var isObject: Bool
            var key = ""
            var index = 0
            var expectingKey = true
        }
        var result: [[PathStep]: [String]] = [:]
        var stack: [Frame] = []
        let bytes = [UInt8](data)
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                stack.append(Frame(isObject: byte == UInt8(ascii: "{")))
                i += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !stack.isEmpty { stack.removeLast() }
                i += 1
            case UInt8(ascii: ","):
                if let last = stack.indices.last {
                    if stack[last].isObject { stack[last].expectingKey = true } else { stack[last].index += 1 }
                }
                i += 1
            case UInt8(ascii: ":"):
                if let last = stack.indices.last { stack[last].expectingKey = false }
                i += 1
            case UInt8(ascii: "\""):
                var end = i + 1, escaped = false
                while end < bytes.count, escaped || bytes[end] != UInt8(ascii: "\"") {
                    escaped = !escaped && bytes[end] == UInt8(ascii: "\\")
                    end += 1
                }
                if let last = stack.indices.last, stack[last].isObject, stack[last].expectingKey {
                    let raw = bytes[i..<min(end + 1, bytes.count)]
                    stack[last].key = raw.contains(UInt8(ascii: "\\"))
                        ? ((try? JSONDecoder().decode(String.self, from: Data(raw))) ?? "")
                        : String(decoding: raw.dropFirst().dropLast(), as: UTF8.self)
                }
                i = end + 1
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                var end = i + 1
                while end < bytes.count, Self.numberBytes.contains(bytes[end]) { end += 1 }
                let text = String(decoding: bytes[i..<end], as: UTF8.self)
                if Int64(text) == nil {
                    let path = stack.map { $0.isObject ? PathStep.key($0.key) : PathStep.index($0.index) }
                    result[path, default: []].append(text)
                }
                i = end
            default:
                i += 1
            }
        }
        return result
    }

    private static let numberBytes = Set("0123456789+-.eE".utf8)
}
