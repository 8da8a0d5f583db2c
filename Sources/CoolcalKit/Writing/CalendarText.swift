import Foundation

/// The raw bytes of a calendar file, for minimal edits: where its top-level VEVENT
/// blocks and its last `END:VCALENDAR` line are, and which line ending it uses.
/// Only locates; libical decides what a block means.
struct CalendarText {
    let bytes: [UInt8]

    /// `\r\n` unless the file's first line ends in a bare `\n`.
    var lineEnding: String {
        guard let nl = bytes.firstIndex(of: 0x0A) else { return "\r\n" }
        return nl > 0 && bytes[nl - 1] == 0x0D ? "\r\n" : "\n"
    }

    /// Byte ranges of each line, without its line ending.
    private func lines() -> [(content: Range<Int>, full: Range<Int>)] {
        var result: [(Range<Int>, Range<Int>)] = []
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            let next = end < bytes.count ? end + 1 : end
            var contentEnd = end
            if contentEnd > start && bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            result.append((start..<contentEnd, start..<next))
            start = next
        }
        return result
    }

    private func line(_ r: Range<Int>, is text: String) -> Bool {
        let trimmed = bytes[r].reversed().drop(while: { $0 == 0x20 || $0 == 0x09 }).reversed()
        return trimmed.count == text.utf8.count
            && zip(trimmed, text.utf8).allSatisfy { a, b in (a >= 0x61 && a <= 0x7A ? a - 32 : a) == b }
    }

    /// Each top-level `BEGIN:VEVENT` … `END:VEVENT`, line endings included.
    func veventBlocks() -> [Range<Int>] {
        var blocks: [Range<Int>] = []
        var open: Int?
        var depth = 0
        for (content, full) in lines() {
            if line(content, is: "BEGIN:VEVENT") {
                if open == nil { open = full.lowerBound; depth = 0 }
                depth += 1
            } else if open != nil && line(content, is: "END:VEVENT") {
                depth -= 1
                if depth == 0, let start = open {
                    blocks.append(start..<full.upperBound)
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
        String(decoding: bytes[r], as: UTF8.self)
            .replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\r\n\t", with: "")
            .replacingOccurrences(of: "\n ", with: "").replacingOccurrences(of: "\n\t", with: "")
    }
}
