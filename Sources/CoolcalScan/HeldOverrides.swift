import Foundation
import CoolcalModel

/// The overrides (VEVENTs with a RECURRENCE-ID) that may be dropped, and the masters they
/// are judged with: an override is dropped only when its master's instance at
/// RECURRENCE-ID cannot reach the window either, decided at the end of the scan when
/// every master with its UID is known (a master later in the file counts too).
package struct HeldOverrides {
    /// Each override held: where it goes in the kept bytes, its bytes, the hash of its
    /// UID, its RECURRENCE-ID and the slack around it, and the revision it leaves.
    package var held: [(at: Int, bytes: [UInt8], uid: UInt64, rid: Int64, slack: Int64, revision: ICalRevision)] = []
    /// Each master seen (by the hash of its UID), in order, with the longest its first
    /// instance can be, or nil when it cannot be judged; and where each event dropped
    /// starts (`SeenEvents`: a few bytes an event). `merged` looks up only the UIDs of the
    /// overrides held (few), so this is a list, not a dictionary.
    package var seen = SeenEvents()

    /// The bytes it takes: the overrides held and the records of the events seen.
    package var memoryFootprint: Int {
        held.reduce(seen.bytesHeld + held.capacity * MemoryLayout<(Int, [UInt8], UInt64, Int64, Int64, ICalRevision)>.stride) {
            $0 + $1.bytes.capacity
        }
    }

    /// `out` with the held overrides that may reach a window put back in place; the
    /// revisions of those dropped go to `skipped` when `keepsRevisions`.
    package func merged(into out: [UInt8], windows: [TimeWindow], skipped: inout ICalSkippedRevisions,
                        keepsRevisions: Bool) -> [UInt8] {
        var merged: [UInt8] = []
        merged.reserveCapacity(out.count + held.reduce(0) { $0 + $1.bytes.count })
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
        var at = 0
        for override in held {
            // Dropped only when every master of the UID is known and its instance at
            // RECURRENCE-ID misses the window too.
            if let known = masterLengths[override.uid], let length = known,
               windows.allSatisfy({ override.rid + override.slack + length < $0.start || override.rid - override.slack > $0.end }) {
                if keepsRevisions { skipped.append(override.revision) }
                continue
            }
            merged += out[at..<override.at]
            merged += override.bytes
            at = override.at
        }
        merged += out[at...]
        return merged
    }

    /// Takes on a split scan's second part's, whose kept bytes come `shift` bytes after
    /// the start of these, and whose text starts at `textShift` in this one's.
    package mutating func append(_ later: HeldOverrides, shift: Int, textShift: Int) {
        held += later.held.map { ($0.at + shift, $0.bytes, $0.uid, $0.rid, $0.slack, $0.revision) }
        seen.append(later.seen, shift: textShift)
    }
}
