import Foundation
import CoolcalSupport

/// The read-back of a streamed edit (issue #48): the temp file's pieces compared, in
/// order, with what the edit says it holds — the ranges it keeps of the file, read again
/// from the file, and the bytes it put in — while every byte of the file, in order (the
/// ranges the edit cut as well), goes into a checksum. That checksum equal to the scan's
/// says the file's bytes are still the ones the edit was decided on; the comparison says
/// the temp file is those bytes plus the edit.
final class SourceComparison {
    private enum Segment {
        case kept(Range<Int>)
        case put([UInt8])

        var count: Int {
            switch self {
            case .kept(let r): return r.count
            case .put(let b): return b.count
            }
        }
    }

    /// Each segment of the edited bytes and where it starts in them, in order.
    private var segments: [(start: Int, segment: Segment)] = []
    private let source: OpenInput
    private let size: Int
    /// The file's bytes before this offset are in `checksum`.
    private var summed = 0
    private var checksum = Checksum()
    private var index = 0
    private let scratch: UnsafeMutableRawBufferPointer

    /// For `edited`, a splice of the `size` bytes of the file open as `source`.
    init(_ edited: Splice, source: OpenInput, size: Int) throws {
        self.source = source
        self.size = size
        scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        var at = 0
        try edited.forEachSegment(kept: { range in
            segments.append((at, .kept(range)))
            at += range.count
        }, put: { bytes in
            segments.append((at, .put(Array(bytes.bindMemory(to: UInt8.self)))))
            at += bytes.count
        })
    }

    deinit { scratch.deallocate() }

    /// Whether `chunk` is what the edited bytes hold at `offset` (chunks come in order).
    func matches(_ chunk: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        guard let theirs = chunk.baseAddress else { return true }
        var at = 0
        while at < chunk.count {
            while index < segments.count && segments[index].start + segments[index].segment.count <= offset + at { index += 1 }
            guard index < segments.count else { return false }
            let (start, segment) = segments[index]
            let into = offset + at - start
            guard into >= 0 else { return false }
            let n = min(segment.count - into, chunk.count - at)
            switch segment {
            case .put(let bytes):
                let same = bytes.withUnsafeBytes { mine in mine.baseAddress.map { memcmp($0 + into, theirs + at, n) == 0 } ?? false }
                guard same else { return false }
            case .kept(let range):
                guard compareSource(from: range.lowerBound + into, count: n, with: theirs + at) else { return false }
            }
            at += n
        }
        return true
    }

    /// The checksum of every byte of the file (those not compared read now).
    func finish() -> Checksum {
        sum(upTo: size)
        return checksum
    }

    /// Reads `count` bytes of the file at `offset` (after summing those before it) and
    /// compares them with `theirs`.
    private func compareSource(from offset: Int, count: Int, with theirs: UnsafeRawPointer) -> Bool {
        sum(upTo: offset)
        guard summed == offset else { return false }
        var done = 0
        while done < count {
            let want = min(scratch.count, count - done)
            guard read(at: offset + done, count: want), let mine = scratch.baseAddress,
                  memcmp(mine, theirs + done, want) == 0 else { return false }
            checksum.update(UnsafeRawBufferPointer(rebasing: scratch[..<want]))
            done += want
            summed = offset + done
        }
        return true
    }

    /// Puts the file's bytes from `summed` up to `offset` into the checksum.
    private func sum(upTo offset: Int) {
        while summed < offset {
            let want = min(scratch.count, offset - summed)
            guard read(at: summed, count: want) else { return }
            checksum.update(UnsafeRawBufferPointer(rebasing: scratch[..<want]))
            summed += want
        }
    }

    /// Fills the first `count` bytes of `scratch` from the file at `offset`.
    private func read(at offset: Int, count: Int) -> Bool {
        (try? source.read(filling: UnsafeMutableRawBufferPointer(rebasing: scratch[..<count]), at: Int64(offset))) == count
    }
}
