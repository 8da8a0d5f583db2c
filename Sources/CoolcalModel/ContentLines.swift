import Foundation

/// The lines of calendar bytes as RFC 5545 §3.1 (and libical) reads them: a line ends
/// at LF, and a CR just before that LF belongs to the line end (so does a CR that is
/// the very last byte: libical drops it with the other trailing white space); any
/// other CR is part of the line's content. A line end followed
/// by a space or a tab is a fold, and the line goes on after that one byte. Works on
/// bytes, never on decoded text, so that every byte — including ones that are not
/// UTF-8, and a CR that no LF follows — is where the file has it.
///
/// `@usableFromInline`, and `@inlinable` below: the other layers' byte loops (the pre-filter,
/// CalendarText's walk) call `upper`, `line(_:is:)` and `propertyName` inlined and specialised,
/// as they did inside one module; without it each is a call, the generic ones unspecialised.
@usableFromInline
package enum ContentLines {
    /// One physical line of `bytes`, by offsets: `content` without the line end,
    /// `full` with it (`\r\n`, `\n`; for a last line with no LF, `\r` or nothing).
    package struct Line: Equatable {
        package var content: Range<Int>
        package var full: Range<Int>

        /// Where the line end's bytes are: `\r\n`, `\n`, a final `\r`, or empty.
        package var ending: Range<Int> { content.upperBound..<full.upperBound }
    }

    /// The physical lines of `bytes`, in order. No empty line follows a final LF.
    package static func physical(_ bytes: [UInt8]) -> [Line] {
        bytes.withUnsafeBufferPointer { physical($0) }
    }

    /// The physical lines of `bytes`, in order. No empty line follows a final LF.
    package static func physical(_ bytes: UnsafeBufferPointer<UInt8>) -> [Line] {
        var result: [Line] = []
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            let next = end < bytes.count ? end + 1 : end
            let contentEnd = end > start && bytes[end - 1] == 0x0D ? end - 1 : end
            result.append(Line(content: start..<contentEnd, full: start..<next))
            start = next
        }
        return result
    }

    /// One content line as written, with the physical lines it is folded over.
    package struct Logical {
        /// Its bytes as they stand, line ends and folds included.
        package var full: Range<Int>
        /// Its content unfolded (no line end).
        package var unfolded: [UInt8]
        /// Its property name, uppercased.
        package var name: String
    }

    /// The content lines of `bytes`, each with the physical lines folded into it.
    package static func logical(_ bytes: [UInt8]) -> [Logical] {
        let lines = physical(bytes)
        var result: [Logical] = []
        var i = 0
        while i < lines.count {
            var end = i + 1
            while end < lines.count, let c = lines[end].content.first.map({ bytes[$0] }), isFold(c) { end += 1 }
            var unfolded = Array(bytes[lines[i].content])
            for j in (i + 1)..<end { unfolded += bytes[lines[j].content].dropFirst() }
            let name = String(decoding: propertyName(unfolded), as: UTF8.self).uppercased()
            result.append(Logical(full: lines[i].full.lowerBound..<lines[end - 1].full.upperBound, unfolded: unfolded, name: name))
            i = end
        }
        return result
    }

    /// Whether a physical line starting with `byte` continues the line before it.
    @inline(__always)
    package static func isFold(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// The first line's end (`\r\n` or `\n`); `\r\n` when `bytes` have no LF.
    package static func lineEnding(of bytes: [UInt8]) -> [UInt8] {
        guard let nl = bytes.firstIndex(of: 0x0A) else { return [0x0D, 0x0A] }
        return nl > 0 && bytes[nl - 1] == 0x0D ? [0x0D, 0x0A] : [0x0A]
    }

    /// `bytes` with every fold undone (the line end and the space or tab after it
    /// removed); the line ends between content lines stay as they are.
    package static func unfolded(_ bytes: [UInt8]) -> [UInt8] {
        let lines = physical(bytes)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for (i, line) in lines.enumerated() {
            let from = i > 0 && isFold(bytes[line.full.lowerBound]) ? line.full.lowerBound + 1 : line.full.lowerBound
            let foldedNext = i + 1 < lines.count && isFold(bytes[lines[i + 1].full.lowerBound])
            out += bytes[from..<(foldedNext ? line.content.upperBound : line.full.upperBound)]
        }
        return out
    }

    /// Calls `body` with each content line of `text` that starts with a byte `wanted`
    /// accepts, unfolded and without its line end; other lines are only skipped over.
    /// With `bareCREndsLine`, a CR ends a line too (`ICalReader`'s VTIMEZONE scan reads
    /// text that way, and `ICalPreFilter` keeps events with a lone CR because of it).
    package static func forEachUnfolded(in text: Data, bareCREndsLine: Bool = false, startingWith wanted: (UInt8) -> Bool,
                                _ body: ([UInt8]) -> Void) {
        text.withUnsafeBytes { bytes in
            let n = bytes.count
            var line: [UInt8] = []
            var inLine = false, keep = false
            var start = 0
            while start < n {
                var end = start
                while end < n && bytes[end] != 0x0A && !(bareCREndsLine && bytes[end] == 0x0D) { end += 1 }
                var next = end + 1
                if end < n && bytes[end] == 0x0D && next < n && bytes[next] == 0x0A { next += 1 }
                // Without bare CRs as line ends, a CR before the LF is still part of the line end.
                let contentEnd = !bareCREndsLine && end > start && bytes[end - 1] == 0x0D ? end - 1 : end
                if !inLine {
                    inLine = true
                    keep = end > start && wanted(bytes[start])
                }
                if keep { line.append(contentsOf: bytes[start..<contentEnd]) }
                if next < n && isFold(bytes[next]) {
                    start = next + 1
                    continue
                }
                if keep { body(line) }
                line.removeAll(keepingCapacity: true)
                inLine = false
                start = next
            }
            if inLine && keep { body(line) }
        }
    }

    /// ASCII upper case of one byte; every other byte as it is (property names are
    /// ASCII, and libical compares them so).
    @inlinable @inline(__always)
    package static func upper(_ c: UInt8) -> UInt8 { c >= 0x61 && c <= 0x7A ? c - 32 : c }

    /// A content line's property name, upper-cased: what comes before the first `;`
    /// or `:`, with trailing spaces and tabs dropped (as libical reads it).
    @inlinable
    package static func propertyName<C: Collection<UInt8>>(_ line: C) -> [UInt8] {
        var name = line.prefix { $0 != 0x3B && $0 != 0x3A }.map(upper)
        while let last = name.last, last == 0x20 || last == 0x09 { name.removeLast() }
        return name
    }

    /// Where the last physical line whose content is `text` (as `line(_:is:)` reads it)
    /// starts, nil when none is: the lines `physical` gives, looked at from the end, so
    /// that a calendar's last `END:VCALENDAR` costs the few lines after it.
    package static func lastLine(in bytes: UnsafeBufferPointer<UInt8>, is text: StaticString) -> Int? {
        // `end`: just past a line's LF (or the end of the bytes).
        var end = bytes.count
        while end > 0 {
            let lineFeed = bytes[end - 1] == 0x0A ? end - 1 : end
            var start = lineFeed
            while start > 0 && bytes[start - 1] != 0x0A { start -= 1 }
            let contentEnd = lineFeed > start && bytes[lineFeed - 1] == 0x0D ? lineFeed - 1 : lineFeed
            if line(UnsafeBufferPointer(rebasing: bytes[start..<contentEnd]), is: text) { return start }
            end = start
        }
        return nil
    }

    /// Whether a line's content is `text` (ASCII, upper case), ignoring ASCII case and
    /// trailing spaces or tabs: `end:vevent ` is `END:VEVENT`.
    @inlinable
    package static func line<C: BidirectionalCollection<UInt8>>(_ content: C, is text: StaticString) -> Bool {
        var end = content.endIndex
        while end > content.startIndex, case let c = content[content.index(before: end)], c == 0x20 || c == 0x09 {
            end = content.index(before: end)
        }
        let trimmed = content[content.startIndex..<end]
        let wanted = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        return trimmed.count == wanted.count && zip(trimmed, wanted).allSatisfy { upper($0) == $1 }
    }
}
