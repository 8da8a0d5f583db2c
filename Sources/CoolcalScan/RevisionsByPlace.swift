import Foundation
import CoolcalModel

/// The revisions of the events dropped where they were recorded by place
/// (`revisionsByPlace`): a file that is a calendar on its own is asked only for the UIDs
/// its parsed events have (`Revisions.current`), which are known only after libical's
/// parse. So the scan keeps, for a dropped event with an ASCII UID, only the hash of that
/// UID and where the event starts (`SeenEvents`); the events whose hash is one of those
/// asked are read again there, by this same scan, and kept when their UID is one of them
/// exactly (as strings: canonical equivalence, as `ICalSkippedRevisions.UIDs` matches).
package enum RevisionsByPlace {
    /// The dropped events' revisions whose UID is one of `uids`: those kept with their
    /// UIDs (`skippedRevisions`: non-ASCII UIDs, overrides dropped at `finish`), and those
    /// recorded by place, read again through `read`, which gives the scanned text's bytes
    /// from an offset into a buffer (0 at its end). An event that no longer reads as the
    /// one recorded (a text changed since the scan) gives nothing.
    package static func revisions(of uids: ICalSkippedRevisions.UIDs, in filter: ICalPreFilter,
                                  reading read: (Int, UnsafeMutableRawBufferPointer) throws -> Int) throws -> ICalSkippedRevisions {
        var found = ICalSkippedRevisions()
        for r in filter.skippedRevisions.revisions(of: uids) { found.append(r) }
        guard filter.revisionsByPlace, filter.keepsRevisions, !uids.hashes.isEmpty else { return found }
        // Compared by their low 32 bits (all that `SeenEvents.keepOnlyDropped` keeps), the
        // UIDs' hashes marked as ASCII (`ICalSkippedRevisions.hash`) as the records' are not.
        let lows = Set(uids.hashes.map { UInt32(truncatingIfNeeded: $0) })
        var candidates: [(at: Int, hash: UInt32)] = []
        filter.overrides.seen.forEach { r in
            let low = UInt32(truncatingIfNeeded: r.hash | 1)
            if let at = r.droppedAt, lows.contains(low) { candidates.append((at, UInt32(truncatingIfNeeded: r.hash))) }
        }
        guard !candidates.isEmpty else { return found }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 14, alignment: 16)
        defer { buffer.deallocate() }
        for c in candidates {
            if let r = try revision(at: c.at, hash: c.hash, reading: read, buffer: buffer), uids.strings.contains(r.uid) {
                found.append(r)
            }
        }
        return found
    }

    /// The revision of the top-level VEVENT whose BEGIN line starts at `at` in the text
    /// `read` gives, read as the scan read it (the same line loop, from the state at any
    /// event's start: inside one VCALENDAR), when its UID's hash has `hash` as low 32 bits.
    package static func revision(at: Int, hash: UInt32, reading read: (Int, UnsafeMutableRawBufferPointer) throws -> Int,
                                 buffer: UnsafeMutableRawBufferPointer) throws -> ICalRevision? {
        var filter = ICalPreFilter(window: TimeWindow(start: 0, end: 1))
        (filter.rereading, filter.keepsRevisions) = (true, false)
        Array("BEGIN:VCALENDAR\r\n".utf8).withUnsafeBytes { filter.feed($0) }
        var offset = at
        while filter.rereading {
            let n = try read(offset, buffer)
            if n == 0 { break }
            filter.feed(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
            offset += n
        }
        guard !filter.rereading, let r = filter.skippedRevisions.all.first else { return nil }
        var uid = r.uid
        let read = uid.withUTF8 { ScanLine.nameHash($0) }
        return UInt32(truncatingIfNeeded: read) == hash ? r : nil
    }

    /// The first VEVENT a `rereading` filter closes: its revision, when it can be told
    /// exactly, goes to `skippedRevisions`, and the filter stops rereading.
    static func reread(_ b: ScanBlock, into filter: inout ICalPreFilter) {
        filter.rereading = false
        if b.uidLines == 1, b.revisionPlain(staged: filter.skippedRevisions) {
            filter.skippedRevisions.commitStaged(hash: b.uid, sequence: b.revision.sequence ?? 0, stamp: b.revision.stamp,
                                                 lastModified: b.revision.lastModified)
        }
        filter.kept.dropBlock()
    }
}
