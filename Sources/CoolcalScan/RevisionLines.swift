import Foundation
import CoolcalModel

/// What a dropped event leaves behind besides its UID: its SEQUENCE, DTSTAMP and
/// LAST-MODIFIED, so that a newer revision outside the window still hides an older one
/// inside it (`OccurrenceExpander` picks the current revision of each UID). These are
/// read strictly, like the times: an event whose revision lines the filter cannot read
/// as libical does is kept (`plain` false). The whole revision is `ScanBlock.revision`.
package struct RevisionLines {
    package var sequence: Int?
    package var stamp: Int64?
    package var lastModified: Int64?
    package var plain = true

    /// Reads one `SEQUENCE:digits`, `DTSTAMP:time` or `LAST-MODIFIED:time` line: no
    /// parameters, one each.
    package mutating func read(_ kind: ScanLine.PropertyKind, _ base: UnsafePointer<UInt8>, _ from: Int, _ nameEnd: Int,
                               _ to: Int) {
        guard let colon = ScanLine.valueStart(base, nameEnd, to) else { plain = false; return }
        let value = UnsafeBufferPointer(start: base + colon, count: to - colon)
        switch kind {
        case .sequence:
            guard colon - from == 9, sequence == nil, (1...9).contains(value.count),
                  value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { plain = false; return }
            sequence = value.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        case .dtstamp, .lastModified:
            let isStamp = kind == .dtstamp
            guard colon - from == (isStamp ? 8 : 14), let t = ScanTime(value), !t.isDate,
                  (isStamp ? stamp : lastModified) == nil else { plain = false; return }
            if isStamp { stamp = t.seconds } else { lastModified = t.seconds }
        default:
            break
        }
    }
}
