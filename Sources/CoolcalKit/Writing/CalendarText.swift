import Foundation

/// The raw bytes of a calendar file, for minimal edits: where its top-level VEVENT
/// blocks and its last `END:VCALENDAR` line are, and which line ending it uses.
/// Only locates; libical decides what a block means.
struct CalendarText {
    let bytes: [UInt8]

    /// `\r\n` unless the file's first line ends in a bare `\n`.
    var lineEnding: String {
        String(decoding: ContentLines.lineEnding(of: bytes), as: UTF8.self)
    }

    /// Each physical line, by offsets (`ContentLines`).
    private func lines() -> [ContentLines.Line] {
        ContentLines.physical(bytes)
    }

    /// The line's content is `text`, ignoring ASCII case and trailing blanks.
    private func line(_ r: Range<Int>, is text: StaticString) -> Bool {
        ContentLines.line(bytes[r], is: text)
    }

    /// Each top-level `BEGIN:VEVENT` … `END:VEVENT`, line endings included.
    func veventBlocks() -> [Range<Int>] {
        var blocks: [Range<Int>] = []
        var open: Int?
        var depth = 0
        for l in lines() {
            if line(l.content, is: "BEGIN:VEVENT") {
                if open == nil { open = l.full.lowerBound; depth = 0 }
                depth += 1
            } else if open != nil && line(l.content, is: "END:VEVENT") {
                depth -= 1
                if depth == 0, let start = open {
                    blocks.append(start..<l.full.upperBound)
                    open = nil
                }
            }
        }
        return blocks
    }

    /// Where a new VEVENT goes: the start of the last `END:VCALENDAR` line.
    func insertionPoint() -> Int? {
        lines().last { line($0.content, is: "END:VCALENDAR") }?.full.lowerBound
    }

    /// The block's text with folded lines joined, for cheap substring checks.
    func unfolded(_ r: Range<Int>) -> String {
        String(decoding: ContentLines.unfolded(Array(bytes[r])), as: UTF8.self)
    }
}
