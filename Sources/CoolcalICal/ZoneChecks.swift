internal import CLibical
import Foundation
import CoolcalModel
import CoolcalScan

/// Which of a file's VTIMEZONEs coolcal lets libical evaluate: the checks on the parsed
/// zone, and the scan of the text for offsets libical reads without a trace.
package enum ZoneChecks {
    /// A VTIMEZONE libical can evaluate quickly and sanely: at least one observance,
    /// every offset within ±18 h and written as one (`malformed` holds the TZIDs of
    /// zones with an offset that is not), rules only yearly (a `FREQ=SECONDLY` observance
    /// makes libical expand forever). Others are ignored, so their TZID is looked up in
    /// the system database or reported as unknown — never silently used.
    package static func plausible(_ vtz: OpaquePointer, malformed: Set<String>) -> Bool {
        if !malformed.isEmpty, let prop = icalcomponent_get_first_property(vtz, ICAL_TZID_PROPERTY),
           let tzid = ICalWalk.copy(icalproperty_get_tzid(prop)), malformed.contains(tzid) {
            return false
        }
        let observances = ICalWalk.children(of: vtz, kind: ICAL_XSTANDARD_COMPONENT)
            + ICalWalk.children(of: vtz, kind: ICAL_XDAYLIGHT_COMPONENT)
        guard !observances.isEmpty, observances.count <= 10_000 else { return false }
        for observance in observances {
            var hasOffset = false
            for prop in ICalWalk.properties(of: observance) {
                switch icalproperty_isa(prop) {
                case ICAL_TZOFFSETTO_PROPERTY:
                    hasOffset = true
                    if abs(icalproperty_get_tzoffsetto(prop)) > 18 * 3600 { return false }
                case ICAL_TZOFFSETFROM_PROPERTY:
                    if abs(icalproperty_get_tzoffsetfrom(prop)) > 18 * 3600 { return false }
                case ICAL_RRULE_PROPERTY:
                    let rule = icalproperty_get_rrule(prop)
                    if rule.freq != ICAL_YEARLY_RECURRENCE { return false }
                case ICAL_XLICERROR_PROPERTY:
                    return false
                default:
                    break
                }
            }
            if !hasOffset { return false }
        }
        return true
    }

    /// Transitions a year that one observance's RRULE, and all of a zone's together,
    /// may give: real zones have one or two; libical expands every one of them from the
    /// observance's DTSTART (year 1 if need be) into memory.
    package static let maxTransitionsPerRule = 12
    package static let maxTransitionsPerZone = 100

    /// Why libical must not expand this VTIMEZONE (its rules yield too many
    /// transitions a year), or nil.
    package static func denseObservance(_ vtz: OpaquePointer) -> String? {
        var total = 0
        for observance in ICalWalk.children(of: vtz, kind: ICAL_XSTANDARD_COMPONENT) + ICalWalk.children(of: vtz, kind: ICAL_XDAYLIGHT_COMPONENT) {
            var rule = icalcomponent_get_first_property(observance, ICAL_RRULE_PROPERTY)
            while let prop = rule {
                let n = transitionsPerYear(icalproperty_get_rrule(prop))
                if n > maxTransitionsPerRule {
                    return "an observance RRULE gives up to \(n) transitions a year (at most \(maxTransitionsPerRule))"
                }
                total += n
                if total > maxTransitionsPerZone {
                    return "its observance RRULEs give more than \(maxTransitionsPerZone) transitions a year"
                }
                rule = icalcomponent_get_next_property(observance, ICAL_RRULE_PROPERTY)
            }
        }
        return nil
    }

    /// An upper bound on the instances a year of a (yearly) rule, from its BY-lists.
    private static func transitionsPerYear(_ r: icalrecurrencetype) -> Int {
        let end = Int16(truncatingIfNeeded: ICAL_RECURRENCE_ARRAY_MAX.rawValue)
        func used<T>(_ array: T) -> [Int16] {
            withUnsafeBytes(of: array) { Array($0.bindMemory(to: Int16.self).prefix { $0 != end }) }
        }
        let time = max(1, used(r.by_hour).count) * max(1, used(r.by_minute).count) * max(1, used(r.by_second).count)
        let monthDays = used(r.by_month_day).count
        let days = used(r.by_day).reduce(0) { $0 + (icalrecurrencetype_day_position($1) == 0 ? 5 : 1) }
        var dates: Int
        if !used(r.by_year_day).isEmpty {
            dates = used(r.by_year_day).count
        } else if !used(r.by_week_no).isEmpty {
            dates = used(r.by_week_no).count * 7
        } else {
            let months = used(r.by_month).isEmpty ? (monthDays + days > 0 ? 12 : 1) : used(r.by_month).count
            let perMonth = monthDays > 0 && days > 0 ? min(monthDays, days) : max(1, monthDays + days)
            dates = months * perMonth
        }
        if !used(r.by_set_pos).isEmpty { dates = min(dates, used(r.by_set_pos).count) }
        // Not a yearly rule: `plausible` refuses it anyway; count it as one a year here.
        if r.freq != ICAL_YEARLY_RECURRENCE { return 1 }
        return min(dates, 366) * time
    }

    package static func tzid(of vtz: OpaquePointer) -> String {
        guard let prop = icalcomponent_get_first_property(vtz, ICAL_TZID_PROPERTY),
              let id = ICalWalk.copy(icalproperty_get_tzid(prop)) else { return "(no TZID)" }
        return "\"\(PrintableText.clean(id))\""
    }

    /// The TZIDs of the VTIMEZONEs in `text` with a TZOFFSETFROM or TZOFFSETTO that is
    /// not a UTC offset (`±HHMM` or `±HHMMSS`). libical reads such a value as a number as
    /// far as it goes (`garbage` is +00:00, `+01` one minute) and leaves no trace of it,
    /// so the text is the only witness.
    package static func zonesWithMalformedOffsets(in text: Data) -> Set<String> {
        var tzidLines: [String] = []
        var inZone = false, bad = false
        var tzidLine: String?
        func endZone() {
            if inZone, bad, let tzidLine { tzidLines.append(tzidLine) }
            inZone = false
            bad = false
            tzidLine = nil
        }
        // Only BEGIN, END and T… (TZID, TZOFFSET…) lines matter.
        // A lone CR ends a line here too (unlike `ContentLines`' default and libical),
        // and `ICalPreFilter` keeps every event holding one because of it: changing it
        // would change which zones count as malformed in such files.
        ContentLines.forEachUnfolded(in: text, bareCREndsLine: true, startingWith: { ($0 & 0xDF) == 0x42 || ($0 & 0xDF) == 0x45 || ($0 & 0xDF) == 0x54 }) { bytes in
            if !bytes.contains(where: { $0 >= 0x80 }) {
                // ASCII (nearly every line): the same reading over the bytes, where
                // upper-casing, trimming and Characters are those of ASCII.
                guard let line = AsciiLine(bytes) else { return }
                if line.isName("BEGIN") {
                    if line.valueIs("VTIMEZONE") {
                        endZone()
                        inZone = true
                    }
                } else if line.isName("END") {
                    if line.valueIs("VTIMEZONE") { endZone() }
                } else if inZone {
                    if line.propertyIs("TZID") {
                        if tzidLine == nil { tzidLine = String(decoding: bytes, as: UTF8.self) }
                    } else if line.propertyIs("TZOFFSETFROM") || line.propertyIs("TZOFFSETTO"), UTCOffset.seconds(line.value) == nil {
                        bad = true
                    }
                }
                return
            }
            let line = String(decoding: bytes, as: UTF8.self)
            guard let colon = valueColon(in: line) else { return }
            let name = line[..<colon].uppercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch name {
            case "BEGIN":
                if value.uppercased() == "VTIMEZONE" {
                    endZone()
                    inZone = true
                }
            case "END":
                if value.uppercased() == "VTIMEZONE" { endZone() }
            default:
                guard inZone else { return }
                let property = name.prefix { $0 != ";" }
                if property == "TZID" {
                    if tzidLine == nil { tzidLine = line }
                } else if property == "TZOFFSETFROM" || property == "TZOFFSETTO", !isUTCOffset(value) {
                    bad = true
                }
            }
        }
        endZone()
        // The TZID as libical reads it (TEXT escapes undone), to match the parsed zone.
        var result: Set<String> = []
        if !tzidLines.isEmpty { ICalRuntime.ensureConfigured() }
        for line in tzidLines {
            guard let prop = ICalRuntime.withQuietStderr({ line.withCString { icalproperty_new_from_string($0) } }) else { continue }
            defer { icalproperty_free(prop) }
            if icalproperty_isa(prop) == ICAL_TZID_PROPERTY, let id = ICalWalk.copy(icalproperty_get_tzid(prop)) {
                result.insert(id)
            }
        }
        return result
    }

    /// RFC 5545 §3.3.14: `+` or `-`, two digits of hours, two of minutes, maybe two of seconds.
    private static func isUTCOffset(_ value: String) -> Bool {
        UTCOffset.seconds(value.utf8) != nil
    }

    /// The colon between a content line's name (and parameters) and its value: the first
    /// one outside a quoted parameter value.
    private static func valueColon(in line: String) -> String.Index? {
        var quoted = false
        var i = line.startIndex
        while i < line.endIndex {
            let c = line[i]
            if c == "\"" { quoted.toggle() } else if c == ":" && !quoted { return i }
            i = line.index(after: i)
        }
        return nil
    }
}

/// One ASCII content line as `zonesWithMalformedOffsets` reads it: the name (with its
/// parameters) before the first colon outside quotes, and the value after it with spaces
/// and tabs trimmed.
private struct AsciiLine {
    let bytes: [UInt8]
    let colon: Int

    init?(_ bytes: [UInt8]) {
        var quoted = false
        var found: Int?
        for (i, c) in bytes.enumerated() {
            if c == 0x22 { quoted.toggle() } else if c == 0x3A && !quoted { found = i; break }
        }
        guard let found else { return nil }
        self.bytes = bytes
        colon = found
    }

    var value: ArraySlice<UInt8> {
        var from = colon + 1, to = bytes.count
        while from < to && (bytes[from] == 0x20 || bytes[from] == 0x09) { from += 1 }
        while to > from && (bytes[to - 1] == 0x20 || bytes[to - 1] == 0x09) { to -= 1 }
        return bytes[from..<to]
    }

    private static func equal(_ slice: ArraySlice<UInt8>, _ word: StaticString) -> Bool {
        guard slice.count == word.utf8CodeUnitCount else { return false }
        return zip(slice, UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
            .allSatisfy { ContentLines.upper($0) == $1 }
    }

    /// The whole name part (parameters included) is `word`, in any case.
    func isName(_ word: StaticString) -> Bool { Self.equal(bytes[..<colon], word) }

    /// The property name (before any `;`) is `word`, in any case.
    func propertyIs(_ word: StaticString) -> Bool {
        Self.equal(bytes[..<(bytes[..<colon].firstIndex(of: 0x3B) ?? colon)], word)
    }

    func valueIs(_ word: StaticString) -> Bool { Self.equal(value, word) }
}
