import Foundation
import CoolcalModel
import CoolcalScan

/// Caps on what one content line and one component may hold, checked on the bytes
/// before libical sees them: libical's parser is superlinear in a property's
/// parameters (20,000 take 3 s, 100,000 take 86 s, on a line well under 1 MiB).
/// A component over a cap is cut out of the text — the outermost one below the
/// VCALENDAR, so a VALARM's takes its VEVENT along — with a warning naming the
/// line; a VCALENDAR's own property over a cap refuses the file.
package enum ParseCaps {
    /// Parameters of one property (unfolded): real ones have a handful.
    package static let maxParameters = 1_000
    /// Properties of one component (not counting its components): a meeting with
    /// thousands of attendees stays well within.
    package static let maxProperties = 10_000

    package struct Finding {
        /// The 1-based line (of the text scanned) where the cap was passed.
        package var line: Int
        package var what: String
        /// The component cut out; nil when the property is the calendar's own.
        package var component: String?
    }

    /// nil when nothing is over a cap; else the text without the components over one,
    /// and what was found, in order.
    package static func overCaps(_ data: Data) -> (text: Data, findings: [Finding])? {
        var scan = CapScan()
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            var pos = 0
            while pos < raw.count {
                let nl = memchr(base + pos, 0x0A, raw.count - pos)
                let end = nl.map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) + 1 } ?? raw.count
                scan.line(base + pos, count: end - pos, at: pos)
                pos = end
            }
            scan.finish(at: raw.count)
        }
        guard !scan.findings.isEmpty else { return nil }
        var text = Data()
        var at = 0
        for cut in scan.cuts {
            text += data[data.startIndex + at ..< data.startIndex + cut.lowerBound]
            at = cut.upperBound
        }
        text += data[(data.startIndex + at)...]
        return (text, scan.findings)
    }
}

/// The line-by-line state of `overCaps`. Not `ContentLines`: it must not allocate per
/// line, and it only reads each line's name and parameters.
private struct CapScan {
    var findings: [ParseCaps.Finding] = []
    var cuts: [Range<Int>] = []
    private var lineNumber = 0
    /// The open components: is it a VCALENDAR, and how many properties it has so far.
    private var open: [(calendar: Bool, properties: Int)] = []
    /// The outermost open component below the VCALENDARs: its depth, name, start, and
    /// whether it is over a cap.
    private var unit: (depth: Int, name: String, start: Int, over: Bool)?
    /// The logical line being read: where it started, and its parameter count so far
    /// (outside quotes, and ignoring quotes: the larger counts, whichever way libical reads it).
    private var propertyLine = 0
    private var inName = false
    private var quoted = false
    private var seenColon = false
    private var quotedCount = 0
    private var rawCount = 0

    mutating func line(_ p: UnsafePointer<UInt8>, count full: Int, at offset: Int) {
        lineNumber += 1
        var count = full
        if count > 0 && p[count - 1] == 0x0A { count -= 1 }
        if count > 0 && p[count - 1] == 0x0D { count -= 1 }
        if count > 0 && (p[0] == 0x20 || p[0] == 0x09) {
            if inName { scanName(p + 1, count - 1) }
            return
        }
        endProperty()
        guard count > 0 else { return }
        if let (begin, name) = marker(p, count) {
            if begin {
                if unit == nil && open.allSatisfy(\.calendar) && name != "VCALENDAR" {
                    unit = (open.count, name, offset, false)
                }
                open.append((name == "VCALENDAR", 0))
            } else if !open.isEmpty {
                // libical's END closes whatever is open, whatever its name.
                open.removeLast()
                if let u = unit, open.count == u.depth {
                    if u.over { cuts.append(u.start..<(offset + full)) }
                    unit = nil
                }
            }
            return
        }
        if !open.isEmpty {
            open[open.count - 1].properties += 1
            if open[open.count - 1].properties == ParseCaps.maxProperties + 1 {
                found("a component with more than \(grouped(ParseCaps.maxProperties)) properties", at: lineNumber)
            }
        }
        propertyLine = lineNumber
        inName = true
        quoted = false
        seenColon = false
        quotedCount = 0
        rawCount = 0
        scanName(p, count)
    }

    mutating func finish(at end: Int) {
        endProperty()
        if let u = unit, u.over { cuts.append(u.start..<end) }
        unit = nil
    }

    private mutating func scanName(_ p: UnsafePointer<UInt8>, _ count: Int) {
        var i = 0
        while i < count && inName {
            switch p[i] {
            case 0x22: quoted.toggle()
            case 0x3B:
                if !quoted { quotedCount += 1 }
                if !seenColon { rawCount += 1 }
            case 0x3A:
                seenColon = true
                if !quoted { inName = false }
            default: break
            }
            i += 1
        }
    }

    private mutating func endProperty() {
        guard propertyLine > 0 else { return }
        if max(quotedCount, rawCount) > ParseCaps.maxParameters {
            found("a property with more than \(grouped(ParseCaps.maxParameters)) parameters", at: propertyLine)
        }
        propertyLine = 0
        inName = false
    }

    private mutating func found(_ what: String, at line: Int) {
        if let u = unit {
            guard !u.over else { return }
            unit?.over = true
            findings.append(.init(line: line, what: what, component: u.name))
        } else {
            findings.append(.init(line: line, what: what, component: nil))
        }
    }

    /// `BEGIN`/`END` (any case, any parameters), and the upper-cased name after the colon.
    private func marker(_ p: UnsafePointer<UInt8>, _ count: Int) -> (Bool, String)? {
        let first = p[0] | 0x20
        guard first == 0x62 || first == 0x65 else { return nil }
        var nameEnd = 0
        while nameEnd < count && p[nameEnd] != 0x3A && p[nameEnd] != 0x3B { nameEnd += 1 }
        if !UnsafeBufferPointer(start: p, count: count).contains(where: { $0 >= 0x80 }) {
            return asciiMarker(p, count, nameEnd)
        }
        let name = String(decoding: UnsafeBufferPointer(start: p, count: nameEnd), as: UTF8.self)
            .trimmingCharacters(in: .whitespaces).uppercased()
        guard name == "BEGIN" || name == "END" else { return nil }
        guard let colon = (nameEnd..<count).first(where: { p[$0] == 0x3A }) else { return (name == "BEGIN", "") }
        let value = String(decoding: UnsafeBufferPointer(start: p + colon + 1, count: count - colon - 1), as: UTF8.self)
        return (name == "BEGIN", value.trimmingCharacters(in: .whitespaces).uppercased())
    }

    /// `marker` for an ASCII line: the same, where trimming white space and upper-casing
    /// are ASCII's (spaces and tabs; a–z), without building Strings.
    private func asciiMarker(_ p: UnsafePointer<UInt8>, _ count: Int, _ nameEnd: Int) -> (Bool, String)? {
        func trimmed(_ from: Int, _ to: Int) -> (Int, Int) {
            var a = from, b = to
            while a < b && (p[a] == 0x20 || p[a] == 0x09) { a += 1 }
            while b > a && (p[b - 1] == 0x20 || p[b - 1] == 0x09) { b -= 1 }
            return (a, b)
        }
        let (a, b) = trimmed(0, nameEnd)
        let begin: Bool
        if b - a == 5 && ScanLine.has(p, a, 5, "BEGIN") {
            begin = true
        } else if b - a == 3 && ScanLine.has(p, a, 3, "END") {
            begin = false
        } else {
            return nil
        }
        guard let colon = (nameEnd..<count).first(where: { p[$0] == 0x3A }) else { return (begin, "") }
        let (v, w) = trimmed(colon + 1, count)
        return (begin, String(decoding: UnsafeBufferPointer(start: p + v, count: w - v).map(ContentLines.upper), as: UTF8.self))
    }

    private func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        return String(digits.enumerated().flatMap { i, c in i > 0 && (digits.count - i) % 3 == 0 ? [",", c] : [c] })
    }
}

extension ParseCaps {
    /// The text libical is given, and the warnings for what was cut out of it. Line
    /// numbers are the file's only in the whole text: a filtered read that meets a cap
    /// reads the file whole (when it may), so that both reads say the same.
    package static func capped(_ data: Data, file: String, whole: (() throws -> Data)?) throws -> (Data, [String]) {
        guard var found = overCaps(data) else { return (data, []) }
        var numbered = whole == nil
        if let whole, let all = try? whole(), all.count <= ICalReader.maxParseBytes, let inAll = overCaps(all) {
            found = inAll
            numbered = true
        }
        let at = { (f: Finding) in numbered ? "line \(f.line): " : "" }
        if let fatal = found.findings.first(where: { $0.component == nil }) {
            throw ICalError(file: file, message: "\(at(fatal))\(fatal.what)")
        }
        return (found.text, found.findings.map { "\(file): \(at($0))\($0.what); the \($0.component ?? "") it is in is skipped" })
    }
}
