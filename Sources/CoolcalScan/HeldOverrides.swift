import Foundation
import CoolcalModel

/// The overrides (VEVENTs with a RECURRENCE-ID) that may be dropped, and the masters they
/// are judged with: an override is dropped only when its master's instance at
/// RECURRENCE-ID cannot reach the window either, decided at the end of the scan when
/// every master with its UID is known (a master later in the file counts too).
package struct HeldOverrides {
    /// Each override held: where it goes in the kept bytes, its bytes (or where they are
    /// in the text), the hash of its UID, its RECURRENCE-ID and the slack around it, and
    /// the revision it leaves.
    package var held: [(at: Int, bytes: Bytes, uid: UInt64, rid: Int64, slack: Int64, revision: ICalRevision)] = []

    /// A held override's bytes, or where they are in the text (read again if it is put back).
    package enum Bytes {
        case bytes([UInt8])
        case place(Range<Int>)

        var count: Int {
            switch self {
            case .bytes(let b): b.count
            case .place(let r): r.count
            }
        }

        /// The bytes, read again through `read` when held by place; nil when the text is shorter.
        func read(_ read: ((Int, UnsafeMutableRawBufferPointer) throws -> Int)?) throws -> [UInt8]? {
            switch self {
            case .bytes(let b):
                return b
            case .place(let r):
                guard let read else { return nil }
                var bytes = [UInt8](repeating: 0, count: r.count)
                var done = 0
                try bytes.withUnsafeMutableBytes { buffer in
                    while done < r.count {
                        let n = try read(r.lowerBound + done, UnsafeMutableRawBufferPointer(rebasing: buffer[done...]))
                        if n <= 0 { return }
                        done += n
                    }
                }
                return done == r.count ? bytes : nil
            }
        }
    }
    /// Each master seen (by the hash of its UID), in order, with the longest its first
    /// instance can be, or nil when it cannot be judged; and where each event dropped
    /// starts (`SeenEvents`: a few bytes an event). `merged` looks up only the UIDs of the
    /// overrides held (few), so this is a list, not a dictionary.
    package var seen = SeenEvents()
    /// Whether another holds `seen` too (a `ScanCheckpoint`): then the records stay as
    /// they are at the end, not converted to the dropped events' (`RevisionsByPlace`
    /// reads either), since a conversion would hold both.
    package var seenShared = false

    /// The bytes it takes: the overrides held and the records of the events seen.
    package var memoryFootprint: Int {
        held.reduce(seen.bytesHeld + held.capacity * MemoryLayout<(Int, Bytes, UInt64, Int64, Int64, ICalRevision)>.stride) {
            if case .bytes(let b) = $1.bytes { $0 + b.capacity } else { $0 }
        }
    }

    /// `out` with the held overrides that may reach a window put back in place (those held
    /// by place read again through `read`: nil when the text no longer has them); the
    /// revisions of those dropped go to `skipped` when `keepsRevisions`. The masters are
    /// let go once read (`SeenEvents.keepOnlyDropped`, unless `seenShared`), and every
    /// record when no revision is kept: the end of the scan.
    package mutating func merged(into out: [UInt8], windows: [TimeWindow], skipped: inout ICalSkippedRevisions,
                                 keepsRevisions: Bool,
                                 reading read: ((Int, UnsafeMutableRawBufferPointer) throws -> Int)? = nil) throws -> [UInt8]? {
        // For each UID of a held override: the longest first instance of all its masters
        // (nil inside when one cannot be judged; no entry when it has none).
        var masterLengths: [UInt64: Int64?] = [:]
        if !held.isEmpty {
            let wanted = Set(held.map(\.uid))
            seen.forEach { master in
                guard master.isMaster, wanted.contains(master.hash) else { return }
                if let previous = masterLengths[master.hash] {
                    masterLengths[master.hash] = .some(previous.flatMap { p in master.length.map { max(p, $0) } })
                } else {
                    masterLengths[master.hash] = .some(master.length)
                }
            }
        }
        // Where the dropped events start serves only to read their revisions again
        // (`RevisionsByPlace`): a scan that keeps none (a read-back) lets the records go.
        if !keepsRevisions { seen = SeenEvents() } else if !seenShared { seen.keepOnlyDropped() }
        // Dropped only when every master of the UID is known and its instance at
        // RECURRENCE-ID misses the window too.
        let putBack = held.map { override in
            guard let known = masterLengths[override.uid], let length = known else { return true }
            return !windows.allSatisfy { override.rid + override.slack + length < $0.start || override.rid - override.slack > $0.end }
        }
        var merged: [UInt8] = []
        merged.reserveCapacity(held.indices.reduce(out.count) { putBack[$1] ? $0 + held[$1].bytes.count : $0 })
        var at = 0
        for (override, back) in zip(held, putBack) {
            guard back else {
                if keepsRevisions { skipped.append(override.revision) }
                continue
            }
            merged += out[at..<override.at]
            guard let bytes = try override.bytes.read(read) else { return nil }
            merged += bytes
            at = override.at
        }
        merged += out[at...]
        return merged
    }

    /// Takes on a split scan's second part's, whose kept bytes come `shift` bytes after
    /// the start of these, and whose text starts at `textShift` in this one's.
    package mutating func append(_ later: HeldOverrides, shift: Int, textShift: Int) {
        // (Appended one by one into room made once: no mapped copy, no growth by doubling.)
        held.reserveCapacity(held.count + later.held.count)
        for h in later.held {
            var bytes = h.bytes
            if case .place(let r) = bytes { bytes = .place((r.lowerBound + textShift)..<(r.upperBound + textShift)) }
            held.append((h.at + shift, bytes, h.uid, h.rid, h.slack, h.revision))
        }
        seen.append(later.seen, shift: textShift)
    }
}
