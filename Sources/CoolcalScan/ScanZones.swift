import Foundation
import CoolcalModel
import CoolcalZones

/// Times in a named zone bounded by that zone's own offsets, not by a day either way.
///
/// A DTSTART (or DTEND) with `TZID=X` is read in the file's VTIMEZONE X when it has a
/// usable one (the first of that TZID among the top-level VTIMEZONEs libical parses), else
/// in the system zone X (`ZoneBook`), else in `--tz`. When X names a system zone, every
/// offset it can be read with lies within that zone's offsets over all time
/// (`ZoneOffsetRange`) — provided that no VTIMEZONE of the file defines X with an offset
/// outside them. So an event whose first instance, bounded so, misses every window is
/// dropped as one bounded by the margin would be, and X is remembered (`used`). The file's
/// top-level VTIMEZONEs are read as they come: one that defines X outside X's range makes
/// X `loose` (bounded by the margin from then on; when X was already used, the file is
/// not judged: `giveUp`), and one the filter cannot read as libical does (a fold, a lone
/// CR, parameters, an odd TZ… name, no single TZID) makes every zone doubtful likewise.
/// Only a master's first span is bounded so; dates, floating times, overrides and the
/// lengths held overrides are judged with keep the margin.
package struct ScanZones {
    package var tzid: String?
    package var tzidLines = 0
    package var low = Int.max, high = Int.min
    package var readable = true
    /// TZIDs whose offsets bounded an event that was dropped for it.
    package var used: Set<String> = []
    /// TZIDs a VTIMEZONE of the file defines with an offset outside their system range.
    package var loose: Set<String> = []
    /// A top-level VTIMEZONE was not read: no zone bounds an event any more.
    package var doubtful = false

    package mutating func begin() {
        (tzid, tzidLines, low, high, readable) = (nil, 0, Int.max, Int.min, true)
    }

    /// A line inside a top-level VTIMEZONE (`depth` 2 directly in it), markers included.
    package mutating func see(_ p: UnsafePointer<UInt8>, _ contentEnd: Int, depth: Int) {
        guard contentEnd > 0 else { return }
        if p[0] == 0x20 || p[0] == 0x09 || memchr(p, 0x0D, contentEnd) != nil {
            readable = false
            return
        }
        guard ContentLines.upper(p[0]) == 0x54, contentEnd > 1, ContentLines.upper(p[1]) == 0x5A else { return }
        let nameEnd = ScanLine.nameEnd(p, contentEnd)
        guard nameEnd < contentEnd, p[nameEnd] == 0x3A else { readable = false; return }
        let value = UnsafeBufferPointer(start: p + nameEnd + 1, count: contentEnd - nameEnd - 1)
        if nameEnd == 4 && ScanLine.has(p, 0, 4, "TZID") {
            guard depth == 2, value.allSatisfy(Self.plain) else {
                readable = false
                return
            }
            tzid = String(decoding: value, as: UTF8.self)
            tzidLines += 1
        } else if (nameEnd == 12 && ScanLine.has(p, 0, 12, "TZOFFSETFROM")) || (nameEnd == 10 && ScanLine.has(p, 0, 10, "TZOFFSETTO")) {
            guard let offset = UTCOffset.seconds(value) else { readable = false; return }
            (low, high) = (min(low, offset), max(high, offset))
        } else if !(nameEnd == 6 && ScanLine.has(p, 0, 6, "TZNAME")) && !(nameEnd == 5 && ScanLine.has(p, 0, 5, "TZURL")) {
            readable = false
        }
    }

    /// A byte of a TZID that libical reads as it is: printable ASCII, no space, no
    /// backslash (a TEXT escape), caret (RFC 6868) or quote.
    package static func plain(_ c: UInt8) -> Bool {
        c > 0x20 && c < 0x7F && c != 0x5C && c != 0x5E && c != 0x22
    }

    /// The end of a top-level VTIMEZONE; `giveUp` when it contradicts a bound used.
    package mutating func end(giveUp: inout Bool) {
        guard readable, tzidLines == 1, let tzid else {
            doubtful = true
            if !used.isEmpty { giveUp = true }
            return
        }
        guard low <= high else { return }
        if let system = ZoneOffsetRange.of(tzid), system.contains(low), system.contains(high) { return }
        loose.insert(tzid)
        if used.contains(tzid) { giveUp = true }
    }

    /// The offsets that bound a time with this TZID; nil: the margin.
    package func offsets(_ tzid: String) -> ClosedRange<Int>? {
        guard !doubtful, !loose.contains(tzid), tzid.utf8.allSatisfy(Self.plain) else { return nil }
        return ZoneOffsetRange.of(tzid)
    }

    /// Whether a simple master's first span can be bounded by its zones at all: a time
    /// not in UTC, no date.
    package func mayBound(_ b: ScanBlock) -> Bool {
        guard !doubtful, let s = b.dtstart, !s.utc, !s.isDate else { return false }
        return b.dtend.map { !$0.isDate } ?? true
    }

    /// Whether a simple master (`mayBound`) that reaches a window with the margin misses
    /// every window once its DTSTART's and DTEND's zones (`names`, read by `timeZones`)
    /// bound it; those zones are then `used`.
    package mutating func misses(_ b: ScanBlock, windows: [TimeWindow], names: (start: String?, end: String?)) -> Bool {
        let (startZone, endZone) = names
        guard let startZone, let startOffsets = offsets(startZone) else { return false }
        var endOffsets = startOffsets
        if let e = b.dtend, !e.utc {
            guard let endZone, let endRange = offsets(endZone) else { return false }
            endOffsets = endRange
        }
        let bounds = (start: Int64(startOffsets.lowerBound)...Int64(startOffsets.upperBound),
                      end: Int64(endOffsets.lowerBound)...Int64(endOffsets.upperBound))
        guard windows.allSatisfy({ b.reaches($0, offsets: bounds) == false }) else { return false }
        used.insert(startZone)
        if let endZone { used.insert(endZone) }
        return true
    }

    /// The TZIDs of a simple block's own DTSTART and DTEND lines (outside its components).
    package static func timeZones(_ block: UnsafeBufferPointer<UInt8>) -> (start: String?, end: String?) {
        guard let base = block.baseAddress else { return (nil, nil) }
        var start: String?, end: String?
        var depth = 0, at = 0
        while at < block.count {
            let lineEnd = memchr(base + at, 0x0A, block.count - at).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? block.count
            var contentEnd = lineEnd
            if contentEnd > at && base[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            let p = base + at, n = contentEnd - at
            if ScanLine.has(p, 0, n, "BEGIN:") { depth += 1 } else if ScanLine.has(p, 0, n, "END:") { depth -= 1 }
            if depth == 1, n > 8, let colon = ScanLine.valueStart(p, 0, n) {
                if ScanLine.has(p, 0, n, "DTSTART;") { start = ScanLine.tzidParameter(p, 0, colon) }
                if ScanLine.has(p, 0, n, "DTEND;") { end = ScanLine.tzidParameter(p, 0, colon) }
            }
            at = lineEnd + 1
        }
        return (start, end)
    }

    /// A split scan's second part may be joined only if its zone bounds (`later`) are
    /// the ones the sequential scan would have used there (`ICalPreFilter+Split`).
    package func allow(_ later: ScanZones) -> Bool {
        later.used.isEmpty || (!doubtful && loose.isDisjoint(with: later.used))
    }

    /// Takes on what the second part learned of zones; `giveUp` as the sequential scan
    /// would have given up on its VTIMEZONEs.
    package mutating func join(_ later: ScanZones, giveUp: inout Bool) {
        if (later.doubtful && !used.isEmpty) || !later.loose.isDisjoint(with: used) { giveUp = true }
        used.formUnion(later.used)
        loose.formUnion(later.loose)
        doubtful = doubtful || later.doubtful
    }
}
