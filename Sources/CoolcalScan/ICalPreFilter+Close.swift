import Foundation

/// The end of a top-level VEVENT: kept, held (an override, decided at `finish`:
/// `HeldOverrides`) or dropped.
extension ICalPreFilter {
    /// This scan with the VEVENTs it has kept, and the overrides it holds, taken out of
    /// what it keeps: the file's header, zones and other components stay, and what it is
    /// fed from here is kept as before. For a read-back that parses what an edit added,
    /// in the file's zones, not again what was read (`ScanCheckpoint`).
    package func withoutKeptEvents() -> ICalPreFilter {
        var copy = self
        copy.kept = kept.withoutKeptEvents()
        copy.overrides.held = []
        // (A read-back finishes without reading the text again.)
        copy.overridesByPlace = false
        return copy
    }

    /// A complete VEVENT: dropped when it cannot reach the window, else kept.
    package mutating func close(_ b: ScanBlock) {
        let uid = b.uidLines == 1 ? b.uid : nil
        if let rid = b.recurrenceID {
            // An override: its own span must miss; its master's instance at RID is
            // judged at the end, when all masters of the UID have been seen.
            // The slack is a day even for a UTC RECURRENCE-ID: on an all-day series it
            // names a date (Exchange), whose instance is in `--tz`.
            if b.simple, b.rules.isEmpty, let uid, let reaches = b.reachesAny(windows), !reaches,
               let revision = b.revision(staged: skippedRevisions), let revision {
                let at = kept.out.count
                if overridesByPlace {
                    kept.dropBlock()
                    overrides.held.append((at, .place(b.at..<b.end), uid, rid.seconds, ICalPreFilter.margin, revision))
                } else {
                    overrides.held.append((at, .bytes(kept.takeBlock()), uid, rid.seconds, ICalPreFilter.margin, revision))
                }
            } else {
                kept.keepBlock()
            }
            return
        }
        var record = uid.map { SeenEvents.Record(hash: $0, isMaster: true, length: b.lengthBound, droppedAt: nil) }
        if rereading {
            RevisionsByPlace.reread(b, into: &self)
        } else if b.simple, let reaches = b.reachesAny(windows), !reaches || missesWithZones(b), b.revisionPlain(staged: skippedRevisions) {
            if b.uidLines == 1, keepsRevisions {
                if revisionsByPlace, skippedRevisions.stagedIsASCII() {
                    // Where it starts, to be read again if its UID is asked for.
                    let hash = uid ?? skippedRevisions.stagedHash()
                    record = SeenEvents.Record(hash: hash, isMaster: uid != nil, length: b.lengthBound, droppedAt: b.at)
                    skippedRevisions.unstage()
                } else {
                    skippedRevisions.commitStaged(hash: b.uid, sequence: b.revision.sequence ?? 0, stamp: b.revision.stamp,
                                                  lastModified: b.revision.lastModified)
                }
            }
            kept.dropBlock()
        } else {
            kept.keepBlock()
        }
        if let record { overrides.seen.append(record) }
    }

    /// Whether a simple master that reaches a window with the margin misses every window
    /// once its zones bound it (`ScanZones.misses`).
    private mutating func missesWithZones(_ b: ScanBlock) -> Bool {
        guard zones.mayBound(b) else { return false }
        return zones.misses(b, windows: windows, names: kept.withBlockBytes(ScanZones.timeZones))
    }

    /// A badly nested block: keep its bytes; the file is not judged at all.
    package mutating func abandon() {
        giveUp = true
        kept.keepBlock()
        block = nil
    }
}
