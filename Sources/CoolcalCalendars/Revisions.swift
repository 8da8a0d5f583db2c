import CoolcalICal
import CoolcalScan

/// Revisions of one event (RFC 5545 §3.8.4.7, §3.8.7.4): several VEVENTs of one
/// calendar (a file, or every file of a vdir) with the same UID and the same
/// RECURRENCE-ID, or none, are versions of one thing — an event edited and exported
/// again (Confluence writes this). Only the current one counts: the highest SEQUENCE,
/// then DTSTAMP, then LAST-MODIFIED. Copies that tie on all three are all kept (nothing
/// says which is current); an instance they share is given once. The events the
/// pre-filter dropped take part through `ICalCalendar.skippedRevisions`, so a newer
/// revision outside the window hides an older one inside it on both reading paths.
package enum Revisions {
    private struct Key: Hashable {
        let uid: String
        let recurrenceID: ICalTime?
    }

    /// `files` with every event that a newer revision in the calendar supersedes left out.
    package static func current(_ files: [ICalCalendar]) -> [ICalCalendar] {
        // Only a UID that a parsed event has can hide anything: the revisions the
        // pre-filter left (most of a large file) are looked up for those UIDs alone, at a
        // cost in proportion to them (`ICalSkippedRevisions.revisions(of:)`).
        var parsed: Set<String> = []
        for file in files { for event in file.events { if let uid = event.uid { parsed.insert(uid) } } }
        var newest: [Key: ICalRevision] = [:]
        var copies: [Key: Int] = [:]
        func see(_ r: ICalRevision) {
            let key = Key(uid: r.uid, recurrenceID: r.recurrenceID)
            copies[key, default: 0] += 1
            if let best = newest[key], !r.isNewer(than: best) { return }
            newest[key] = r
        }
        let wanted = ICalSkippedRevisions.UIDs(parsed)
        for file in files {
            for event in file.events { if let r = ICalRevision(event) { see(r) } }
            for r in file.skippedRevisions.revisions(of: wanted) { see(r) }
        }
        guard copies.values.contains(where: { $0 > 1 }) else { return files }
        return files.map { file in
            var kept = file
            kept.events = file.events.filter { event in
                guard let r = ICalRevision(event), let best = newest[Key(uid: r.uid, recurrenceID: r.recurrenceID)] else { return true }
                return !best.isNewer(than: r)
            }
            return kept
        }
    }

    /// `occurrences` without a second copy of one instance (same UID, recurrence id,
    /// start and end): revisions that tie give each instance once.
    package static func withoutCopies(_ occurrences: [Occurrence]) -> [Occurrence] {
        struct Instance: Hashable {
            let uid: String, recurrenceID: String?, start: Int64, end: Int64
        }
        // A copy has its original's UID, start and end: only occurrences that share
        // all three with another one need the whole key (the recurrence id written out),
        // and when none does, nothing is left out.
        struct Span: Hashable {
            let uid: String, start: Int64, end: Int64
        }
        var first: [Span: Int] = [:]
        var shared = [Bool](repeating: false, count: occurrences.count)
        var anyShared = false
        for i in occurrences.indices {
            guard let uid = occurrences[i].uid else { continue }
            let span = Span(uid: uid, start: occurrences[i].startInstant, end: occurrences[i].endInstant)
            if let f = first[span] {
                shared[f] = true
                shared[i] = true
                anyShared = true
            } else {
                first[span] = i
            }
        }
        guard anyShared else { return occurrences }
        var seen: Set<Instance> = []
        var result: [Occurrence] = []
        result.reserveCapacity(occurrences.count)
        for i in occurrences.indices {
            let o = occurrences[i]
            if shared[i], let uid = o.uid,
               !seen.insert(Instance(uid: uid, recurrenceID: o.recurrenceID?.jsonString, start: o.startInstant, end: o.endInstant)).inserted {
                continue
            }
            result.append(o)
        }
        return result
    }
}
