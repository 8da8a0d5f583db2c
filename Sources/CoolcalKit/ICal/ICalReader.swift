import CLibical
import Foundation

/// Reads iCalendar text through libical into plain Swift values.
public enum ICalReader {
    /// Parses a whole calendar file. Empty (or blank) text is an empty calendar;
    /// anything libical cannot make a calendar of is an `ICalError` naming `file`.
    /// With a `window`, events that provably cannot reach it are dropped before
    /// libical sees them (`ICalPreFilter`); the answers for that window are the same.
    public static func read(_ input: Data, file: String, window: TimeWindow? = nil) throws -> ICalCalendar {
        var shape = InputShape()
        input.withUnsafeBytes { shape.see($0) }
        guard try shape.check(file: file) else { return ICalCalendar(zones: ZoneBook()) }
        return try parse(window.map { ICalPreFilter.filter(input, window: $0) } ?? input, file: file)
    }

    /// Streams a calendar file through the pre-filter in pieces, so that a large file
    /// is never whole in memory; only what may reach `window` is kept and parsed.
    public static func read(contentsOf path: String, window: TimeWindow) throws -> ICalCalendar {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw InputFileError(kind: errno == ENOENT ? .missing : .unreadable, path: path,
                                 reason: errno == ENOENT ? "no such file or directory" : "cannot open for reading: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let size = 1 << 22
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var filter = ICalPreFilter(window: window)
        var shape = InputShape()
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, size)
            if n < 0 {
                if errno == EINTR { continue }
                throw InputFileError(kind: .unreadable, path: path, reason: "read error: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
            shape.see(chunk)
            filter.feed(chunk)
        }
        guard try shape.check(file: path) else { return ICalCalendar(zones: ZoneBook()) }
        guard let kept = filter.finish() else {
            // Something the filter cannot bound (a series moved by RANGE=THISANDFUTURE,
            // a property name cut by a fold): parse the whole file.
            var info = stat()
            if fstat(fd, &info) == 0, Int(info.st_size) > maxParseBytes {
                throw ICalError(file: path, message: "too large to read whole (\(Int(info.st_size) >> 20) MiB; at most \(maxParseBytes >> 20) MiB)")
            }
            return try parse(try InputFile.read(path), file: path)
        }
        return try parse(kept, file: path)
    }

    /// What the first bytes and any NUL say about a file, gathered piece by piece.
    private struct InputShape {
        var hasNUL = false
        var sawText = false
        var head: [UInt8] = []
        /// Lines longer than this make libical slow (it grows its line buffer step by
        /// step); iCalendar folds long values into 75-octet lines anyway.
        static let maxLine = 1 << 20
        var line = 1
        var lineLength = 0
        var longLine: Int?
        /// Components nested deeper than this are refused: real calendars nest four
        /// deep (VCALENDAR, VTIMEZONE, STANDARD; VEVENT, VALARM), and libical's tree
        /// walks recurse.
        static let maxDepth = 100
        var depth = 0
        var deepLine: Int?
        /// The current line's first bytes (at most 6, upper-cased, packed big-end
        /// first), enough to see `BEGIN:` and `END:` without allocating per line.
        var head6: UInt64 = 0
        var headCount = 0
        static let begin = InputShape.packed("BEGIN:")
        static let end = InputShape.packed("END:")

        static func packed(_ text: String) -> UInt64 {
            text.utf8.reduce(0) { $0 << 8 | UInt64($1) }
        }

        mutating func see(_ chunk: UnsafeRawBufferPointer) {
            guard let base = chunk.baseAddress else { return }
            if longLine == nil {
                var at = 0
                while at < chunk.count {
                    let nl = memchr(base + at, 0x0A, chunk.count - at)
                    let end = nl.map { base.distance(to: UnsafeRawPointer($0)) } ?? chunk.count
                    if headCount == 0 && at < end {
                        // Only lines starting with B or E can be BEGIN: or END: (most are not).
                        let first = base.load(fromByteOffset: at, as: UInt8.self) | 0x20
                        if first != 0x62 && first != 0x65 { headCount = 6 }
                    }
                    var i = at
                    while headCount < 6 && i < end {
                        let byte = base.load(fromByteOffset: i, as: UInt8.self)
                        head6 = head6 << 8 | UInt64(byte >= 0x61 && byte <= 0x7A ? byte - 32 : byte)
                        headCount += 1
                        i += 1
                    }
                    lineLength += end - at
                    guard nl != nil else { break }
                    if lineLength > InputShape.maxLine { break }
                    endOfLine()
                    line += 1
                    lineLength = 0
                    at = end + 1
                }
                if lineLength > InputShape.maxLine { longLine = line }
            }
            if !hasNUL && memchr(base, 0, chunk.count) != nil { hasNUL = true }
            if !sawText { sawText = chunk.contains { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D } }
            if head.count < 64 { head += chunk.prefix(64 - head.count) }
        }

        /// Counts `BEGIN:`/`END:` lines (any case) for the nesting depth.
        private mutating func endOfLine() {
            defer { head6 = 0; headCount = 0 }
            guard deepLine == nil else { return }
            if headCount == 6 && head6 == InputShape.begin {
                depth += 1
                if depth > InputShape.maxDepth { deepLine = line }
            } else if headCount >= 4 && head6 >> UInt64(8 * (headCount - 4)) == InputShape.end {
                depth = max(0, depth - 1)
            }
        }

        /// Throws for files that are not iCalendar; false for blank ones (an empty calendar).
        func check(file: String) throws -> Bool {
            if hasNUL {
                throw ICalError(file: file, message: "not an iCalendar file (it contains NUL bytes: binary or UTF-16?)")
            }
            if let longLine {
                throw ICalError(file: file, message: "line \(longLine) is longer than 1 MiB (iCalendar folds long values into short lines)")
            }
            if let deepLine {
                throw ICalError(file: file, message: "line \(deepLine): components are nested more than \(InputShape.maxDepth) deep")
            }
            guard sawText else { return false }
            var text = head
            if text.starts(with: [0xEF, 0xBB, 0xBF]) { text.removeFirst(3) }
            let line = String(decoding: text.prefix(while: { $0 != 0x0A && $0 != 0x0D }), as: UTF8.self)
            guard line.trimmingCharacters(in: .whitespaces).uppercased().hasPrefix("BEGIN:") else {
                throw ICalError(file: file, message: "not an iCalendar file (line 1 is not BEGIN:VCALENDAR)")
            }
            return true
        }
    }

    /// Hands checked text to libical.
    /// libical is never handed more than this: it needs about 30 times the text in
    /// memory (620 MB for a 20 MB calendar) and time to match.
    public static let maxParseBytes = 64 << 20

    private static func parse(_ data: Data, file: String) throws -> ICalCalendar {
        guard data.count <= maxParseBytes else {
            throw ICalError(file: file, message: "too large to read whole (\(data.count >> 20) MiB; at most \(maxParseBytes >> 20) MiB)")
        }
        return try calendar(from: try tree(data, file: file), text: data, file: file)
    }

    /// libical's tree of checked text (the caller owns it).
    static func tree(_ data: Data, file: String) throws -> OwnedComponent {
        let skip = data.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        // libical wants a NUL-terminated string: one copy, with the BOM dropped.
        let parsed = data.withUnsafeBytes { raw -> OwnedComponent? in
            let count = raw.count - skip
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: count + 1)
            defer { buffer.deallocate() }
            if count > 0, let base = raw.baseAddress { memcpy(buffer, base + skip, count) }
            buffer[count] = 0
            return OwnedComponent.parse(buffer)
        }
        guard let root = parsed else {
            throw ICalError(file: file, message: unreadableReason(data))
        }
        return root
    }

    /// Why libical gave up: a component still open at the end of the file (the outermost,
    /// as the file was cut), else the first component that the END of an enclosing one
    /// left unclosed. (No line numbers: `data` may be what the pre-filter kept.)
    static func unreadableReason(_ data: Data) -> String {
        var open: [String] = []
        // How many of each name are open: an END that closes nothing costs no search, so
        // the whole scan stays linear however the file nests.
        var openCount: [String: Int] = [:]
        var unclosed: (name: String, closedBy: String)?
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let upper = line.uppercased()
            if upper.hasPrefix("BEGIN:") {
                let name = upper.dropFirst(6).trimmingCharacters(in: .whitespaces)
                open.append(name)
                openCount[name, default: 0] += 1
            } else if upper.hasPrefix("END:") {
                // END:X closes up to its BEGIN:X; an END without one is ignored.
                let name = upper.dropFirst(4).trimmingCharacters(in: .whitespaces)
                guard openCount[name, default: 0] > 0, let match = open.lastIndex(of: name) else { continue }
                if unclosed == nil, match + 1 < open.count { unclosed = (open[match + 1], name) }
                for closed in open[match...] { openCount[closed, default: 1] -= 1 }
                open.removeSubrange(match...)
            }
        }
        if let outer = open.first {
            return "not a readable iCalendar file: truncated (BEGIN:\(outer) has no END:\(outer))"
        }
        if let inner = unclosed {
            return "not a readable iCalendar file: BEGIN:\(inner.name) has no END:\(inner.name) before END:\(inner.closedBy)"
        }
        return "not a readable iCalendar file (libical could not parse it)"
    }

    private static func calendar(from root: OwnedComponent, text: Data, file: String) throws -> ICalCalendar {
        let vcalendars: [OpaquePointer]
        var looseEvents: [OpaquePointer] = []
        switch icalcomponent_isa(root.pointer) {
        case ICAL_VCALENDAR_COMPONENT:
            vcalendars = [root.pointer]
        case ICAL_XROOT_COMPONENT:
            vcalendars = ICalWalk.children(of: root.pointer, kind: ICAL_VCALENDAR_COMPONENT)
            looseEvents = ICalWalk.children(of: root.pointer, kind: ICAL_VEVENT_COMPONENT)
        case ICAL_VEVENT_COMPONENT:
            vcalendars = []
            looseEvents = [root.pointer]
        default:
            throw ICalError(file: file, message: "not an iCalendar file (no VCALENDAR)")
        }
        if vcalendars.isEmpty && looseEvents.isEmpty {
            throw ICalError(file: file, message: "not an iCalendar file (no VCALENDAR)")
        }
        var zones: [String: ZoneRules] = [:]
        // Only a file with zones is searched for malformed offsets.
        var malformed: Set<String>?
        for vcal in vcalendars {
            for vtz in ICalWalk.children(of: vcal, kind: ICAL_VTIMEZONE_COMPONENT) {
                if malformed == nil { malformed = zonesWithMalformedOffsets(in: text) }
                guard plausible(vtz, malformed: malformed ?? []) else { continue }
                if let rules = VTimezoneRules(vtimezone: vtz), zones[rules.identifier] == nil {
                    zones[rules.identifier] = rules
                }
            }
        }
        var result = ICalCalendar(zones: ZoneBook(fileZones: zones))
        for vcal in vcalendars {
            readCalendarProperties(vcal, into: &result)
            for vevent in ICalWalk.children(of: vcal, kind: ICAL_VEVENT_COMPONENT) {
                result.events.append(ICalEventReader.event(from: vevent))
            }
        }
        result.events += looseEvents.map(ICalEventReader.event(from:))
        return result
    }

    /// A VTIMEZONE libical can evaluate quickly and sanely: at least one observance,
    /// every offset within ±18 h and written as one (`malformed` holds the TZIDs of
    /// zones with an offset that is not), rules only yearly (a `FREQ=SECONDLY` observance
    /// makes libical expand forever). Others are ignored, so their TZID is looked up in
    /// the system database or reported as unknown — never silently used.
    private static func plausible(_ vtz: OpaquePointer, malformed: Set<String>) -> Bool {
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

    /// The TZIDs of the VTIMEZONEs in `text` with a TZOFFSETFROM or TZOFFSETTO that is
    /// not a UTC offset (`±HHMM` or `±HHMMSS`). libical reads such a value as a number as
    /// far as it goes (`garbage` is +00:00, `+01` one minute) and leaves no trace of it,
    /// so the text is the only witness.
    static func zonesWithMalformedOffsets(in text: Data) -> Set<String> {
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
        forEachUnfoldedLine(in: text, startingWith: { ($0 & 0xDF) == 0x42 || ($0 & 0xDF) == 0x45 || ($0 & 0xDF) == 0x54 }) { bytes in
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
        let chars = Array(value.utf8)
        guard chars.count == 5 || chars.count == 7, chars[0] == 0x2B || chars[0] == 0x2D,
              chars.dropFirst().allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        let number = { (at: Int) in Int(chars[at] - 0x30) * 10 + Int(chars[at + 1] - 0x30) }
        return number(3) < 60 && (chars.count == 5 || number(5) < 60)
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

    /// Calls `body` with each content line of `text` that starts with a byte `wanted`
    /// accepts, unfolded (RFC 5545 §3.1: a line break followed by a space or tab continues
    /// the line); CRLF, LF and CR all end a line. Other lines are only skipped over.
    private static func forEachUnfoldedLine(in text: Data, startingWith wanted: (UInt8) -> Bool,
                                            _ body: ([UInt8]) -> Void) {
        text.withUnsafeBytes { bytes in
            let n = bytes.count
            var line: [UInt8] = []
            var inLine = false, keep = false
            var start = 0
            while start < n {
                var end = start
                while end < n && bytes[end] != 0x0A && bytes[end] != 0x0D { end += 1 }
                if !inLine {
                    inLine = true
                    keep = end > start && wanted(bytes[start])
                }
                if keep { line.append(contentsOf: bytes[start..<end]) }
                var next = end + 1
                if end < n && bytes[end] == 0x0D && next < n && bytes[next] == 0x0A { next += 1 }
                if next < n && (bytes[next] == 0x20 || bytes[next] == 0x09) {
                    start = next + 1
                    continue
                }
                if keep { body(line) }
                line.removeAll(keepingCapacity: true)
                inLine = false
                start = next
            }
            if inLine && keep { body(line) }
        }
    }

    private static func readCalendarProperties(_ vcal: OpaquePointer, into calendar: inout ICalCalendar) {
        for prop in ICalWalk.properties(of: vcal) {
            guard let name = ICalWalk.copy(icalproperty_get_property_name(prop))?.uppercased() else { continue }
            let value = ICalWalk.copy(icalproperty_get_value_as_string(prop))
            switch name {
            case "X-WR-CALNAME", "NAME":
                if calendar.name == nil { calendar.name = value }
            case "METHOD":
                if calendar.method == nil { calendar.method = value?.trimmingCharacters(in: .whitespaces).uppercased() }
            case "COLOR", "X-APPLE-CALENDAR-COLOR":
                if calendar.color == nil { calendar.color = value }
            default:
                break
            }
        }
    }
}
