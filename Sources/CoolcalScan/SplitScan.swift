import Foundation
import CoolcalSupport

/// How a text was scanned (a `-v` note tells), and the parts of a scan in two parts on
/// two threads that are not the filter's state (that is `ICalPreFilter+Split`): where the
/// text is cut, the two threads, and each part's reading.
package enum SplitScan: Equatable {
    case sequential
    case split(at: Int)
    /// Split, but the state at the cut was not the assumed one: scanned on from there.
    case fellBack(at: Int)

    /// Files at least this large are scanned in two parts (a vdir's files are not).
    package static let threshold = 8 << 20
    /// How far past the middle a `BEGIN:VEVENT` line is looked for.
    package static let cutSearch = 1 << 18

    /// The first `BEGIN:VEVENT` line starting at or after `from` in `window` (which
    /// starts at `windowStart` of the text); nil if none.
    package static func cut(in window: UnsafeRawBufferPointer, windowStart: Int, from: Int) -> Int? {
        let marker = Array("BEGIN:VEVENT".utf8)
        var i = max(from - windowStart, 1)
        while i + marker.count < window.count {
            guard let base = window.baseAddress, let hit = memchr(base + i - 1, 0x0A, window.count - i + 1) else { return nil }
            let lineStart = base.distance(to: UnsafeRawPointer(hit)) + 1
            i = lineStart + 1
            guard lineStart + marker.count < window.count,
                  (0..<marker.count).allSatisfy({ window[lineStart + $0] == marker[$0] }) else { continue }
            let after = lineStart + marker.count
            if window[after] == 0x0A || (window[after] == 0x0D && after + 1 < window.count && window[after + 1] == 0x0A) {
                return windowStart + lineStart
            }
        }
        return nil
    }

    /// Runs `first` on this thread and `second` on another; returns when both are done.
    static func both(_ first: () -> Void, _ second: () -> Void) {
        withoutActuallyEscaping(first) { first in
            withoutActuallyEscaping(second) { second in
                let work = UncheckedPair(first: first, second: second)
                DispatchQueue.concurrentPerform(iterations: 2) { $0 == 0 ? work.first() : work.second() }
            }
        }
    }
}

/// The two closures of `both`: each runs on one thread only, and both have returned
/// when `concurrentPerform` does.
private struct UncheckedPair: @unchecked Sendable {
    let first: () -> Void
    let second: () -> Void
}

/// One part of a split scan (`ICalPreFilter+Split`): its own filter, fed on one thread
/// only; read by the caller after `concurrentPerform` returned (which orders the writes
/// before the reads).
final class SplitPart: @unchecked Sendable {
    var filter: ICalPreFilter
    var error: Error?
    /// Where reading stopped, and the first byte read (for `isAtAssumedCut`'s `folded`).
    var end = 0
    var firstByte: UInt8?

    init(_ filter: ICalPreFilter) {
        self.filter = filter
    }

    /// Reads `[from, to)` (`to` nil: to the end of the file) into `buffer`, feeding it.
    func read(_ input: OpenInput, from: Int, to: Int?, into buffer: UnsafeMutableRawBufferPointer) {
        end = from
        // The revisions dropped in this part are indexed here, on this part's thread.
        defer { filter.skippedRevisions.index() }
        do {
            while to.map({ end < $0 }) ?? true {
                let want = min(buffer.count, to.map { $0 - end } ?? buffer.count)
                let n = try input.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<want]), at: Int64(end))
                if n == 0 { return }
                if firstByte == nil { firstByte = buffer[0] }
                filter.feed(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
                end += n
            }
        } catch {
            self.error = error
        }
    }
}

