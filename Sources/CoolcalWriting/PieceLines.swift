import Foundation

/// The physical lines of a text fed in pieces (a file read into a reused buffer), each
/// handed over whole with its extent in the text: `CalendarText.forEachLine`'s rules
/// (a line ends at LF; a CR right before its end is not content). A line cut between
/// pieces is put together first; the others are handed over where they lie.
struct PieceLines {
    private var carry: [UInt8] = []
    /// How many bytes were fed.
    private(set) var offset = 0

    /// Calls `body` with each line the piece ends (its content, its whole extent).
    mutating func feed(_ piece: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<UInt8>, Range<Int>) -> Void) {
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
                body(UnsafeBufferPointer(start: base + start, count: contentEnd - start), (offset + start)..<(offset + end))
            } else {
                carry.append(contentsOf: UnsafeBufferPointer(start: base + start, count: end - start))
                hand(carry, endingAt: offset + end, body)
                carry.removeAll(keepingCapacity: true)
            }
            start = end
        }
        offset += n
    }

    /// Calls `body` with the last line when the text does not end with a line end.
    mutating func finish(_ body: (UnsafeBufferPointer<UInt8>, Range<Int>) -> Void) {
        guard !carry.isEmpty else { return }
        hand(carry, endingAt: offset, body)
        carry = []
    }

    private func hand(_ line: [UInt8], endingAt end: Int, _ body: (UnsafeBufferPointer<UInt8>, Range<Int>) -> Void) {
        line.withUnsafeBufferPointer { all in
            var contentEnd = all.count
            if contentEnd > 0 && all[contentEnd - 1] == 0x0A { contentEnd -= 1 }
            if contentEnd > 0 && all[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            body(UnsafeBufferPointer(rebasing: all[..<contentEnd]), (end - all.count)..<end)
        }
    }
}
