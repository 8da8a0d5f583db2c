import Foundation

/// A byte-level pre-filter: drops the top-level VEVENTs of a VCALENDAR that provably
/// cannot reach a window, so libical parses only what may matter. It never parses
/// iCalendar itself: a block is dropped only when it is *simple* — balanced
/// BEGIN/END lines, no RDATE/EXRULE/RECURRENCE-ID, one unfolded DTSTART (and at most
/// one unfolded DTEND or DURATION) in the plain forms `20220820`, `20220820T080000`,
/// `20220820T080000Z` with no parameters but TZID and VALUE — and everything it can
/// produce, widened by two days for any zone, ends before the window or starts after
/// it. A recurring event counts only when every RRULE has an end that is cheap to
/// bound (UNTIL; or COUNT on a rule that yields one instance per period) or when it
/// starts after the window, and never in a file with `RANGE=THISANDFUTURE`. An event
/// holding what `ICalReader`'s own text scan for VTIMEZONE offsets would read — a
/// VTIMEZONE, a TZ… line, a lone CR (which that scan takes for a line end) — is kept.
/// A file whose components libical might delimit otherwise than the filter — a BEGIN
/// or END line in any but the plain `BEGIN:NAME` form (libical's END closes whatever
/// is open, `END:` and `END;X=1:…` included), a folded one, bad nesting, no complete
/// top-level component (libical then returns nothing) — is passed whole. Anything
/// else is kept: when in doubt, parse.
///
/// The contract, for the window filtered for: the filtered read gives the same
/// occurrences as the full parse (uid, recurrence id, start, end, summary, busy), and
/// throws exactly when the full parse throws, with the same message. Its warnings are
/// a subset of the full parse's (as sets: a warning is reported once): the full parse
/// may warn more — about the dropped events themselves, or because libical recovers
/// differently from a garbled event once a well-formed neighbour is gone — but a
/// warning only the filtered read gives is a bug. `PreFilterTests` checks it on
/// generated calendars (where the warnings are even equal) and the `FuzzPreFilter`
/// harness on any bytes. The one intended exception is size: a file larger than
/// `ICalReader.maxParseBytes` is refused whole but may be read through the filter.
public struct ICalPreFilter {
    /// Slack for wall-clock values read in some zone: every UTC offset is within a day
    /// (−12 h to +14 h), and unknown or floating zones are read in `--tz`, another zone.
    static let margin: Int64 = 86_400

    private let window: TimeWindow
    private var out: [UInt8] = []
    /// The start of a line that the previous chunk cut.
    private var carry: [UInt8] = []
    /// The bytes of the VEVENT being read that came in earlier pieces.
    private var pending: [UInt8] = []
    /// Where the VEVENT being read starts in the current piece: its bytes are copied
    /// only if it is kept (most are not) or the piece ends inside it.
    private var blockStart: UnsafePointer<UInt8>?
    private var lineEnd: UnsafePointer<UInt8>?
    private var inPiece = false
    private var stack: [UInt64] = []
    private var block: Block?
    private var previousWasTimeLine = false
    /// Set when the file has something the filter cannot bound — a `RANGE` on a
    /// RECURRENCE-ID (an override that moves a whole series by any amount), a property
    /// name cut by a fold, a VTIMEZONE offset beyond the margin: then nothing is
    /// dropped and the caller parses the whole file.
    private var giveUp = false
    /// Overrides that may be dropped, decided at the end when every master with their
    /// UID is known (a master later in the file counts too).
    private var heldOverrides: [(at: Int, bytes: [UInt8], uid: UInt64, rid: Int64, slack: Int64)] = []
    /// True when the physical line before a continuation ended inside a property name.
    private var previousNameOpen = false
    /// For each master seen so far (by a hash of its UID): the longest its first
    /// instance can be, or nil when it cannot be judged. An override is dropped only
    /// when its master's instance at RECURRENCE-ID cannot reach the window either.
    private var masterLengths: [UInt64: Int64?] = [:]
    private var previousWasUID = false
    /// True after a BEGIN or END line: a fold would change the component libical sees.
    private var previousWasMarker = false
    /// Set when an END closed a top-level component. Without one libical's parse is
    /// empty and the error message is computed from the text itself: judge nothing.
    private var completedTopLevel = false

    public init(window: TimeWindow) {
        self.window = window
    }

    /// Filters a whole calendar in memory (the input itself when it cannot be judged).
    public static func filter(_ data: Data, window: TimeWindow) -> Data {
        var filter = ICalPreFilter(window: window)
        data.withUnsafeBytes { filter.feed($0) }
        return filter.finish() ?? data
    }

    /// Takes the next piece of the file; lines may be cut anywhere.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        guard let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self), chunk.count > 0 else { return }
        var pos = 0
        if !carry.isEmpty {
            guard let nl = memchr(base, 0x0A, chunk.count) else {
                carry.append(contentsOf: UnsafeBufferPointer(start: base, count: chunk.count))
                return
            }
            let end = base.distance(to: nl.assumingMemoryBound(to: UInt8.self)) + 1
            carry.append(contentsOf: UnsafeBufferPointer(start: base, count: end))
            let line = carry
            carry.removeAll(keepingCapacity: true)
            line.withUnsafeBufferPointer { handle($0.baseAddress!, $0.count) }
            pos = end
        }
        inPiece = true
        while pos < chunk.count {
            guard let nl = memchr(base + pos, 0x0A, chunk.count - pos) else {
                carry.append(contentsOf: UnsafeBufferPointer(start: base + pos, count: chunk.count - pos))
                break
            }
            let end = base.distance(to: nl.assumingMemoryBound(to: UInt8.self)) + 1
            handle(base + pos, end - pos)
            pos = end
        }
        inPiece = false
        if let start = blockStart {
            pending.append(contentsOf: UnsafeBufferPointer(start: start, count: start.distance(to: base + pos)))
            blockStart = nil
        }
    }

    /// Everything kept, in the original order; nil when the file must be parsed whole.
    public mutating func finish() -> Data? {
        if !carry.isEmpty {
            let line = carry
            carry = []
            line.withUnsafeBufferPointer { handle($0.baseAddress!, $0.count) }
        }
        out += pending
        pending = []
        if giveUp || !completedTopLevel { return nil }
        var merged: [UInt8] = []
        merged.reserveCapacity(out.count + heldOverrides.reduce(0) { $0 + $1.bytes.count })
        var at = 0
        for held in heldOverrides {
            // Dropped only when every master of the UID is known and its instance at
            // RECURRENCE-ID misses the window too.
            if let known = masterLengths[held.uid], let length = known,
               held.rid + held.slack + length < window.start || held.rid - held.slack > window.end {
                continue
            }
            merged += out[at..<held.at]
            merged += held.bytes
            at = held.at
        }
        merged += out[at...]
        return Data(merged)
    }

    /// One line, with its line ending.
    private mutating func handle(_ p: UnsafePointer<UInt8>, _ full: Int) {
        var contentEnd = full
        if contentEnd > 0 && p[contentEnd - 1] == 0x0A { contentEnd -= 1 }
        if contentEnd > 0 && p[contentEnd - 1] == 0x0D { contentEnd -= 1 }
        let bytes = UnsafeBufferPointer(start: p, count: full)
        lineEnd = p + full
        let first = full > 0 ? p[0] : 0
        // `ICalReader` also reads the text itself for VTIMEZONE offsets, and ends lines at
        // a lone CR too: an event with one (or with TZ… lines, below) is kept, so that
        // what it reads is the same in the filtered text.
        if block != nil, contentEnd > 0, memchr(p, 0x0D, contentEnd) != nil { block?.simple = false }
        if first == 0x20 || first == 0x09 {
            // A folded continuation: of a time line, that block is not simple; after a
            // line that ended inside the property name, no line can be classified.
            if previousWasTimeLine { block?.simple = false }
            if previousWasUID { block?.uid = nil }
            if previousNameOpen || previousWasMarker { giveUp = true }
            emit(bytes)
            return
        }
        previousWasTimeLine = false
        previousWasUID = false
        previousWasMarker = false
        previousNameOpen = memchr(p, 0x3A, contentEnd) == nil && memchr(p, 0x3B, contentEnd) == nil
        let upperFirst = upper(first)
        let marker = upperFirst == 0x42 || upperFirst == 0x45 ? ICalPreFilter.marker(p, contentEnd) : nil
        if let marker {
            previousWasMarker = true
            if marker.name == nil {
                // libical's BEGIN or END in an odd form (`END:`, `END;X=1:VEVENT`,
                // `BEGIN :VEVENT`, `BEGIN:VEVENT,X`): it opens or closes *some*
                // component, whatever the name; judge nothing.
                giveUp = true
                emit(bytes)
                return
            }
        }
        if let marker, marker.begin, let name = marker.name {
            if marker.calendar && !stack.isEmpty { giveUp = true }
            if stack.count == 1 && stack[0] == vcalendar && name == vevent && block == nil {
                block = Block()
                if inPiece { blockStart = p }
            } else if block != nil {
                block?.inner.append(name)
                if name == vtimezone { block?.simple = false }
            }
            stack.append(name)
            emit(bytes)
        } else if let marker, let name = marker.name {
            emit(bytes)
            if var b = block {
                if b.inner.isEmpty {
                    if name == vevent, stack.last == vevent { close(b) } else { abandon() }
                    block = nil
                } else if b.inner.last == name {
                    b.inner.removeLast()
                    block = b
                } else {
                    abandon()
                }
            }
            if stack.last == name {
                stack.removeLast()
                if stack.isEmpty { completedTopLevel = true }
            } else {
                // Badly nested: libical recovers in its own way, which depends on the
                // neighbours too. Judge nothing in such a file.
                stack.removeAll()
                giveUp = true
            }
        } else {
            if upperFirst == 0x54 {
                if ICalPreFilter.extremeOffset(p, contentEnd) { giveUp = true }
                // TZID, TZOFFSETFROM, TZOFFSETTO… in an event: see the lone CR above.
                if contentEnd > 1, upper(p[1]) == 0x5A { block?.simple = false }
            }
            // A name that only Unicode upper-casing makes BEGIN (`BEGıN`), read that way
            // by the same text scan.
            if upperFirst == 0x42, block != nil, contentEnd > 1, (1..<min(contentEnd, 8)).contains(where: { p[$0] >= 0x80 }) {
                block?.simple = false
            }
            if block != nil, block?.inner.isEmpty == true {
                if upperFirst == 0x55, contentEnd > 4, upper(p[1]) == 0x49, upper(p[2]) == 0x44, p[3] == 0x3A {
                    block!.uid = nameHash(p + 4, contentEnd - 4)
                    block!.uidLines += 1
                    previousWasUID = true
                } else {
                    previousWasTimeLine = ICalPreFilter.property(p, contentEnd, into: &block!, giveUp: &giveUp)
                }
            }
            emit(bytes)
        }
    }

    private mutating func emit(_ bytes: UnsafeBufferPointer<UInt8>) {
        if block == nil {
            out.append(contentsOf: bytes)
        } else if blockStart == nil {
            pending.append(contentsOf: bytes)
        }
    }

    /// The whole VEVENT just read, ending with the current line.
    private mutating func takeBlock() -> [UInt8] {
        var bytes = pending
        if let start = blockStart, let end = lineEnd {
            bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: start.distance(to: end)))
        }
        pending.removeAll(keepingCapacity: true)
        blockStart = nil
        return bytes
    }

    /// A complete VEVENT: dropped when it cannot reach the window, else kept.
    private mutating func close(_ b: Block) {
        let uid = b.uidLines == 1 ? b.uid : nil
        if let rid = b.recurrenceID {
            // An override: its own span must miss; its master's instance at RID is
            // judged at the end, when all masters of the UID have been seen.
            if b.simple, b.rules.isEmpty, let uid, let reaches = b.reaches(window), !reaches {
                heldOverrides.append((out.count, takeBlock(), uid, rid.seconds, rid.utc ? 0 : ICalPreFilter.margin))
            } else {
                out += takeBlock()
            }
            return
        }
        if let uid {
            let length = b.lengthBound
            if let previous = masterLengths[uid] {
                masterLengths[uid] = .some(previous.flatMap { p in length.map { max(p, $0) } })
            } else {
                masterLengths[uid] = .some(length)
            }
        }
        if b.simple, let reaches = b.reaches(window), !reaches {
            pending.removeAll(keepingCapacity: true)
            blockStart = nil
        } else {
            out += takeBlock()
        }
    }

    /// A badly nested block: keep its bytes; the file is not judged at all.
    private mutating func abandon() {
        giveUp = true
        out += takeBlock()
        block = nil
    }


    /// `TZOFFSETFROM`/`TZOFFSETTO` beyond 20 hours: libical uses such zones, and they
    /// would break the one-day margin.
    private static func extremeOffset(_ p: UnsafePointer<UInt8>, _ to: Int) -> Bool {
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
    /// (FNV-1a) only in the plain form `BEGIN:NAME` / `END:NAME`, NAME being letters,
    /// digits and `-` with at most spaces or tabs after it; nil otherwise.
    private struct Marker {
        var begin: Bool
        var name: UInt64?
        /// The name starts with VCALENDAR (which libical reads as one).
        var calendar = false
    }

    private static func marker(_ base: UnsafePointer<UInt8>, _ to: Int) -> Marker? {
        let begin = upper(base[0]) == 0x42
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
            let c = upper(base[j])
            guard (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x2D else { return result }
        }
        result.name = nameHash(base + n + 1, end - n - 1)
        result.calendar = has(base, n + 1, end - n - 1, "VCALENDAR")
        return result
    }

    /// Reads one property line of the block; true when it was a time line.
    private static func property(_ base: UnsafePointer<UInt8>, _ to: Int, into b: inout Block,
                                 giveUp: inout Bool) -> Bool {
        let from = 0
        guard let kind = PropertyKind.of(base, from, to) else { return false }
        switch kind {
        case .keep:
            b.simple = false
            return false
        case .recurrenceID:
            // RANGE (THISANDFUTURE, in any case) moves a whole series: judge nothing.
            if containsUppercased(base, to, "RANGE") { giveUp = true }
            guard let colon = valueStart(base, from, to), b.recurrenceID == nil,
                  let rid = TimeValue(UnsafeBufferPointer(start: base + colon, count: to - colon)),
                  parametersPlain(base, from, colon, isDate: rid.isDate) else {
                b.simple = false
                return true
            }
            b.recurrenceID = rid
            return true
        case .exdate:
            // Only ever removes instances: no effect on the bound.
            return false
        case .rrule:
            if let colon = valueStart(base, from, to), colon - from == 6,
               let rule = RuleValue(UnsafeBufferPointer(start: base + colon, count: to - colon)) {
                b.rules.append(rule)
            } else {
                b.simple = false
            }
            return true
        case .dtstart, .dtend, .duration:
            guard let colon = valueStart(base, from, to) else { b.simple = false; return true }
            let value = UnsafeBufferPointer(start: base + colon, count: to - colon)
            switch kind {
            case .dtstart:
                if b.dtstart != nil { b.simple = false }
                b.dtstart = TimeValue(value)
                if b.dtstart == nil || !parametersPlain(base, from, colon, isDate: b.dtstart?.isDate) { b.simple = false }
            case .dtend:
                if b.dtend != nil { b.simple = false }
                b.dtend = TimeValue(value)
                if b.dtend == nil || !parametersPlain(base, from, colon, isDate: b.dtend?.isDate) { b.simple = false }
            default:
                if b.duration != nil { b.simple = false }
                b.duration = DurationValue(value)
                if b.duration == nil || colon - from != 9 { b.simple = false }
            }
            return true
        }
    }

    /// The index after the first `:` outside quotes.
    private static func valueStart(_ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int) -> Int? {
        var quoted = false
        for i in from..<to {
            if base[i] == 0x22 { quoted.toggle() }
            if base[i] == 0x3A && !quoted { return i + 1 }
        }
        return nil
    }

    /// Only `TZID=…` (unquoted) and `VALUE=DATE`/`VALUE=DATE-TIME` parameters.
    /// Only one unquoted `TZID=…` (not on a date) and a `VALUE=` that matches the value:
    /// `VALUE=DATE` with exactly the date form, which also needs it. Anything libical
    /// might read differently is left for libical.
    private static func parametersPlain(_ base: UnsafePointer<UInt8>, _ from: Int, _ colon: Int,
                                        isDate: Bool? = nil) -> Bool {
        var i = from
        var tzids = 0, valueDate = false
        while i < colon - 1 && base[i] != 0x3B { i += 1 }
        while i < colon - 1 {
            let start = i + 1
            var end = start
            while end < colon - 1 && base[end] != 0x3B { end += 1 }
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

    private static func has(_ base: UnsafePointer<UInt8>, _ at: Int, _ length: Int, _ prefix: StaticString) -> Bool {
        let p = prefix.utf8Start
        guard length >= prefix.utf8CodeUnitCount else { return false }
        for j in 0..<prefix.utf8CodeUnitCount where upper(base[at + j]) != p[j] { return false }
        return true
    }

    private struct Block {
        var inner: [UInt64] = []
        var simple = true
        var dtstart: TimeValue?
        var dtend: TimeValue?
        var duration: DurationValue?
        var rules: [RuleValue] = []
        var uid: UInt64?
        var uidLines = 0
        var recurrenceID: TimeValue?

        /// How long the first instance can be, widened; nil when unknown.
        var lengthBound: Int64? {
            guard simple, let first = firstSpan else { return nil }
            return first.high - first.low
        }

        /// Whether any instance could overlap `window`; nil when it cannot be judged.
        func reaches(_ window: TimeWindow) -> Bool? {
            guard let first = firstSpan, let s = dtstart else { return nil }
            func overlaps(_ low: Int64, _ high: Int64) -> Bool { high >= window.start && low <= window.end }
            if overlaps(first.low, first.high) { return true }
            for rule in rules {
                let last = rule.lastStart(from: s)
                if let period = rule.period {
                    // Instance k starts exactly k periods (wall clock) after DTSTART.
                    var kLow = (window.start - first.high + period - 1) / period
                    var kHigh = (window.end - first.low) / period
                    kLow = max(kLow, 1)
                    if let last { kHigh = min(kHigh, (last - s.seconds) / period) }
                    if window.end - first.low < 0 { kHigh = -1 }
                    if kLow <= kHigh { return true }
                } else if let step = rule.monthStep {
                    if monthlyReaches(step: step, rule: rule, last: last, first: first, start: s, window) { return true }
                } else {
                    guard let last else { return first.low <= window.end }
                    if overlaps(first.low, last + ICalPreFilter.margin + (first.high - first.low)) { return true }
                }
            }
            return false
        }

        /// Plain MONTHLY/YEARLY rules: an instance on DTSTART's day of the month in every
        /// `step`-th month where that day exists. Checks the few months near the window.
        private func monthlyReaches(step: Int, rule: RuleValue, last: Int64?, first: (low: Int64, high: Int64),
                                    start s: TimeValue, _ window: TimeWindow) -> Bool {
            let f = CivilDateTime(utcSeconds: s.seconds)
            let after = first.high - s.seconds, before = s.seconds - first.low
            let from = CivilDateTime(utcSeconds: window.start - after - 32 * 86_400)
            let to = CivilDateTime(utcSeconds: window.end + before + 32 * 86_400)
            let origin = f.year * 12 + f.month - 1
            let lowMonth = from.year * 12 + from.month - 1, highMonth = to.year * 12 + to.month - 1
            guard highMonth - lowMonth <= 48 else { return true }
            for m in max(lowMonth, origin + 1)...max(highMonth, origin + 1) where m <= highMonth {
                let index = m - origin
                guard index % step == 0 else { continue }
                if let count = rule.count, f.day <= 28, index / step >= count { continue }
                let y = m / 12, mo = m % 12 + 1
                guard f.day <= CivilDateTime.daysInMonth(y, mo) else { continue }
                let t = CivilDateTime(year: y, month: mo, day: f.day, hour: f.hour, minute: f.minute, second: f.second).secondsAsUTC
                if let last, t > last { continue }
                if t + after >= window.start && t - before <= window.end { return true }
            }
            return false
        }

        /// The first instance, widened for any zone.
        private var firstSpan: (low: Int64, high: Int64)? {
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

/// Search for an upper-case ASCII needle, ignoring the case of the haystack.
private func containsUppercased(_ base: UnsafePointer<UInt8>, _ count: Int, _ needle: StaticString) -> Bool {
    let n = needle.utf8CodeUnitCount
    guard count >= n else { return false }
    for i in 0...(count - n) {
        var j = 0
        while j < n && upper(base[i + j]) == needle.utf8Start[j] { j += 1 }
        if j == n { return true }
    }
    return false
}

private func nameHash(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for i in 0..<n { h = (h ^ UInt64(upper(p[i]))) &* 0x100_0000_01B3 }
    return h
}

private let vcalendar: UInt64 = "VCALENDAR".utf8.withContiguousStorageIfAvailable { nameHash($0.baseAddress!, $0.count) } ?? 0
private let vevent: UInt64 = "VEVENT".utf8.withContiguousStorageIfAvailable { nameHash($0.baseAddress!, $0.count) } ?? 1
private let vtimezone: UInt64 = {
    let name: StaticString = "VTIMEZONE"
    return nameHash(name.utf8Start, name.utf8CodeUnitCount)
}()

/// The property lines the pre-filter cares about.
private enum PropertyKind {
    case dtstart, dtend, duration, rrule, exdate, recurrenceID, keep

    static func of(_ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int) -> PropertyKind? {
        func named(_ name: StaticString) -> Bool {
            let n = name.utf8Start
            let count = name.utf8CodeUnitCount
            guard to - from > count else { return false }
            for i in 0..<count where upper(base[from + i]) != n[i] { return false }
            let after = base[from + count]
            return after == 0x3A || after == 0x3B
        }
        switch upper(base[from]) {
        case 0x44: // D
            if named("DTSTART") { return .dtstart }
            if named("DTEND") { return .dtend }
            if named("DURATION") { return .duration }
        case 0x52: // R
            if named("RRULE") { return .rrule }
            if named("RDATE") { return .keep }
            if named("RECURRENCE-ID") { return .recurrenceID }
        case 0x45: // E
            if named("EXDATE") { return .exdate }
            if named("EXRULE") { return .keep }
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

/// What the pre-filter needs of an RRULE: how far its instances can go.
private struct RuleValue {
    var frequency: Int64 = 0
    var until: TimeValue?
    var count: Int64?
    var interval: Int64 = 1
    /// Only FREQ/COUNT/INTERVAL/WKST, plus plain BYDAY on a weekly rule: one or more
    /// instances in every period, so COUNT bounds the last one.
    var onePerPeriod = true
    /// No BY parts at all.
    var plain = true

    /// For plain MONTHLY and YEARLY rules, the months between instances.
    var monthStep: Int? {
        guard plain else { return nil }
        if frequency == 31 * 86_400 { return Int(interval) }
        if frequency == 366 * 86_400 { return 12 * Int(interval) }
        return nil
    }

    /// For plain DAILY and WEEKLY rules, the exact step between instances in seconds
    /// of wall-clock time: instances are DTSTART plus whole steps.
    var period: Int64? {
        guard plain, frequency == 86_400 || frequency == 7 * 86_400 else { return nil }
        return frequency * interval
    }

    init?(_ v: UnsafeBufferPointer<UInt8>) {
        // Strict: anything libical might reject (and then drop with a warning the full
        // parse prints) is not judged here, so the event is kept.
        let text = String(decoding: v, as: UTF8.self).trimmingCharacters(in: .whitespaces).uppercased()
        var byDay = false
        var seen: Set<String> = []
        for part in text.split(separator: ";", omittingEmptySubsequences: false) {
            let kv = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard kv.count == 2, !kv[1].isEmpty, seen.insert(kv[0]).inserted else { return nil }
            switch kv[0] {
            case "FREQ":
                let seconds: [String: Int64] = ["SECONDLY": 1, "MINUTELY": 60, "HOURLY": 3600, "DAILY": 86_400,
                                                "WEEKLY": 7 * 86_400, "MONTHLY": 31 * 86_400, "YEARLY": 366 * 86_400]
                guard let f = seconds[kv[1]] else { return nil }
                frequency = f
            case "UNTIL":
                guard let t = kv[1].utf8.withContiguousStorageIfAvailable({ TimeValue($0) }) ?? nil else { return nil }
                until = t
            case "COUNT":
                guard let c = Int64(kv[1]), c >= 1, c < 100_000_000 else { return nil }
                count = c
            case "INTERVAL":
                guard let i = Int64(kv[1]), i >= 1, i < 100_000 else { return nil }
                interval = i
            case "WKST":
                guard RuleValue.days.contains(Substring(kv[1])) else { return nil }
            case "BYDAY":
                byDay = true
                plain = false
                for token in kv[1].split(separator: ",", omittingEmptySubsequences: false) {
                    guard token.count >= 2, RuleValue.days.contains(token.suffix(2)) else { return nil }
                    let ordinal = token.dropLast(2)
                    if !ordinal.isEmpty {
                        onePerPeriod = false
                        guard let n = Int(ordinal), n != 0, abs(n) <= 53 else { return nil }
                    }
                }
            default:
                guard let range = RuleValue.byRanges[kv[0]] else { return nil }
                for token in kv[1].split(separator: ",", omittingEmptySubsequences: false) {
                    let signed = ["BYMONTHDAY", "BYYEARDAY", "BYWEEKNO", "BYSETPOS"].contains(kv[0])
                    guard let n = Int(token), range.contains(abs(n)), n >= 0 || signed, !(signed && n == 0) else { return nil }
                }
                onePerPeriod = false
                plain = false
            }
        }
        guard frequency > 0, !(count != nil && until != nil) else { return nil }
        if byDay && frequency != 7 * 86_400 { onePerPeriod = false }
    }

    private static let days: Set<Substring> = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
    private static let byRanges: [String: ClosedRange<Int>] = [
        "BYSECOND": 0...60, "BYMINUTE": 0...59, "BYHOUR": 0...23, "BYMONTHDAY": 1...31,
        "BYYEARDAY": 1...366, "BYWEEKNO": 1...53, "BYMONTH": 1...12, "BYSETPOS": 1...366,
    ]

    /// The latest start any instance can have (same clock as DTSTART's value), or nil.
    func lastStart(from start: TimeValue) -> Int64? {
        if let until {
            return until.seconds + (until.isDate ? 86_400 : 0) + (until.utc == start.utc ? 0 : ICalPreFilter.margin)
        }
        guard let count, onePerPeriod else { return nil }
        let f = CivilDateTime(utcSeconds: start.seconds)
        if frequency == 31 * 86_400 && f.day > 28 { return nil }
        if frequency == 366 * 86_400 && f.month == 2 && f.day == 29 { return nil }
        return start.seconds + (count + 1) * interval * frequency
    }
}
