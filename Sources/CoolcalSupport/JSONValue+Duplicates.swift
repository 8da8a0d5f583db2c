import Foundation

extension JSONValue {
    /// The first key that an object of `data` gives twice, with the line it is on; nil
    /// when none does. Readers disagree on which of the two counts (Foundation keeps the
    /// first, Python and most others the last), so one document would be two invitations.
    /// `data` is JSON that has already been decoded; anything else gives a partial answer.
    public static func duplicateKey(in data: Data) -> (key: String, line: Int)? {
        struct Frame {
            var isObject: Bool
            var expectingKey = true
            var keys: Set<String> = []
        }
        var stack: [Frame] = []
        let bytes = [UInt8](data)
        var i = 0, line = 1
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                stack.append(Frame(isObject: bytes[i] == UInt8(ascii: "{")))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !stack.isEmpty { stack.removeLast() }
            case UInt8(ascii: ","):
                if let last = stack.indices.last, stack[last].isObject { stack[last].expectingKey = true }
            case UInt8(ascii: ":"):
                if let last = stack.indices.last { stack[last].expectingKey = false }
            case 0x0A:
                line += 1
            case UInt8(ascii: "\""):
                var end = i + 1, escaped = false
                while end < bytes.count, escaped || bytes[end] != UInt8(ascii: "\"") {
                    escaped = !escaped && bytes[end] == UInt8(ascii: "\\")
                    end += 1
                }
                if let last = stack.indices.last, stack[last].isObject, stack[last].expectingKey {
                    let raw = Data(bytes[i..<min(end + 1, bytes.count)])
                    let key = (try? JSONDecoder().decode(String.self, from: raw)) ?? String(decoding: raw, as: UTF8.self)
                    if !stack[last].keys.insert(key).inserted { return (key, line) }
                }
                i = end
            default:
                break
            }
            i += 1
        }
        return nil
    }
}
