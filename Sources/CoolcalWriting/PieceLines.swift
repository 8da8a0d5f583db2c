import Foundation

/// What takes the lines `PieceLines` finds: a line's content (no line end) and its
/// whole extent in the text. (A protocol, not a closure: called per line, its calls are
/// specialized, with no exclusivity checks at run time.)
protocol LineSink {
    mutating func line(_ content: UnsafeBufferPointer<UInt8>, _ full: Range<Int>)
}

/// The physical lines of a text fed in pieces (a file read into a reused buffer), each
/// handed over whole with its extent in the text: `CalendarText.forEachLine`'s rules
/// (a line ends at LF; a CR right before its end is not content). A line cut between
/// pieces is put together first; the others are handed over where they lie.
struct PieceLines {
    private var carry: [UInt8] = []
    /// How many bytes were fed.
    private(set) var offset = 0

    /// Hands `sink` each line the piece ends.
    mutating func feed<Sink: LineSink>(_ piece: UnsafeRawBufferPointer, _ sink: inout Sink) {
        guard let base = piece.baseAddress?.assumingMemoryBound(to: UInt8.self), piece.count > 0 else { return }
        let n = piece.count
        var start = 0
        while start < n {
            guard let hit = memchr(base + start, 0x0A, n - start) else {
                carry.append(contentsOf: UnsafeBufferPointer(start: base + start, count: n - start))
                break
            }
            let end = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
            if carry.isEmpty {
                let contentEnd = end - 1 > start && base[end - 2] == 0x0D ? end - 2 : end - 1
                sink.line(UnsafeBufferPointer(start: base + start, count: contentEnd - start), (offset + start)..<(offset + end))
            } else {
                carry.append(contentsOf: UnsafeBufferPointer(start: base + start, count: end - start))
                Self.hand(carry, endingAt: offset + end, &sink)
                carry.removeAll(keepingCapacity: true)
            }
            start = end
        }
        offset += n
    }

    /// Hands `sink` the last line when the text does not end with a line end.
    mutating func finish<Sink: LineSink>(_ sink: inout Sink) {
        guard !carry.isEmpty else { return }
        Self.hand(carry, endingAt: offset, &sink)
        carry = []
    }

    private static func hand<Sink: LineSink>(_ line: [UInt8], endingAt end: Int, _ sink: inout Sink) {
        line.withUnsafeBufferPointer { all in
            var contentEnd = all.count
            if contentEnd > 0 && all[contentEnd - 1] == 0x0A { contentEnd -= 1 }
            if contentEnd > 0 && all[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            sink.line(UnsafeBufferPointer(rebasing: all[..<contentEnd]), (end - all.count)..<end)
        }
    }
}
