internal import CLibical
import Foundation
import CoolcalModel

/// DTSTART values libical reads leniently into another date: `2026031T150000Z` (a digit
/// missing) has the length of a floating date-time, and libical's `sscanf` makes it
/// 2026-03-01T15:00:00. Such an event is skipped with a warning, like any event without
/// a valid DTSTART. libical keeps no raw text, so the text is scanned for them: one
/// such value, with the UID of its event.
package struct MalformedStart: Hashable {
    package let uid: String?
    package let value: String

    /// The DTSTART values of top-level VEVENTs that are in none of the forms RFC 5545
    /// and libical agree on, with the UID of their event.
    package static func all(in text: Data) -> [MalformedStart] {
        // First, cheaply: is any DTSTART value malformed at all? (Almost never.)
        guard anyMalformedStart(in: text) else { return [] }
        var found: [MalformedStart] = []
        var depth = 0, inEvent = false
        var uid: String?, bad: [String] = []
        ContentLines.forEachUnfolded(in: text, startingWith: {
            let c = $0 & 0xDF
            return c == 0x42 || c == 0x45 || c == 0x44 || c == 0x55
        }) { bytes in
            let line = String(decoding: bytes, as: UTF8.self)
            guard let colon = line.firstIndex(of: ":") else { return }
            let name = line[..<colon].uppercased()
            let value = String(line[line.index(after: colon)...])
            let plain = value.trimmingCharacters(in: .whitespaces).uppercased()
            if name == "BEGIN" {
                if !inEvent && plain == "VEVENT" { inEvent = true; depth = 0; uid = nil; bad = [] } else if inEvent { depth += 1 }
            } else if name == "END" {
                guard inEvent else { return }
                if depth > 0 { depth -= 1; return }
                inEvent = false
                found += bad.map { MalformedStart(uid: uid, value: $0) }
            } else if inEvent && depth == 0 {
                let property = name.prefix { $0 != ";" }
                if property == "UID" { uid = value }
                if property == "DTSTART", !wellFormed(Array(value.trimmingCharacters(in: CharacterSet(charactersIn: " \t")).utf8)[...]) {
                    bad.append(value.trimmingCharacters(in: CharacterSet(charactersIn: " \t")))
                }
            }
        }
        return found
    }

    /// `YYYYMMDD`, `YYYYMMDDTHHMMSS[Z]`, or the same with `-` and `:` (which libical reads right).
    private static let shapes: [[UInt8]] = ["dddddddd", "ddddddddTdddddd", "ddddddddTddddddZ", "dddd-dd-dd",
                                             "dddd-dd-ddTdd:dd:dd", "dddd-dd-ddTdd:dd:ddZ"].map { Array($0.utf8) }

    private static func wellFormed(_ u: ArraySlice<UInt8>) -> Bool {
        u.withUnsafeBufferPointer { $0.baseAddress.map { p in wellFormed(p, u.count) } ?? false }
    }

    private static func wellFormed(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        for s in shapes where s.count == n {
            var ok = true
            for i in 0..<n {
                let c = p[i]
                if s[i] == 0x64 ? !(c >= 0x30 && c <= 0x39) : s[i] != c { ok = false; break }
            }
            if ok { return true }
        }
        return false
    }

    /// Any line starting `DTSTART` (any case) followed by `:` or `;` whose value is not
    /// well-formed, or is folded: a byte loop, with no copies.
    private static func anyMalformedStart(in text: Data) -> Bool {
        text.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
            let n = raw.count
            let name: StaticString = "DTSTART"
            var at = 0
            while at < n {
                var end = at
                while end < n && base[end] != 0x0A { end += 1 }
                var content = end
                if content > at && base[content - 1] == 0x0D { content -= 1 }
                var named = content - at > 8 && ContentLines.upper(base[at]) == 0x44
                var i = 1
                while named && i < 7 { named = ContentLines.upper(base[at + i]) == name.utf8Start[i]; i += 1 }
                if named, base[at + 7] == 0x3A || base[at + 7] == 0x3B {
                    if end + 1 < n && (base[end + 1] == 0x20 || base[end + 1] == 0x09) { return true }
                    var colon = at + 7
                    while colon < content && base[colon] != 0x3A { colon += 1 }
                    var last = content
                    while last > colon + 1 && (base[last - 1] == 0x20 || base[last - 1] == 0x09) { last -= 1 }
                    if colon >= content || !wellFormed(base + colon + 1, last - colon - 1) { return true }
                }
                at = end + 1
            }
            return false
        }
    }

    /// Marks the events whose DTSTART libical read from a malformed value: no start.
    package static func reject(_ found: [MalformedStart], in events: inout [ICalEvent]) {
        for bad in found {
            guard [8, 10, 15, 16, 19, 20].contains(bad.value.utf8.count) else { continue }
            let lenient = bad.value.withCString { icaltime_from_string($0) }
            guard icaltime_is_null_time(lenient) == 0 else { continue }
            let fields = CivilDateTime(icaltime: lenient)
            for i in events.indices where events[i].uid == bad.uid && events[i].start?.fields == fields {
                events[i].start = nil
                events[i].problems.insert("DTSTART \(bad.value) is not a date-time; libical would read \(String(format: "%04d-%02d-%02dT%02d:%02d:%02d", fields.year, fields.month, fields.day, fields.hour, fields.minute, fields.second))", at: 0)
            }
        }
    }
}
