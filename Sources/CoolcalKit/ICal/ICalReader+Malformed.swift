internal import CLibical
import Foundation

/// DTSTART values libical reads leniently into another date: `2026031T150000Z` (a digit
/// missing) has the length of a floating date-time, and libical's `sscanf` makes it
/// 2026-03-01T15:00:00. Such an event is skipped with a warning, like any event without
/// a valid DTSTART. libical keeps no raw text, so the text is scanned for them.
extension ICalReader {
    struct MalformedStart: Hashable {
        let uid: String?
        let value: String
    }

    /// The DTSTART values of top-level VEVENTs that are in none of the forms RFC 5545
    /// and libical agree on, with the UID of their event.
    static func malformedStarts(in text: Data) -> [MalformedStart] {
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
                if property == "DTSTART", !wellFormed(value.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))) {
                    bad.append(value.trimmingCharacters(in: CharacterSet(charactersIn: " \t")))
                }
            }
        }
        return found
    }

    /// `YYYYMMDD`, `YYYYMMDDTHHMMSS[Z]`, or the same with `-` and `:` (which libical reads right).
    private static func wellFormed(_ v: String) -> Bool {
        let shapes = ["dddddddd", "ddddddddTdddddd", "ddddddddTddddddZ", "dddd-dd-dd", "dddd-dd-ddTdd:dd:dd", "dddd-dd-ddTdd:dd:ddZ"]
        let u = Array(v.utf8)
        return shapes.contains { shape in
            let s = Array(shape.utf8)
            return s.count == u.count && zip(s, u).allSatisfy { $0 == 0x64 ? ($1 >= 0x30 && $1 <= 0x39) : $0 == $1 }
        }
    }

    /// Marks the events whose DTSTART libical read from a malformed value: no start.
    static func rejectMalformedStarts(_ found: [MalformedStart], in events: inout [ICalEvent]) {
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
