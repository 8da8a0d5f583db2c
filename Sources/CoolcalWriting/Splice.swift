import Foundation

/// A file's new bytes described as an edit of bytes already in memory: the bytes of
/// `base` with some ranges replaced (an insertion replaces an empty range). Written
/// piece by piece to the temp file, so that an edit of a large calendar never holds
/// the file twice (the text as read and an edited copy).
package struct Splice {
    /// What the edit is of (the text as read, or a whole new file).
    package let base: Data
    /// Sorted by position, disjoint: each range of `base` and the bytes that replace it.
    package let cuts: [(range: Range<Int>, bytes: [UInt8])]

    /// A whole new file: nothing of `base` is cut.
    package init(whole: Data) {
        base = whole.startIndex == 0 ? whole : Data(whole)
        cuts = []
    }

    /// `base` (indexed from 0) with each `(range, bytes)` replaced; nil when two of the
    /// ranges overlap or one lies outside `base`. Ranges at the same position keep their order.
    package init?(base: Data, cuts: [(range: Range<Int>, bytes: [UInt8])]) {
        let sorted = cuts.enumerated().sorted {
            ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset)
        }.map(\.element)
        var end = 0
        for cut in sorted {
            guard cut.range.lowerBound >= end, cut.range.upperBound <= base.count else { return nil }
            end = cut.range.upperBound
        }
        self.base = base
        self.cuts = sorted
    }

    /// The number of bytes the edited file has.
    package var count: Int {
        cuts.reduce(base.count) { $0 - $1.range.count + $1.bytes.count }
    }

    /// Calls `body` with each piece of the edited bytes, in order (empty pieces skipped).
    package func forEachPiece(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try base.withUnsafeBytes { all in
            var from = 0
            for cut in cuts {
                if cut.range.lowerBound > from { try body(UnsafeRawBufferPointer(rebasing: all[from..<cut.range.lowerBound])) }
                if !cut.bytes.isEmpty { try cut.bytes.withUnsafeBytes { try body($0) } }
                from = cut.range.upperBound
            }
            if all.count > from { try body(UnsafeRawBufferPointer(rebasing: all[from..<all.count])) }
        }
    }

    /// Calls `kept` with each range of `base` the edit keeps and `put` with each run of
    /// bytes it puts in, in order (empty ones skipped): a writer that has `base`'s file
    /// open copies the kept ranges from it (`CalendarFileEdit.commit`).
    package func forEachSegment(kept: (Range<Int>) throws -> Void, put: (UnsafeRawBufferPointer) throws -> Void) throws {
        var from = 0
        for cut in cuts {
            if cut.range.lowerBound > from { try kept(from..<cut.range.lowerBound) }
            if !cut.bytes.isEmpty { try cut.bytes.withUnsafeBytes { try put($0) } }
            from = cut.range.upperBound
        }
        if base.count > from { try kept(from..<base.count) }
    }

    /// The edited bytes in one buffer (a copy of the file: only where an edit must be
    /// edited again, or for a small file).
    package var data: Data {
        if cuts.isEmpty { return base }
        var out = Data(capacity: count)
        try? forEachPiece { out.append($0.bindMemory(to: UInt8.self)) }
        return out
    }

    /// The edited bytes, made in `splice`'s own base (left empty) when nothing else holds
    /// it: each cut replaced in place, the last first; else in a copy, as `data` makes.
    package static func placed(_ splice: inout Splice) -> Data {
        var data = splice.base
        let cuts = splice.cuts
        splice = Splice(whole: Data())
        for cut in cuts.reversed() { data.replaceSubrange(cut.range, with: cut.bytes) }
        return data
    }

    /// Whether `chunk` is what the edited bytes hold at `offset`.
    package func matches(_ chunk: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        var at = 0
        var position = 0
        var same = true
        try? forEachPiece { piece in
            guard same, at < chunk.count else { return }
            let pieceEnd = position + piece.count
            defer { position = pieceEnd }
            guard pieceEnd > offset + at, let mine = piece.baseAddress, let theirs = chunk.baseAddress else { return }
            let from = offset + at - position
            let n = min(piece.count - from, chunk.count - at)
            if memcmp(mine + from, theirs + at, n) != 0 { same = false }
            at += n
        }
        return same && at == chunk.count
    }
}
