/// Line edits of one stored VEVENT block, on its bytes, so that a cancellation
/// changes two properties and leaves every other byte of the event as the user's
/// file has it (libical re-serializing the block would drop values it cannot read,
/// and decoding it as text would replace bytes that are not UTF-8).
public enum BlockEdit {
    /// The block with its own `STATUS` set to `CANCELLED` and, when given, its own
    /// `SEQUENCE` set to `sequence`: an existing property (all its folded lines) is
    /// replaced where it stands, a missing one is added before the block's last
    /// `END:VEVENT`. Properties of nested components (VALARM) are not touched. Nil
    /// when the block has no `END:VEVENT` line.
    public static func cancel(block: [UInt8], sequence: Int?) -> [UInt8]? {
        var lines = physicalLines(block)
        guard lines.contains(where: isEndVEvent) else { return nil }
        let ending = lines.first.map(\.ending).flatMap { $0.isEmpty ? nil : $0 } ?? Array("\r\n".utf8)
        var wanted: [(String, String)] = [("STATUS", "STATUS:CANCELLED")]
        if let sequence { wanted.append(("SEQUENCE", "SEQUENCE:\(sequence)")) }
        for (property, replacement) in wanted {
            guard let endLine = lines.lastIndex(where: isEndVEvent) else { return nil }
            if let range = ownProperty(property, in: lines, before: endLine) {
                let kept = lines[range.upperBound - 1].ending
                lines.replaceSubrange(range, with: [Line(text: Array(replacement.utf8), ending: kept.isEmpty ? ending : kept)])
            } else {
                lines.insert(Line(text: Array(replacement.utf8), ending: ending), at: endLine)
            }
        }
        return lines.flatMap { $0.text + $0.ending }
    }

    struct Line {
        var text: [UInt8]
        var ending: [UInt8]
    }

    private static func isEndVEvent(_ line: Line) -> Bool {
        upper(line.text.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()).elementsEqual("END:VEVENT".utf8)
    }

    /// The physical lines of the event's own (depth 1) property `property`.
    private static func ownProperty(_ property: String, in lines: [Line], before endLine: Int) -> Range<Int>? {
        var depth = 0
        for i in 0..<min(endLine, lines.count) {
            let text = lines[i].text
            if text.first == 0x20 || text.first == 0x09 { continue }
            let n = name(of: text)
            if n == "BEGIN" { depth += 1 } else if n == "END" { depth -= 1 }
            guard depth == 1 && n == property else { continue }
            var end = i + 1
            while end < lines.count, let c = lines[end].text.first, c == 0x20 || c == 0x09 { end += 1 }
            return i..<end
        }
        return nil
    }

    /// Lines without their endings, and each ending (`\r\n`, `\n`, or none at the end).
    private static func physicalLines(_ bytes: [UInt8]) -> [Line] {
        var result: [Line] = []
        var start = 0
        while start < bytes.count {
            guard let nl = bytes[start...].firstIndex(of: 0x0A) else {
                result.append(Line(text: Array(bytes[start...]), ending: []))
                break
            }
            let cr = nl > start && bytes[nl - 1] == 0x0D
            result.append(Line(text: Array(bytes[start..<(cr ? nl - 1 : nl)]), ending: cr ? [0x0D, 0x0A] : [0x0A]))
            start = nl + 1
        }
        return result
    }

    /// A content line's property name, upper-cased (up to the first `;` or `:`).
    private static func name(of line: [UInt8]) -> String {
        String(decoding: upper(line.prefix { $0 != 0x3B && $0 != 0x3A }).filter { $0 != 0x20 && $0 != 0x09 }, as: UTF8.self)
    }

    private static func upper<S: Sequence>(_ bytes: S) -> [UInt8] where S.Element == UInt8 {
        bytes.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 32 : $0 }
    }
}
