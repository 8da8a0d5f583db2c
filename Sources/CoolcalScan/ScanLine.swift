import Foundation
import CoolcalModel

/// How the pre-filter reads one content line of a VEVENT: BEGIN/END markers, the
/// properties that bound an event in time (and those that make it unjudgeable), and
/// their parameters. Everything works on the raw bytes of one physical line, through
/// pointers and not `ContentLines` (this runs for every line of the file; see
/// `ICalPreFilter.handle`); its ASCII upper-casing is `ContentLines.upper`. What a line
/// says of its event goes into the event's `ScanBlock`.
package enum ScanLine {
    /// `TZOFFSETFROM`/`TZOFFSETTO` beyond 20 hours: libical uses such zones, and they
    /// would break the one-day margin.
    package static func extremeOffset(_ p: UnsafePointer<UInt8>, _ to: Int) -> Bool {
        guard has(p, 0, to, "TZOFFSET"), let colon = valueStart(p, 0, to) else { return false }
        var digits = 0, value = 0
        for i in colon..<to {
            let c = p[i]
            if c >= 0x30 && c <= 0x39 {
                if digits < 2 { value = value * 10 + Int(c - 0x30) }
                digits += 1
            } else if c != 0x2B && c != 0x2D && c != 0x20 {
                return true
            }
        }
        return digits < 4 || value >= 20
    }

    /// A line libical takes for the start or the end of a component: its property name
    /// — what comes before the first `;` or `:`, trailing white space removed — is
    /// BEGIN or END in any case. libical's END closes the innermost open component
    /// whatever name follows, and its BEGIN reads the name up to a comma and matches
    /// it by prefix (`VEVENTX` is a VEVENT). `name` is a hash of the upper-cased name
    /// (`nameHash`) only in the plain form `BEGIN:NAME` / `END:NAME`, NAME being letters,
    /// digits and `-` with at most spaces or tabs after it; nil otherwise.
    package struct Marker {
        package var begin: Bool
        package var name: UInt64?
        /// The name starts with VCALENDAR (which libical reads as one).
        package var calendar = false
    }

    package static func marker(_ base: UnsafePointer<UInt8>, _ to: Int) -> Marker? {
        // Most markers of a large file open or close a VEVENT, in capitals: compared at
        // once (little-endian loads of "BEGIN:VE" "VENT" and "END:VEVE" "NT"), with the
        // answer the reading below gives them.
        let raw = UnsafeRawPointer(base)
        if to == 12 && UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) == 0x4556_3A4E_4947_4542
            && UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self)) == 0x544E_4556 {
            return Marker(begin: true, name: vevent)
        }
        if to == 10 && UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) == 0x4556_4556_3A44_4E45
            && UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self)) == 0x544E {
            return Marker(begin: false, name: vevent)
        }
        let begin = ContentLines.upper(base[0]) == 0x42
        let n = begin ? 5 : 3
        guard has(base, 0, to, begin ? "BEGIN" : "END") else { return nil }
        var i = n
        // Any byte a C library might count as white space (0x1C–0x1F in some locales).
        while i < to && (base[i] == 0x20 || (base[i] >= 0x09 && base[i] <= 0x0D) || (base[i] >= 0x1C && base[i] <= 0x1F)) {
            i += 1
        }
        guard i < to, base[i] == 0x3A || base[i] == 0x3B else { return nil }
        var result = Marker(begin: begin)
        guard i == n, base[i] == 0x3A else { return result }
        var end = to
        while end > n + 1 && (base[end - 1] == 0x20 || base[end - 1] == 0x09) { end -= 1 }
        guard end > n + 1 else { return result }
        for j in (n + 1)..<end {
            let c = ContentLines.upper(base[j])
            guard (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x2D else { return result }
        }
        result.name = nameHash(base + n + 1, end - n - 1)
        result.calendar = has(base, n + 1, end - n - 1, "VCALENDAR")
        return result
    }

    /// Where the property name of a line ends: its first `;` or `:` (`to` when none).
    /// Sixteen bytes at a time while they are all before `to`, then byte by byte.
    @inline(__always)
    package static func nameEnd(_ p: UnsafePointer<UInt8>, _ to: Int) -> Int {
        var i = 0
        while i + 16 <= to {
            let m = nameBreaks(p + i)
            if m.low != 0 { return i + m.low.trailingZeroBitCount >> 3 }
            if m.high != 0 { return i + 8 + m.high.trailingZeroBitCount >> 3 }
            i += 16
        }
        while i < to && p[i] != 0x3A && p[i] != 0x3B { i += 1 }
        return i
    }

    /// Reads one property line of the block, whose name ends at `nameEnd`; true when it
    /// was a time line. A name it reads has no quote: its value starts at the first `:`
    /// from `nameEnd` on outside quotes.
    package static func property(_ base: UnsafePointer<UInt8>, _ to: Int, nameEnd: Int, into b: inout ScanBlock,
                                 giveUp: inout Bool) -> Bool {
        let from = 0
        guard let kind = PropertyKind.of(base, from, nameEnd, to) else { return false }
        switch kind {
        case .keep:
            b.simple = false
            return false
        case .recurrenceID:
            // RANGE (THISANDFUTURE, in any case) moves a whole series: judge nothing.
            if containsUppercased(base, to, "RANGE") { giveUp = true }
            guard let colon = valueStart(base, nameEnd, to), b.recurrenceID == nil,
                  let rid = ScanTime(UnsafeBufferPointer(start: base + colon, count: to - colon)),
                  parametersPlain(base, from, colon, isDate: rid.isDate) else {
                b.simple = false
                return true
            }
            b.recurrenceID = rid
            b.recurrenceTZID = tzidParameter(base, from, colon)
            return true
        case .exdate:
            // Only ever removes instances: no effect on the bound.
            return false
        case .rrule:
            if let colon = valueStart(base, nameEnd, to), colon - from == 6,
               let rule = ScanRule(UnsafeBufferPointer(start: base + colon, count: to - colon)) {
                b.rules.append(rule)
            } else {
                b.simple = false
            }
            return true
        case .sequence, .dtstamp, .lastModified:
            b.revision.read(kind, base, from, nameEnd, to)
            return true
        case .dtstart, .dtend, .duration:
            guard let colon = valueStart(base, nameEnd, to) else { b.simple = false; return true }
            let value = UnsafeBufferPointer(start: base + colon, count: to - colon)
            switch kind {
            case .dtstart:
                if b.dtstart != nil { b.simple = false }
                b.dtstart = ScanTime(value)
                if b.dtstart == nil || !parametersPlain(base, from, colon, isDate: b.dtstart?.isDate) { b.simple = false }
            case .dtend:
                if b.dtend != nil { b.simple = false }
                b.dtend = ScanTime(value)
                if b.dtend == nil || !parametersPlain(base, from, colon, isDate: b.dtend?.isDate) { b.simple = false }
            default:
                if b.duration != nil { b.simple = false }
                b.duration = ScanDuration(value)
                if b.duration == nil || colon - from != 9 { b.simple = false }
            }
            return true
        }
    }

    /// The index after the first `:` outside quotes. It steps from one `:` or `"` to the
    /// next, found 16 bytes at a time while they are all before `to`.
    package static func valueStart(_ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int) -> Int? {
        var quoted = false
        var i = from
        while i < to {
            let k = colonOrQuote(base, i, to)
            guard k < to else { return nil }
            if base[k] == 0x22 {
                quoted.toggle()
            } else if !quoted {
                return k + 1
            }
            i = k + 1
        }
        return nil
    }

    /// Only `TZID=…` (unquoted) and `VALUE=DATE`/`VALUE=DATE-TIME` parameters.
    /// Only one unquoted `TZID=…` (not on a date) and a `VALUE=` that matches the value:
    /// `VALUE=DATE` with exactly the date form, which also needs it. Anything libical
    /// might read differently is left for libical.
    package static func parametersPlain(_ base: UnsafePointer<UInt8>, _ from: Int, _ colon: Int,
                                        isDate: Bool? = nil) -> Bool {
        var tzids = 0, valueDate = false
        var i = semicolon(base, from, colon - 1)
        while i < colon - 1 {
            let start = i + 1
            let end = semicolon(base, start, colon - 1)
            let length = end - start
            if has(base, start, length, "TZID=") {
                if memchr(base + start, 0x22, length) != nil { return false }
                tzids += 1
            } else if length == 10 && has(base, start, 10, "VALUE=DATE") {
                valueDate = true
            } else if !(length == 15 && has(base, start, 15, "VALUE=DATE-TIME")) {
                return false
            }
            i = end
        }
        if tzids > 1 { return false }
        if let isDate, isDate != valueDate || (isDate && tzids > 0) { return false }
        return true
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

    /// The `length` bytes at `base + at` start with `prefix` (upper-case ASCII), in any case.
    package static func has(_ base: UnsafePointer<UInt8>, _ at: Int, _ length: Int, _ prefix: StaticString) -> Bool {
        let p = prefix.utf8Start
        guard length >= prefix.utf8CodeUnitCount else { return false }
        for j in 0..<prefix.utf8CodeUnitCount where ContentLines.upper(base[at + j]) != p[j] { return false }
        return true
    }

    /// Search for an upper-case ASCII needle, ignoring the case of the haystack.
    package static func containsUppercased(_ base: UnsafePointer<UInt8>, _ count: Int, _ needle: StaticString) -> Bool {
        let n = needle.utf8CodeUnitCount
        guard count >= n else { return false }
        for i in 0...(count - n) {
            var j = 0
            while j < n && ContentLines.upper(base[i + j]) == needle.utf8Start[j] { j += 1 }
            if j == n { return true }
        }
        return false
    }

    // The hashes of the names the filter compares with, as literals: a `static let` with
    // an initializer is a lazy global, and its check (`swift_once`) ran on every BEGIN and
    // END line. `PreFilterNameHashTests` checks each against `nameHash`.
    package static let vcalendar: UInt64 = 0xF2C2_9229_91EB_25F0 // nameHash("VCALENDAR")
    package static let vevent: UInt64 = 0x7868_1D4C_5BCE_10C8 // nameHash("VEVENT")
    package static let vtimezone: UInt64 = 0xA7B9_5798_F0CA_092B // nameHash("VTIMEZONE")

    /// The property lines the pre-filter cares about.
    package enum PropertyKind {
        case dtstart, dtend, duration, rrule, exdate, recurrenceID, keep
        case sequence, dtstamp, lastModified

        /// The kind of the property named `base[from..<nameEnd]` (`nameEnd` < `to`: a `;`
        /// or `:` follows), in any case. Only a name of the right length is compared.
        package static func of(_ base: UnsafePointer<UInt8>, _ from: Int, _ nameEnd: Int, _ to: Int) -> PropertyKind? {
            guard nameEnd < to else { return nil }
            let n = nameEnd - from
            if to - from >= 16 { return of(words: ScanLine.upperWords(base + from, count: n), count: n) }
            switch (ContentLines.upper(base[from]), n) {
            case (0x44, 7): // D
                if named(base, from, "DTSTART") { return .dtstart }
                if named(base, from, "DTSTAMP") { return .dtstamp }
            case (0x44, 5):
                if named(base, from, "DTEND") { return .dtend }
            case (0x44, 8):
                if named(base, from, "DURATION") { return .duration }
            case (0x52, 5): // R
                if named(base, from, "RRULE") { return .rrule }
                if named(base, from, "RDATE") { return .keep }
            case (0x52, 13):
                if named(base, from, "RECURRENCE-ID") { return .recurrenceID }
            case (0x53, 8): // S
                if named(base, from, "SEQUENCE") { return .sequence }
            case (0x4C, 13): // L
                if named(base, from, "LAST-MODIFIED") { return .lastModified }
            case (0x55, 3): // U: a UID with parameters (the plain `UID:` is read before)
                if named(base, from, "UID") { return .keep }
            case (0x45, 6): // E
                if named(base, from, "EXDATE") { return .exdate }
                if named(base, from, "EXRULE") { return .keep }
            default:
                break
            }
            return nil
        }

        /// `of` for a name of `n` bytes upper-cased into two words (`ScanLine.upperWords`),
        /// compared with the names as words (`ScanBytesTests` checks each name both ways).
        @inline(__always)
        private static func of(words w: (UInt64, UInt64), count n: Int) -> PropertyKind? {
            switch n {
            case 3: return w.0 == 0x0000_0000_0044_4955 ? .keep : nil // UID
            case 5:
                if w.0 == 0x0000_0044_4E45_5444 { return .dtend }
                if w.0 == 0x0000_0045_4C55_5252 { return .rrule }
                return w.0 == 0x0000_0045_5441_4452 ? .keep : nil // RDATE
            case 6:
                if w.0 == 0x0000_4554_4144_5845 { return .exdate }
                return w.0 == 0x0000_454C_5552_5845 ? .keep : nil // EXRULE
            case 7:
                if w.0 == 0x0054_5241_5453_5444 { return .dtstart }
                return w.0 == 0x0050_4D41_5453_5444 ? .dtstamp : nil
            case 8:
                if w.0 == 0x4E4F_4954_4152_5544 { return .duration }
                return w.0 == 0x4543_4E45_5551_4553 ? .sequence : nil
            case 13:
                if w == (0x4E45_5252_5543_4552, 0x0000_0044_492D_4543) { return .recurrenceID }
                return w == (0x444F_4D2D_5453_414C, 0x0000_0044_4549_4649) ? .lastModified : nil
            default: return nil
            }
        }

        /// Whether a name of `length` bytes whose first is `upperFirst` (upper-cased) may
        /// be one `of` reads: false rules it out at once (most lines of an event), with no
        /// byte compared.
        @inline(__always)
        package static func mayBe(_ upperFirst: UInt8, length: Int) -> Bool {
            let lengths: UInt32
            switch upperFirst {
            case 0x44: lengths = 1 << 5 | 1 << 7 | 1 << 8 // DTEND; DTSTART, DTSTAMP; DURATION
            case 0x52: lengths = 1 << 5 | 1 << 13 // RRULE, RDATE; RECURRENCE-ID
            case 0x53: lengths = 1 << 8 // SEQUENCE
            case 0x4C: lengths = 1 << 13 // LAST-MODIFIED
            case 0x55: lengths = 1 << 3 // UID
            case 0x45: lengths = 1 << 6 // EXDATE, EXRULE
            default: return false
            }
            return length < 32 && lengths >> UInt32(length) & 1 != 0
        }

        /// Whether the bytes at `from` are `name` in any case (its length already matched).
        @inline(__always)
        private static func named(_ base: UnsafePointer<UInt8>, _ from: Int, _ name: StaticString) -> Bool {
            let n = name.utf8Start
            for i in 1..<name.utf8CodeUnitCount where ContentLines.upper(base[from + i]) != n[i] { return false }
            return true
        }
    }
}
