import Foundation
import CoolcalModel

/// What a dropped event leaves behind: its revision (UID, RECURRENCE-ID, SEQUENCE,
/// DTSTAMP, LAST-MODIFIED), so that a newer revision outside the window still hides an
/// older one inside it (`OccurrenceExpander` picks the current revision of each UID).
/// These are read strictly, like the times: an event whose revision lines the filter
/// cannot read as libical does is kept.
extension ICalPreFilter {
    /// SEQUENCE, DTSTAMP and LAST-MODIFIED of one block, each at most once and plain.
    package struct RevisionLines {
        package var sequence: Int?
        package var stamp: Int64?
        package var lastModified: Int64?
        package var plain = true
    }

    /// `SEQUENCE:digits`, `DTSTAMP:time`, `LAST-MODIFIED:time`: no parameters, one each.
    package static func readRevision(_ kind: PropertyKind, _ base: UnsafePointer<UInt8>, _ from: Int, _ nameEnd: Int, _ to: Int,
                             into b: inout Block) {
        guard let colon = valueStart(base, nameEnd, to) else { b.revision.plain = false; return }
        let value = UnsafeBufferPointer(start: base + colon, count: to - colon)
        switch kind {
        case .sequence:
            guard colon - from == 9, b.revision.sequence == nil, (1...9).contains(value.count),
                  value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { b.revision.plain = false; return }
            b.revision.sequence = value.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        case .dtstamp, .lastModified:
            let stamp = kind == .dtstamp
            guard colon - from == (stamp ? 8 : 14), let t = TimeValue(value), !t.isDate,
                  (stamp ? b.revision.stamp : b.revision.lastModified) == nil else { b.revision.plain = false; return }
            if stamp { b.revision.stamp = t.seconds } else { b.revision.lastModified = t.seconds }
        default:
            break
        }
    }

    /// The value of the one unquoted `TZID=` parameter before `colon`, if any.
    package static func tzidParameter(_ base: UnsafePointer<UInt8>, _ from: Int, _ colon: Int) -> String? {
        var i = from
        while i < colon - 1 {
            if base[i] == 0x3B, has(base, i + 1, colon - 1 - (i + 1), "TZID=") {
                var end = i + 6
                while end < colon - 1 && base[end] != 0x3B { end += 1 }
                return String(decoding: UnsafeBufferPointer(start: base + i + 6, count: end - i - 6), as: UTF8.self)
            }
            i += 1
        }
        return nil
    }

    /// Whether the revision a dropped block leaves can be told exactly (else it is kept):
    /// no UID, or one plain UID line (`ICalSkippedRevisions.stagedIsPlain`: the bytes
    /// libical reads as they are) and plain revision lines.
    package func revisionPlain(_ b: Block) -> Bool {
        b.uidLines == 0 || (b.uidLines == 1 && b.revision.plain && skippedRevisions.stagedIsPlain())
    }

    /// The revision a dropped block leaves, built (for an override held until `finish`:
    /// few); nil when it cannot be told exactly.
    package func revision(of b: Block) -> ICalRevision?? {
        guard b.uidLines <= 1 else { return nil }
        guard b.uidLines == 1 else { return .some(nil) }
        guard revisionPlain(b) else { return nil }
        let uid = skippedRevisions.stagedText()
        var rid: ICalTime?
        if let r = b.recurrenceID {
            rid = ICalTime(fields: CivilDateTime(utcSeconds: r.seconds), isDate: r.isDate,
                           reference: r.utc ? .utc : b.recurrenceTZID.map { .zoned($0) } ?? .floating)
        }
        return .some(ICalRevision(uid: uid, recurrenceID: rid, sequence: b.revision.sequence ?? 0,
                                  stamp: b.revision.stamp, lastModified: b.revision.lastModified))
    }
}
