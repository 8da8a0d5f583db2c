import Foundation
import CoolcalModel

/// What `ICalReader` learns from the bytes themselves before (or instead of) asking
/// libical: whether they can be iCalendar at all, and why libical gave up on them.
extension ICalReader {
    /// What the first bytes and any NUL say about a file, gathered piece by piece.
    package struct InputShape {
        package var hasNUL = false
        package var sawText = false
        /// The first line with text, up to 64 bytes: blank lines before it (spaces, tabs,
        /// CR, LF; after a BOM) are skipped, as libical and every other reader skip them.
        package var head: [UInt8] = []
        package var headDone = false
        package var inBlankLines = true
        /// The number of `head`'s line, and how much of a BOM the file began with.
        package var headLine = 1
        package var offset = 0
        package var bom = 0
        package static let bomBytes: [UInt8] = [0xEF, 0xBB, 0xBF]
        /// Lines longer than this make libical slow (it grows its line buffer step by
        /// step); iCalendar folds long values into 75-octet lines anyway.
        package static let maxLine = 1 << 20

        package init() {}
        package var line = 1
        package var lineLength = 0
        package var longLine: Int?
        /// Components nested deeper than this are refused: real calendars nest four
        /// deep (VCALENDAR, VTIMEZONE, STANDARD; VEVENT, VALARM), and libical's tree
        /// walks recurse.
        package static let maxDepth = 100
        package var depth = 0
        package var deepLine: Int?
        /// The current line's first bytes (at most 6, upper-cased, packed big-end
        /// first), enough to see `BEGIN:` and `END:` without allocating per line.
        package var head6: UInt64 = 0
        package var headCount = 0
        // Literals, not `packed(…)`: a computed `static let` is a lazy global whose check
        // (`swift_once`) ran on every line. `PreFilterNameHashTests` checks them.
        package static let begin: UInt64 = 0x4245_4749_4E3A // packed("BEGIN:")
        package static let end: UInt64 = 0x454E_443A // packed("END:")

        package static func packed(_ text: String) -> UInt64 {
            text.utf8.reduce(0) { $0 << 8 | UInt64($1) }
        }

        /// Not `ContentLines`: this runs over every byte of the file in the read loop,
        /// piece by piece (a line may span two pieces), and only counts LF-ended lines
        /// and packs their first bytes; it must not copy or allocate per line.
        package mutating func see(_ chunk: UnsafeRawBufferPointer) {
            guard let base = chunk.baseAddress else { return }
            seeLines(chunk)
            seeChunk(base, chunk)
        }

        /// What `see` learns from the whole piece (not line by line): NULs, text, the head.
        package mutating func seeChunk(_ base: UnsafeRawPointer, _ chunk: UnsafeRawBufferPointer) {
            if !hasNUL && memchr(base, 0, chunk.count) != nil { hasNUL = true }
            if !sawText { sawText = chunk.contains { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D } }
            if !headDone { seeHead(chunk) }
        }

        /// One piece of a line, `at..<end` of `base`, ending the line when `endsLine` (an LF
        /// at `end`): what `see`'s own line loop does with it. `ICalPreFilter` calls this as
        /// it finds each line, so that the file is scanned for line ends once.
        package mutating func segment(_ base: UnsafeRawPointer, _ at: Int, _ end: Int, endsLine: Bool) {
            guard longLine == nil else { return }
            if headCount == 0 && at < end {
                // Only lines starting with B or E can be BEGIN: or END: (most are not).
                let first = base.load(fromByteOffset: at, as: UInt8.self) | 0x20
                if first != 0x62 && first != 0x65 { headCount = 6 }
            }
            var i = at
            while headCount < 6 && i < end {
                let byte = base.load(fromByteOffset: i, as: UInt8.self)
                head6 = head6 << 8 | UInt64(byte >= 0x61 && byte <= 0x7A ? byte - 32 : byte)
                headCount += 1
                i += 1
            }
            lineLength += end - at
            if !endsLine || lineLength > InputShape.maxLine {
                if lineLength > InputShape.maxLine { longLine = line }
                return
            }
            endOfLine()
            line += 1
            lineLength = 0
        }

        private mutating func seeLines(_ chunk: UnsafeRawBufferPointer) {
            guard let base = chunk.baseAddress else { return }
            var at = 0
            while longLine == nil && at < chunk.count {
                let nl = memchr(base + at, 0x0A, chunk.count - at)
                let end = nl.map { base.distance(to: UnsafeRawPointer($0)) } ?? chunk.count
                segment(base, at, end, endsLine: nl != nil)
                at = end + 1
            }
        }

        /// Collects `head`: the first line with text, after any BOM and blank lines.
        private mutating func seeHead(_ chunk: UnsafeRawBufferPointer) {
            for byte in chunk {
                let at = offset
                offset += 1
                if inBlankLines {
                    if at == bom && bom < 3 && byte == InputShape.bomBytes[bom] {
                        bom += 1
                        continue
                    }
                    if bom > 0 && bom < 3 {
                        // The start of a BOM and then something else: those bytes are text.
                        head = Array(InputShape.bomBytes.prefix(bom))
                        bom = 3
                        inBlankLines = false
                    } else if byte == 0x0A {
                        headLine += 1
                        continue
                    } else if byte == 0x20 || byte == 0x09 || byte == 0x0D {
                        continue
                    } else {
                        inBlankLines = false
                    }
                }
                if byte == 0x0A || byte == 0x0D || head.count >= 64 {
                    headDone = true
                    return
                }
                head.append(byte)
            }
        }

        /// Counts `BEGIN:`/`END:` lines (any case) for the nesting depth.
        private mutating func endOfLine() {
            defer { head6 = 0; headCount = 0 }
            guard deepLine == nil else { return }
            if headCount == 6 && head6 == InputShape.begin {
                depth += 1
                if depth > InputShape.maxDepth { deepLine = line }
            } else if headCount >= 4 && head6 >> UInt64(8 * (headCount - 4)) == InputShape.end {
                depth = max(0, depth - 1)
            }
        }

        /// The head line, trimmed of white space and upper-cased, starts with `BEGIN:`.
        /// For ASCII (nearly every file) over the bytes — trimming and upper-casing are
        /// then ASCII's (spaces and tabs; a–z) — else as Unicode text.
        package static func startsWithBegin(_ head: [UInt8]) -> Bool {
            guard head.allSatisfy({ $0 < 0x80 }) else {
                let line = String(decoding: head, as: UTF8.self)
                return line.trimmingCharacters(in: .whitespaces).uppercased().hasPrefix("BEGIN:")
            }
            guard let first = head.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return false }
            let begin: [UInt8] = Array("BEGIN:".utf8)
            guard head.count - first >= begin.count else { return false }
            for (i, c) in begin.enumerated() where ContentLines.upper(head[first + i]) != c { return false }
            return true
        }

        /// Throws for files that are not iCalendar; false for blank ones (an empty calendar).
        package func check(file: String) throws -> Bool {
            if hasNUL {
                throw ICalError(file: file, message: "not an iCalendar file (it contains NUL bytes: binary or UTF-16?)")
            }
            if let longLine {
                throw ICalError(file: file, message: "line \(longLine) is longer than 1 MiB (iCalendar folds long values into short lines)")
            }
            if let deepLine {
                throw ICalError(file: file, message: "line \(deepLine): components are nested more than \(InputShape.maxDepth) deep")
            }
            guard sawText else { return false }
            // The first line with text ends at a lone CR too and is trimmed and upper-cased
            // as Unicode text (not by `ContentLines`): which files are refused here must not change.
            guard Self.startsWithBegin(head) else {
                throw ICalError(file: file, message: "not an iCalendar file (line \(headLine) is not BEGIN:VCALENDAR)")
            }
            return true
        }
    }

    /// Why libical gave up: a component still open at the end of the file (the outermost,
    /// as the file was cut), else the first component that the END of an enclosing one
    /// left unclosed. (No line numbers: `data` may be what the pre-filter kept.)
    ///
    /// Not `ContentLines`: this splits decoded text at every Unicode line break (CR,
    /// NEL, U+2028…) and does not unfold, and its messages are what users, the tests
    /// and the `FuzzPreFilter` contract see; reading lines otherwise would change the
    /// message for such files.
    package static func unreadableReason(_ data: Data) -> String {
        var open: [String] = []
        // How many of each name are open: an END that closes nothing costs no search, so
        // the whole scan stays linear however the file nests.
        var openCount: [String: Int] = [:]
        var unclosed: (name: String, closedBy: String)?
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let upper = line.uppercased()
            if upper.hasPrefix("BEGIN:") {
                let name = upper.dropFirst(6).trimmingCharacters(in: .whitespaces)
                open.append(name)
                openCount[name, default: 0] += 1
            } else if upper.hasPrefix("END:") {
                // END:X closes up to its BEGIN:X; an END without one is ignored.
                let name = upper.dropFirst(4).trimmingCharacters(in: .whitespaces)
                guard openCount[name, default: 0] > 0, let match = open.lastIndex(of: name) else { continue }
                if unclosed == nil, match + 1 < open.count { unclosed = (open[match + 1], name) }
                for closed in open[match...] { openCount[closed, default: 1] -= 1 }
                open.removeSubrange(match...)
            }
        }
        if let outer = open.first {
            return "not a readable iCalendar file: truncated (BEGIN:\(outer) has no END:\(outer))"
        }
        if let inner = unclosed {
            return "not a readable iCalendar file: BEGIN:\(inner.name) has no END:\(inner.name) before END:\(inner.closedBy)"
        }
        return "not a readable iCalendar file (libical could not parse it)"
    }
}
