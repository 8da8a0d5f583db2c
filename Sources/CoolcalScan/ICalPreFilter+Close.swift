import Foundation

/// The end of a top-level VEVENT: kept, held (an override, decided at `finish`) or dropped.
extension ICalPreFilter {
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

    /// This scan with the VEVENTs it has kept, and the overrides it holds, taken out of
    /// `out`: the file's header, zones and other components stay, and what it is fed
    /// from here is kept as before. For a read-back that parses what an edit added, in
    /// the file's zones, not again what was read (`ScanCheckpoint`).
    package func withoutKeptEvents() -> ICalPreFilter {
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
        copy.heldOverrides = []
        return copy
    }

    /// A complete VEVENT: dropped when it cannot reach the window, else kept.
    package mutating func close(_ b: Block) {
        let uid = b.uidLines == 1 ? b.uid : nil
        if let rid = b.recurrenceID {
            // An override: its own span must miss; its master's instance at RID is
            // judged at the end, when all masters of the UID have been seen.
            // The slack is a day even for a UTC RECURRENCE-ID: on an all-day series it
            // names a date (Exchange), whose instance is in `--tz`.
            if b.simple, b.rules.isEmpty, let uid, let reaches = reachesAny(b), !reaches,
               let revision = revision(of: b), let revision {
                heldOverrides.append((out.count, takeBlock(), uid, rid.seconds, ICalPreFilter.margin, revision))
            } else {
                keepBlock()
            }
            return
        }
        if let uid { masters.append((uid, b.lengthBound)) }
        if b.simple, let reaches = reachesAny(b), !reaches || missesWithZones(b), revisionPlain(b) {
            if b.uidLines == 1, keepsRevisions {
                skippedRevisions.commitStaged(hash: b.uid, sequence: b.revision.sequence ?? 0, stamp: b.revision.stamp,
                                              lastModified: b.revision.lastModified)
            }
            pending.removeAll(keepingCapacity: true)
            blockStart = nil
        } else {
            keepBlock()
        }
    }

    /// A badly nested block: keep its bytes; the file is not judged at all.
    package mutating func abandon() {
        giveUp = true
        keepBlock()
        block = nil
    }
}
