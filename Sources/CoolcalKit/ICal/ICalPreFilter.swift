import Foundation

/// A byte-level pre-filter: drops the top-level VEVENTs of a VCALENDAR that provably
/// cannot reach a window, so libical parses only what may matter. It never parses
/// iCalendar itself: a block is dropped only when it is *simple* — balanced
/// BEGIN/END lines, no RRULE/RDATE/EXDATE/EXRULE/RECURRENCE-ID, one unfolded
/// DTSTART (and at most one unfolded DTEND or DURATION) in the plain forms
/// `20220820`, `20220820T080000`, `20220820T080000Z` with no parameters but TZID and
/// VALUE — and its span, widened by two days for any zone, ends before the window or
/// starts after it. Anything else is kept: when in doubt, parse. Tests run both
/// paths on generated calendars and compare their answers.
public enum ICalPreFilter {
    /// Slack for wall-clock values read in some zone: every UTC offset is within a day.
    static let margin: Int64 = 2 * 86_400

    public static func filter(_ data: Data, window: TimeWindow) -> Data {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Data in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return data }
            var scanner = Scanner(base: base, count: raw.count, window: window)
            let drop = scanner.droppableBlocks()
            if drop.isEmpty { return data }
            var out = Data(capacity: max(0, raw.count - drop.reduce(0) { $0 + $1.count }))
            var at = 0
            for r in drop {
                out.append(base + at, count: r.lowerBound - at)
                at = r.upperBound
            }
            out.append(base + at, count: raw.count - at)
            return out
        }
    }

    /// Walks lines once, tracking the component stack and one VEVENT's facts.
    private struct Scanner {
        let base: UnsafePointer<UInt8>
        let count: Int
        let window: TimeWindow

        mutating func droppableBlocks() -> [Range<Int>] {
            var result: [Range<Int>] = []
            var stack: [ArraySlice<UInt8>] = []
            var block: Block?
            var pos = 0
            var previousWasTimeLine = false
            while pos < count {
                let end = lineEnd(from: pos)
                var contentEnd = end
                if contentEnd > pos && base[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                let next = end < count ? end + 1 : end
                let first = base[pos]
                if first == 0x20 || first == 0x09 {
                    // A folded continuation: of a time line, that block is not simple.
                    if previousWasTimeLine { block?.simple = false }
                    pos = next
                    continue
                }
                previousWasTimeLine = false
                if let name = componentName(pos, contentEnd, keyword: "BEGIN:") {
                    if stack.count == 1 && stack[0] == vcalendar && name == vevent && block == nil {
                        block = Block(start: pos)
                    } else if block != nil {
                        block?.inner.append(name)
                    }
                    stack.append(name)
                } else if let name = componentName(pos, contentEnd, keyword: "END:") {
                    if var b = block {
                        if b.inner.isEmpty {
                            if name == vevent, stack.last == vevent {
                                b.end = next
                                if b.simple, let span = b.span, outside(span) { result.append(b.start..<next) }
                            }
                            block = nil
                        } else if b.inner.last == name {
                            b.inner.removeLast()
                            block = b
                        } else {
                            block = nil
                        }
                    }
                    if stack.last == name { stack.removeLast() } else { stack.removeAll() }
                } else if block != nil {
                    previousWasTimeLine = property(pos, contentEnd, into: &block!)
                }
                pos = next
            }
            return result
        }

        private func lineEnd(from pos: Int) -> Int {
            guard let p = memchr(base + pos, 0x0A, count - pos) else { return count }
            return base.distance(to: p.assumingMemoryBound(to: UInt8.self))
        }

        private func outside(_ span: (low: Int64, high: Int64)) -> Bool {
            span.high < window.start || span.low > window.end
        }

        /// `BEGIN:NAME` / `END:NAME` → the upper-cased, trimmed name.
        private func componentName(_ from: Int, _ to: Int, keyword: String) -> ArraySlice<UInt8>? {
            let k = Array(keyword.utf8)
            guard to - from > k.count else { return nil }
            for i in 0..<k.count where upper(base[from + i]) != k[i] { return nil }
            var name = ArraySlice((from + k.count..<to).map { upper(base[$0]) })
            while let last = name.last, last == 0x20 || last == 0x09 { name = name.dropLast() }
            return name
        }

        /// Reads one property line of the block; true when it was a time line.
        private func property(_ from: Int, _ to: Int, into b: inout Block) -> Bool {
            guard let kind = PropertyKind.of(base, from, to) else { return false }
            switch kind {
            case .recurrence:
                b.simple = false
                return false
            case .dtstart, .dtend, .duration:
                guard let colon = valueStart(from, to) else { b.simple = false; return true }
                let value = UnsafeBufferPointer(start: base + colon, count: to - colon)
                switch kind {
                case .dtstart:
                    if b.dtstart != nil { b.simple = false }
                    b.dtstart = TimeValue(value)
                    if b.dtstart == nil || !parametersPlain(from, colon) { b.simple = false }
                case .dtend:
                    if b.dtend != nil { b.simple = false }
                    b.dtend = TimeValue(value)
                    if b.dtend == nil || !parametersPlain(from, colon) { b.simple = false }
                default:
                    if b.duration != nil { b.simple = false }
                    b.duration = DurationValue(value)
                    if b.duration == nil || colon - from != 9 { b.simple = false }
                }
                return true
            }
        }

        /// The index after the first `:` outside quotes.
        private func valueStart(_ from: Int, _ to: Int) -> Int? {
            var quoted = false
            for i in from..<to {
                if base[i] == 0x22 { quoted.toggle() }
                if base[i] == 0x3A && !quoted { return i + 1 }
            }
            return nil
        }

        /// Only `TZID=…` and `VALUE=DATE`/`VALUE=DATE-TIME` parameters.
        private func parametersPlain(_ from: Int, _ colon: Int) -> Bool {
            var i = from
            while i < colon - 1 && base[i] != 0x3B { i += 1 }
            guard i < colon - 1 else { return true }
            let text = String(decoding: UnsafeBufferPointer(start: base + i, count: colon - 1 - i), as: UTF8.self)
            for param in text.split(separator: ";") {
                let upperParam = param.uppercased()
                if upperParam.hasPrefix("TZID=") && !param.contains("\"") { continue }
                if upperParam == "VALUE=DATE" || upperParam == "VALUE=DATE-TIME" { continue }
                return false
            }
            return true
        }
    }

    private struct Block {
        var start: Int
        var end = 0
        var inner: [ArraySlice<UInt8>] = []
        var simple = true
        var dtstart: TimeValue?
        var dtend: TimeValue?
        var duration: DurationValue?

        /// The widest the event could be, in UTC seconds; nil when unknown.
        var span: (low: Int64, high: Int64)? {
            guard let s = dtstart, !(dtend != nil && duration != nil) else { return nil }
            let slack = s.utc ? 0 : ICalPreFilter.margin
            let low = s.seconds - slack
            var high: Int64
            if let e = dtend {
                high = e.seconds + (e.utc ? 0 : ICalPreFilter.margin)
            } else if let d = duration {
                high = s.seconds + slack + d.seconds + 7200
            } else {
                high = s.seconds + slack + (s.isDate ? 86_400 : 0)
            }
            high = max(high, s.seconds + slack)
            return (low, high)
        }
    }
}

private func upper(_ c: UInt8) -> UInt8 { c >= 0x61 && c <= 0x7A ? c - 32 : c }

private let vcalendar = ArraySlice("VCALENDAR".utf8)
private let vevent = ArraySlice("VEVENT".utf8)

/// The property lines the pre-filter cares about.
private enum PropertyKind {
    case dtstart, dtend, duration, recurrence

    static func of(_ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int) -> PropertyKind? {
        func named(_ name: String) -> Bool {
            let n = Array(name.utf8)
            guard to - from > n.count else { return false }
            for i in 0..<n.count where upper(base[from + i]) != n[i] { return false }
            let after = base[from + n.count]
            return after == 0x3A || after == 0x3B
        }
        switch upper(base[from]) {
        case 0x44: // D
            if named("DTSTART") { return .dtstart }
            if named("DTEND") { return .dtend }
            if named("DURATION") { return .duration }
        case 0x52: // R
            if named("RRULE") || named("RDATE") || named("RECURRENCE-ID") { return .recurrence }
        case 0x45: // E
            if named("EXDATE") || named("EXRULE") { return .recurrence }
        default:
            break
        }
        return nil
    }
}

/// `YYYYMMDD`, `YYYYMMDDTHHMMSS` or `…Z`, as UTC-or-wall-clock seconds.
private struct TimeValue {
    var seconds: Int64
    var utc: Bool
    var isDate: Bool

    init?(_ v: UnsafeBufferPointer<UInt8>) {
        var n = v.count
        while n > 0 && (v[n - 1] == 0x20 || v[n - 1] == 0x09) { n -= 1 }
        func digits(_ at: Int, _ len: Int) -> Int? {
            var x = 0
            for i in at..<at + len {
                let d = v[i]
                guard d >= 0x30 && d <= 0x39 else { return nil }
                x = x * 10 + Int(d - 0x30)
            }
            return x
        }
        guard n == 8 || n == 15 || n == 16, let y = digits(0, 4), let mo = digits(4, 2), let d = digits(6, 2) else { return nil }
        var fields = CivilDateTime(year: y, month: mo, day: d)
        isDate = n == 8
        utc = n == 16
        if n >= 15 {
            guard v[8] == 0x54, let h = digits(9, 2), let mi = digits(11, 2), let s = digits(13, 2) else { return nil }
            if n == 16 && v[15] != 0x5A { return nil }
            fields.hour = h
            fields.minute = mi
            fields.second = s
        }
        guard fields.isValid, y >= 1 else { return nil }
        seconds = fields.secondsAsUTC
    }
}

/// A positive `P…` duration as its longest length in seconds.
private struct DurationValue {
    var seconds: Int64

    init?(_ v: UnsafeBufferPointer<UInt8>) {
        var n = v.count
        while n > 0 && (v[n - 1] == 0x20 || v[n - 1] == 0x09) { n -= 1 }
        var i = 0
        if i < n && v[i] == 0x2B { i += 1 }
        guard i < n && upper(v[i]) == 0x50 else { return nil }
        i += 1
        var total: Int64 = 0, number: Int64 = 0, digits = 0, sawUnit = false
        while i < n {
            let c = upper(v[i])
            if c >= 0x30 && c <= 0x39 {
                number = number * 10 + Int64(c - 0x30)
                digits += 1
                guard digits <= 9 else { return nil }
            } else {
                switch c {
                case 0x54: guard digits == 0 else { return nil } // T
                case 0x57: total += number * 7 * 86_400 // W
                case 0x44: total += number * 86_400 // D
                case 0x48: total += number * 3600 // H
                case 0x4D: total += number * 60 // M
                case 0x53: total += number // S
                default: return nil
                }
                if c != 0x54 {
                    guard digits > 0 else { return nil }
                    sawUnit = true
                }
                number = 0
                digits = 0
            }
            i += 1
        }
        guard sawUnit, digits == 0 else { return nil }
        seconds = total
    }
}
