import Foundation

/// What the user set on a stored event that the organizer's update must not wipe (RFC
/// 5546 §2.1.5, §3.2.2: the organizer owns the event, each attendee its own alarms and
/// free/busy choice). For a stored copy with no record of what the organizer sent, the
/// user's are its VALARMs and TRANSP (the `X-MICROSOFT-CDO-BUSYSTATUS` coolcal writes is
/// written again from my answer); a newly arriving override takes TRANSP and the VALARMs
/// from the series. A VALARM the update itself carries, byte for byte, is not doubled.
package enum UserData {
    /// The user's lines of one stored VEVENT: property lines (folds kept) and VALARM blocks.
    package struct Kept: Equatable {
        var properties: [[String]] = []
        var alarms: [[String]] = []
        var isEmpty: Bool { properties.isEmpty && alarms.isEmpty }
    }

    static let owned = ["TRANSP"]

    /// The logical lines of a text (each its physical lines, folds kept, without line ends).
    static func logical(_ text: String) -> [[String]] {
        var out: [[String]] = []
        // "\r\n" is one Character: split on the scalars.
        for raw in text.unicodeScalars.split(separator: "\n") {
            let line = String(String.UnicodeScalarView(raw.last == "\r" ? raw.dropLast() : raw[...]))
            if (line.hasPrefix(" ") || line.hasPrefix("\t")), !out.isEmpty { out[out.count - 1].append(line) } else { out.append([line]) }
        }
        return out
    }

    static func name(_ line: [String]) -> String {
        String((line.first ?? "").prefix { $0 != ":" && $0 != ";" }).uppercased()
    }

    /// The user's lines of a stored VEVENT block: `properties` names what to take
    /// (`owned`; none to take the VALARMs alone).
    package static func kept(in block: String, properties: [String] = owned) -> Kept {
        var kept = Kept()
        var depth = 0
        var alarm: [String]?
        for line in logical(block) {
            let name = name(line)
            let value = (line.first ?? "").drop { $0 != ":" }.dropFirst().uppercased()
            if name == "BEGIN" {
                depth += 1
                if depth == 2 && value == "VALARM" { alarm = [] }
            }
            if alarm != nil { alarm?.append(contentsOf: line) } else if depth == 1 && properties.contains(name) { kept.properties.append(line) }
            if name == "END" {
                if depth == 2, value == "VALARM", let done = alarm { kept.alarms.append(done); alarm = nil }
                depth -= 1
            }
        }
        return kept
    }

    /// `body` (one VEVENT as the update writes it) with the kept lines in: a kept property
    /// replaces the body's of that name; kept VALARMs go before `END:VEVENT`, but for one
    /// the body already has.
    package static func carry(_ kept: Kept, into body: String) -> String {
        guard !kept.isEmpty else { return body }
        let ending = body.contains("\r\n") ? "\r\n" : "\n"
        let replaced = Set(kept.properties.map(name))
        let theirs = kept.alarms.isEmpty ? [] : self.kept(in: body, properties: []).alarms
        var lines: [[String]] = []
        var placed: Set<String> = []
        var depth = 0
        for line in logical(body) {
            let name = name(line)
            if name == "BEGIN" { depth += 1 }
            if name == "END" && depth == 1 {
                lines += kept.properties.filter { !placed.contains(Self.name($0)) }
                lines += kept.alarms.filter { !theirs.contains($0) }
            }
            if name == "END" { depth -= 1 }
            if depth == 1 && name != "BEGIN" && replaced.contains(name) {
                // In the body's own place, so that an unchanged value leaves the bytes as they were.
                if placed.insert(name).inserted { lines += kept.properties.filter { Self.name($0) == name } }
                continue
            }
            lines.append(line)
        }
        return lines.map { $0.joined(separator: ending) + ending }.joined()
    }
}
