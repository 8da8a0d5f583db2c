import Dispatch
import Foundation

extension OpenInput {
    /// From this size on, `readAll` reads a regular file in two halves on two threads.
    package static let halvesFrom = 8 << 20

    /// All `count` bytes of this regular file from its start, read into fresh memory in
    /// two halves, each on its own core: its pages made present there (`madvise`, then
    /// `pread`), so the page faults and the kernel's copy of a large calendar are shared
    /// by both cores (64 MiB: ~32 ms, where one thread took ~50 ms here). Fewer bytes
    /// when the file shrank meanwhile; nil when the memory cannot be mapped (the caller
    /// reads it the usual way). With them, whether they have a bare CR (`BareCR`), each
    /// half looked at by the thread that read it: nil when a half was cut short.
    func readHalves(count: Int) throws -> (data: Data, bareCR: Bool?)? {
        guard count > 0, let memory = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              memory != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }
        // Unmapped whole (its count may have been cut below), and beside: freeing 64 MiB
        // of pages takes the thread that does it several ms, which the last user of the
        // bytes (a write's end) need not wait for.
        let mapped = count
        var data = Data(bytesNoCopy: memory, count: count, deallocator: .custom { pointer, _ in
            let address = UInt(bitPattern: pointer)
            DispatchQueue.global().async { munmap(UnsafeMutableRawPointer(bitPattern: address), mapped) }
        })
        // The second half starts on a page boundary (madvise's ranges must).
        let half = (count / 2) & ~(Int(getpagesize()) - 1)
        let ranges = [0..<half, half..<count]
        let outcomes = UnsafeMutableBufferPointer<Result<Int, any Error>>.allocate(capacity: 2)
        outcomes.initialize(repeating: .success(0))
        defer { outcomes.deallocate() }
        let bare = UnsafeMutableBufferPointer<Bool>.allocate(capacity: 2)
        bare.initialize(repeating: false)
        defer { bare.deallocate() }
        let work = Halves(input: self, memory: memory, ranges: ranges, outcomes: outcomes, bare: bare)
        DispatchQueue.concurrentPerform(iterations: 2) { work.read($0) }
        let first = try outcomes[0].get(), second = try outcomes[1].get()
        // A half cut short: the file shrank; what it still had is what came before.
        if first < half {
            data.count = first
            return (data, nil)
        } else if second < count - half {
            data.count = half + second
            return (data, nil)
        }
        // Neither half has a bare CR, the last byte of each included (taken for bare
        // when it is a CR): then the whole has none. A half with one may owe it to its
        // last byte, whose LF is in the next: the whole is looked at again (rarely).
        guard bare[0] || bare[1] else { return (data, false) }
        return (data, data.withUnsafeBytes { BareCR.present(in: $0) })
    }
}

/// What each thread of `readHalves` needs: the file, the memory, its half, and a slot
/// of its own for the outcome, read by the caller after `concurrentPerform` returned
/// (which orders the writes before the reads).
private struct Halves: @unchecked Sendable {
    let input: OpenInput
    let memory: UnsafeMutableRawPointer
    let ranges: [Range<Int>]
    let outcomes: UnsafeMutableBufferPointer<Result<Int, any Error>>
    /// Whether each half, read whole, has a CR that no LF follows in it.
    let bare: UnsafeMutableBufferPointer<Bool>

    /// MADV_POPULATE_WRITE (Linux 5.14): the range's pages made present and writable now.
    private static let populateWrite: Int32 = 23

    func read(_ i: Int) {
        let range = ranges[i]
        // Best effort: without it (an older kernel) the read faults the pages in.
        _ = madvise(memory + range.lowerBound, range.count, Self.populateWrite)
        outcomes[i] = Result {
            var filled = range.lowerBound
            while filled < range.upperBound {
                let n = try input.read(into: UnsafeMutableRawBufferPointer(start: memory + filled, count: range.upperBound - filled),
                                       at: Int64(filled))
                if n == 0 { break }
                filled += n
            }
            return filled - range.lowerBound
        }
        if case .success(range.count) = outcomes[i] {
            bare[i] = BareCR.present(in: UnsafeRawBufferPointer(start: memory + range.lowerBound, count: range.count))
        }
    }
}
