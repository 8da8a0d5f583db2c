import Foundation

/// The bytes the pre-filter keeps, as it goes: everything outside the VEVENTs it drops,
/// in file order (`out`, with where each kept VEVENT lies in it), and the bytes of the
/// VEVENT being read, which are copied only if it is kept (most are not) or the piece
/// being scanned ends inside it.
package struct KeptBytes {
    package var out: [UInt8] = []
    /// Where each VEVENT kept so far lies in `out` (until `finish` merges the held overrides in).
    package var keptEvents: [Range<Int>] = []
    /// The bytes of the VEVENT being read that came in earlier pieces.
    package var pending: [UInt8] = []
    /// Where the VEVENT being read starts in the current piece.
    package var blockStart: UnsafePointer<UInt8>?
    /// The end of the line being read (in the current piece, or in the carried line).
    package var lineEnd: UnsafePointer<UInt8>?

    /// Nothing of a VEVENT held: no bytes pending, none in the piece.
    package var holdsNoBlock: Bool { pending.isEmpty && blockStart == nil }

    /// One line's bytes. `open`: whether a VEVENT is being read (its bytes wait for its end).
    @inline(__always)
    package mutating func emit(_ bytes: UnsafeBufferPointer<UInt8>, open: Bool) {
        if !open {
            out.append(contentsOf: bytes)
        } else if blockStart == nil {
            pending.append(contentsOf: bytes)
        }
    }

    /// The piece being scanned ends at `end`: the open VEVENT's bytes in it are copied.
    package mutating func endPiece(at end: UnsafePointer<UInt8>) {
        if let start = blockStart {
            pending.append(contentsOf: UnsafeBufferPointer(start: start, count: start.distance(to: end)))
            blockStart = nil
        }
    }

    /// The whole VEVENT just read, ending with the current line.
    package mutating func takeBlock() -> [UInt8] {
        var bytes = pending
        if let start = blockStart, let end = lineEnd {
            bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: start.distance(to: end)))
        }
        pending.removeAll(keepingCapacity: true)
        blockStart = nil
        return bytes
    }

    /// Keeps the VEVENT just read, noting where it lies in `out` (`withoutKeptEvents`).
    package mutating func keepBlock() {
        let bytes = takeBlock()
        keptEvents.append(out.count ..< out.count + bytes.count)
        out += bytes
    }

    /// Drops the VEVENT just read.
    package mutating func dropBlock() {
        pending.removeAll(keepingCapacity: true)
        blockStart = nil
    }

    /// The bytes of the VEVENT being closed (ending with its END line), contiguous.
    package func withBlockBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        let tail = blockStart.flatMap { start in lineEnd.map { UnsafeBufferPointer(start: start, count: start.distance(to: $0)) } }
        if pending.isEmpty, let tail { return body(tail) }
        var bytes = pending
        if let tail { bytes.append(contentsOf: tail) }
        return bytes.withUnsafeBufferPointer(body)
    }

    /// These bytes with the VEVENTs kept taken out of `out`: the file's header, zones and
    /// other components stay (`ICalPreFilter.withoutKeptEvents`).
    package func withoutKeptEvents() -> KeptBytes {
        var copy = self
        var rest: [UInt8] = []
        rest.reserveCapacity(out.count - keptEvents.reduce(0) { $0 + $1.count })
        var at = 0
        for range in keptEvents {
            rest += out[at..<range.lowerBound]
            at = range.upperBound
        }
        rest += out[at...]
        copy.out = rest
        copy.keptEvents = []
        return copy
    }

    /// Takes on what a split scan's second part kept, after these bytes.
    package mutating func append(_ later: KeptBytes) {
        let shift = out.count
        out += later.out
        keptEvents += later.keptEvents.map { $0.lowerBound + shift ..< $0.upperBound + shift }
    }
}
