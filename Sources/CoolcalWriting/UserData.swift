import Foundation

/// What the user set on a stored event that the organizer's update must not wipe (RFC
/// 5546 §2.1.5, §3.2.2: the organizer owns the event, each attendee its own alarms and
/// free/busy choice). With a record of what the organizer last sent (the hashes of its
/// lines and subcomponents as coolcal wrote them, `hashes(of:)`) that describes the
/// stored copy, the user's are every line and subcomponent not among them — but for the
/// lines that say what the meeting is, when and with whom (`organizers`). Without one
/// (stored before records were kept, or since changed to another version), the user's
/// are its VALARMs and TRANSP (the `X-MICROSOFT-CDO-BUSYSTATUS` coolcal writes is
/// written again from my answer). A newly arriving override takes the series' user data.
/// Nothing the update itself carries, byte for byte, is doubled.
package enum UserData {
    /// The user's lines of one stored VEVENT: property lines (folds kept) and
    /// subcomponents (VALARM blocks), each its physical lines.
    package struct Kept: Equatable {
        var properties: [[String]] = []
        var alarms: [[String]] = []
        var isEmpty: Bool { properties.isEmpty && alarms.isEmpty }
    }

    /// The user's without a record: besides the VALARMs.
    static let owned = ["TRANSP"]

    /// Never the user's: the event's identity and version, its times and recurrence, its
    /// people and status (the update's own say; my PARTSTAT is the answer's), and what a
    /// client stamps on every save.
    static let organizers: Set<String> = [
        "UID", "DTSTAMP", "SEQUENCE", "RECURRENCE-ID", "DTSTART", "DTEND", "DURATION", "RRULE", "RDATE", "EXDATE",
        "EXRULE", "ORGANIZER", "ATTENDEE", "STATUS", "CREATED", "LAST-MODIFIED",
    ]

    /// Properties a VEVENT has at most once (RFC 5545 §3.6.1, RFC 7986) that say how the
    /// event stands for me, not what it is: the user's replaces the update's.
    static let single: Set<String> = [
        "TRANSP", "COLOR", "X-MICROSOFT-CDO-BUSYSTATUS", "X-MICROSOFT-CDO-INTENDEDSTATUS",
    ]

    /// Once-only properties that say what the event is (RFC 5546 §2.1.5: the organizer's
    /// word): a user's own line stays only while the update carries none of that name; an
    /// update that does says the organizer's, which the user must see (a new LOCATION).
    static let described: Set<String> = ["CLASS", "DESCRIPTION", "GEO", "LOCATION", "PRIORITY", "SUMMARY", "URL"]

    /// One part of a VEVENT block: a property line of its own, or a subcomponent whole.
    struct Part {
        var name: String
        var lines: [String]
        var isComponent: Bool
        var hash: String { EventHash.of(Array(lines.joined(separator: "\r\n").utf8)) }
    }

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

    /// The parts of one VEVENT block, in order (its BEGIN and END lines are none).
    static func parts(_ block: String) -> [Part] {
        var out: [Part] = []
        var depth = 0
        var component: Part?
        for line in logical(block) {
            let name = name(line)
            if name == "BEGIN" {
                depth += 1
                let value = (line.first ?? "").drop { $0 != ":" }.dropFirst().uppercased()
                if depth == 2 { component = Part(name: value, lines: [], isComponent: true) }
            }
            if component != nil {
                component?.lines.append(contentsOf: line)
            } else if depth == 1 && name != "BEGIN" && name != "END" {
                out.append(Part(name: name, lines: line, isComponent: false))
            }
            if name == "END" {
                if depth == 2, let done = component { out.append(done); component = nil }
                depth -= 1
            }
        }
        return out
    }

    /// What the state records of one VEVENT as the update writes it: the hash of each
    /// line (unfolded) and of each subcomponent.
    package static func hashes(of body: String) -> Set<String> { Set(parts(body).map(\.hash)) }

    /// Whether `record` is of the stored copy's version: its DTSTAMP (and SEQUENCE) lines are among it.
    static func describes(_ record: Set<String>, _ parts: [Part]) -> Bool {
        let version = parts.filter { !$0.isComponent && ($0.name == "DTSTAMP" || $0.name == "SEQUENCE") }
        return version.contains { $0.name == "DTSTAMP" } && version.allSatisfy { record.contains($0.hash) }
    }

    /// The user's lines of a stored VEVENT block, by `record` (what the organizer last
    /// sent of it) when that describes it, else by the rule for copies without one.
    package static func kept(in block: String, record: Set<String>?) -> Kept {
        let parts = parts(block)
        var kept = Kept()
        guard let record, describes(record, parts) else {
            for part in parts {
                if part.isComponent { if part.name == "VALARM" { kept.alarms.append(part.lines) } } else if owned.contains(part.name) {
                    kept.properties.append(part.lines)
                }
            }
            return kept
        }
        for part in parts where !record.contains(part.hash) {
            if part.isComponent { kept.alarms.append(part.lines) } else if !organizers.contains(part.name) { kept.properties.append(part.lines) }
        }
        return kept
    }

    /// `body` (one VEVENT as the update writes it) with the kept lines in: a kept property
    /// of a `single` name replaces the body's of that name, in its place; another goes
    /// before `END:VEVENT`, as do the kept subcomponents — but for one the body already has.
    package static func carry(_ kept: Kept, into body: String) -> String {
        guard !kept.isEmpty else { return body }
        let ending = body.contains("\r\n") ? "\r\n" : "\n"
        let theirs = parts(body)
        let present = theirs.filter { !$0.isComponent }.map(\.lines)
        let sent = Set(present.map(name))
        var kept = kept
        kept.properties.removeAll { described.contains(name($0)) && sent.contains(name($0)) }
        let replaced = Set(kept.properties.map(name)).intersection(single)
        let components = theirs.filter(\.isComponent).map(\.lines)
        var lines: [[String]] = []
        var placed: Set<String> = []
        var depth = 0
        for line in logical(body) {
            let name = name(line)
            if name == "BEGIN" { depth += 1 }
            if name == "END" && depth == 1 {
                lines += kept.properties.filter { replaced.contains(Self.name($0)) ? !placed.contains(Self.name($0)) : !present.contains($0) }
                lines += kept.alarms.filter { !components.contains($0) }
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
