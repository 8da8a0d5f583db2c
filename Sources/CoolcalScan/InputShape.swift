import Foundation
import CoolcalModel

/// What a reader learns from the bytes themselves before (or instead of) asking libical:
/// whether they can be iCalendar at all. Gathered piece by piece (a line may span two)
/// by `see`, or by the pre-filter's line loop as it finds the lines (`segment`,
/// `wholeLine`, `addLines`: one scan of the bytes for both); the reader (`ICalReader`, `WrittenFile`) turns a `refusal`
/// into its error.
package struct InputShape {
    /// A NUL byte anywhere.
    package var hasNUL = false
    /// Any byte but a space, tab, CR or LF: false for a blank text.
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

    /// The shape of no bytes yet.
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
    /// at `end`): what `see`'s own line loop does with it. `ICalPreFilter` calls this for
    /// a line a piece's end cuts (the others: `wholeLine`, `addLines`), so that the file is
    /// scanned for line ends once.
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

    /// A whole line in one piece, `p[0..<n]` (the LF at `n`): what `segment(…, endsLine:
    /// true)` does with it at a line's start, without packing its head: BEGIN: and END:
    /// are compared in place.
    @inline(__always)
    package mutating func wholeLine(_ p: UnsafePointer<UInt8>, _ n: Int) {
        guard longLine == nil else { return }
        guard n <= InputShape.maxLine, headCount == 0, lineLength == 0 else {
            segment(UnsafeRawPointer(p), 0, n, endsLine: true)
            return
        }
        if deepLine == nil && n >= 4 {
            // `x & 0xDF == L`, for an ASCII capital L: x is L or its small letter.
            let first = p[0] & 0xDF
            if first == 0x42 && n >= 6 && p[1] & 0xDF == 0x45 && p[2] & 0xDF == 0x47 && p[3] & 0xDF == 0x49
                && p[4] & 0xDF == 0x4E && p[5] == 0x3A {
                depth += 1
                if depth > InputShape.maxDepth { deepLine = line }
            } else if first == 0x45 && p[1] & 0xDF == 0x4E && p[2] & 0xDF == 0x44 && p[3] == 0x3A {
                depth = max(0, depth - 1)
            }
        }
        line += 1
    }

    /// `count` lines that `wholeLine` would only count (neither BEGIN… nor END…, none
    /// long), counted at once.
    @inline(__always)
    package mutating func addLines(_ count: Int) {
        if longLine == nil { line += count }
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

    /// Why a file of this shape is not iCalendar, in the words of the reader's error
    /// (`check(file:)` in CoolcalICal throws it, naming the file); nil for one that may
    /// be, and for a blank one (no text: an empty calendar).
    package var refusal: String? {
        if hasNUL { return "not an iCalendar file (it contains NUL bytes: binary or UTF-16?)" }
        if let longLine { return "line \(longLine) is longer than 1 MiB (iCalendar folds long values into short lines)" }
        if let deepLine { return "line \(deepLine): components are nested more than \(InputShape.maxDepth) deep" }
        guard sawText else { return nil }
        // The first line with text ends at a lone CR too and is trimmed and upper-cased
        // as Unicode text (not by `ContentLines`): which files are refused here must not change.
        guard Self.startsWithBegin(head) else { return "not an iCalendar file (line \(headLine) is not BEGIN:VCALENDAR)" }
        return nil
    }
}
