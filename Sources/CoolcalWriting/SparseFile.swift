import Foundation
import CoolcalModel
import CoolcalSupport

/// A large calendar file's bytes in memory only where an edit looks (issue #48): a
/// buffer as long as the file, of pages the kernel hands out only when touched, into
/// which the blocks an edit needs (its events' blocks, the VTIMEZONEs, the first line,
/// the tail from the last `END:VCALENDAR`) are read by offset. The rest of the file is
/// never in memory: a write copies it from the file in the kernel, the read-back
/// compares it there. A question that reads every byte (`CalendarText.whole`) reads
/// the file in whole first, and its checksum says whether it is still what was scanned.
final class SparseFile {
    /// The file as opened for the scan (its bytes, whatever its name now points to).
    let input: OpenInput
    let count: Int
    /// The file's checksum as the scan saw it.
    let scanned: Checksum
    private let base: UnsafeMutableRawPointer
    /// How many bytes were read into memory (tests bound it).
    private(set) var loaded = 0
    /// Whether every byte is in memory.
    private(set) var complete = false
    /// Whether a read found the file no longer what was scanned (shorter, other bytes):
    /// the edit is made again from a new read (`AtomicFile.Changed`).
    private(set) var changed = false
    private let diagnostics: Diagnostics?

    /// nil when the memory cannot be had.
    init?(input: OpenInput, count: Int, scanned: Checksum, diagnostics: Diagnostics?) {
        // calloc: zero pages the kernel maps in on first touch, none before.
        guard count > 0, let base = calloc(count, 1) else { return nil }
        self.input = input
        self.count = count
        self.scanned = scanned
        self.base = base
        self.diagnostics = diagnostics
    }

    deinit { free(base) }

    /// The bytes as a `Data` (indexed from 0) over this memory, which it keeps alive: what
    /// `load` and `fillAll` read in shows through it.
    func data() -> Data {
        Data(bytesNoCopy: base, count: count, deallocator: .custom { [self] _, _ in withExtendedLifetime(self) {} })
    }

    /// Reads `range` of the file into its place.
    func load(_ range: Range<Int>) {
        let range = range.clamped(to: 0..<count)
        guard !complete, !range.isEmpty else { return }
        if !read(range) { changed = true }
        loaded += range.count
    }

    /// Reads all of the file into memory, once; marks it changed when its bytes are
    /// no longer the ones scanned.
    func fillAll() {
        guard !complete else { return }
        diagnostics?.note("\(input.name): read whole for a question about all its bytes")
        if !read(0..<count) || Checksum.of(UnsafeRawBufferPointer(start: base, count: count)) != scanned { changed = true }
        loaded += count
        complete = true
    }

    /// Whether `range` was read in full.
    private func read(_ range: Range<Int>) -> Bool {
        let into = UnsafeMutableRawBufferPointer(start: base + range.lowerBound, count: range.count)
        return (try? input.read(filling: into, at: Int64(range.lowerBound))) == range.count
    }
}
