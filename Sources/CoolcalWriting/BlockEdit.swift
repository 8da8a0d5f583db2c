import CoolcalModel

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
        var wanted: [(String, String)] = [("STATUS", "STATUS:CANCELLED")]
        if let sequence { wanted.append(("SEQUENCE", "SEQUENCE:\(sequence)")) }
        return setting(wanted, in: block)
    }

    /// The block with each `(PROPERTY, whole line)` set the same way: the event's own
    /// property replaced where it stands, else added before its last `END:VEVENT`
    /// (changing your mind: `STATUS:TENTATIVE`, `TRANSP:TRANSPARENT`). Nil when the
    /// block has no `END:VEVENT` line.
    public static func setting(_ wanted: [(String, String)], in block: [UInt8]) -> [UInt8]? {
        var lines = physicalLines(block)
        guard lines.contains(where: isEndVEvent) else { return nil }
        let ending = ContentLines.lineEnding(of: block)
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

    package struct Line {
        package var text: [UInt8]
        package var ending: [UInt8]
    }

    private static func isEndVEvent(_ line: Line) -> Bool {
        ContentLines.line(line.text, is: "END:VEVENT")
    }

    /// The physical lines of the event's own (depth 1) property `property`.
    private static func ownProperty(_ property: String, in lines: [Line], before endLine: Int) -> Range<Int>? {
        var depth = 0
        for i in 0..<min(endLine, lines.count) {
            let text = lines[i].text
            if let first = text.first, ContentLines.isFold(first) { continue }
            let n = name(of: text)
            if n == "BEGIN" { depth += 1 } else if n == "END" { depth -= 1 }
            guard depth == 1 && n == property else { continue }
            var end = i + 1
            while end < lines.count, let c = lines[end].text.first, ContentLines.isFold(c) { end += 1 }
            return i..<end
        }
        return nil
    }

    /// Lines without their endings, and each ending (`\r\n`, `\n`, or none at the end).
    private static func physicalLines(_ bytes: [UInt8]) -> [Line] {
        ContentLines.physical(bytes).map { Line(text: Array(bytes[$0.content]), ending: Array(bytes[$0.ending])) }
    }

    /// A content line's property name, upper-cased (up to the first `;` or `:`), with
    /// blanks inside it dropped as well (`STA TUS:` counts as STATUS, as it always has).
    private static func name(of line: [UInt8]) -> String {
        String(decoding: ContentLines.propertyName(line).filter { $0 != 0x20 && $0 != 0x09 }, as: UTF8.self)
    }
}
