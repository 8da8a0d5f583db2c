import Foundation
import CoolcalModel

/// Whom one calendar file makes known (issue 43, "known, narrowly"), read per VEVENT as
/// text — content lines, nothing parsed by libical, one event's people in memory at a time:
/// - the ORGANIZER of an event that names one of `me` as ATTENDEE with PARTSTAT ACCEPTED or
///   TENTATIVE (no PARTSTAT is NEEDS-ACTION: not known);
/// - every ATTENDEE of an event whose ORGANIZER is one of `me`, as I listed them: not one
///   with DELEGATED-FROM (a delegate a reply added).
/// An event that names none of `me` makes nobody known; nor do the co-attendees of other
/// people's meetings; nor is one of `me` ever known. Lines of a component inside the event
/// (a VALARM's ATTENDEE is whom the alarm mails) are not the event's.
struct CalendarPeople {
    /// One found: who, why, and the event's title (its SUMMARY as written, unescaped).
    struct Found {
        var address: String
        var organised: Bool
        var title: String?
    }

    /// My addresses, normalized.
    let me: Set<String>

    init(me: [String]) {
        self.me = Set(me.map(CalendarAddress.normalized))
    }

    /// What one VEVENT said, up to its END.
    private struct Event {
        var organizer: String?
        var accepted = false
        var attendees: [String] = []
        var title: String?
    }

    /// Calls `found` with each person the file at `path` makes known (an address may come twice).
    func scan(_ path: String, _ found: (Found) -> Void) {
        guard let data = FileManager.default.contents(atPath: path) else { return }
        var event: Event?
        // Components open inside the current VEVENT (a VALARM): their lines are not its.
        var nested = 0
        ContentLines.forEachUnfolded(in: data, startingWith: { [0x42, 0x45, 0x4F, 0x41, 0x53].contains(ContentLines.upper($0)) }) { bytes in
            let name = ContentLines.propertyName(bytes)
            if name == Self.begin || name == Self.end {
                let component = String(decoding: Self.value(bytes).map(ContentLines.upper), as: UTF8.self)
                    .trimmingCharacters(in: .whitespaces)
                if name == Self.begin {
                    if event != nil { nested += 1 } else if component == "VEVENT" { event = Event() }
                } else if nested > 0 {
                    nested -= 1
                } else if let done = event {
                    event = nil
                    finish(done, found)
                }
                return
            }
            guard nested == 0, event != nil else { return }
            if name == Self.summary {
                event?.title = Self.unescaped(Self.value(bytes))
                return
            }
            guard name == Self.organizer || name == Self.attendee else { return }
            let parameters = Self.parameters(bytes)
            let address = CalendarAddress.normalized(String(decoding: Self.value(bytes), as: UTF8.self))
            guard address.contains("@") else { return }
            if name == Self.organizer {
                event?.organizer = address
            } else if me.contains(address) {
                let partstat = parameters["PARTSTAT"]?.uppercased() ?? "NEEDS-ACTION"
                if partstat == "ACCEPTED" || partstat == "TENTATIVE" { event?.accepted = true }
            } else if parameters["DELEGATED-FROM"] == nil {
                event?.attendees.append(address)
            }
        }
    }

    private func finish(_ event: Event, _ found: (Found) -> Void) {
        guard let organizer = event.organizer else { return }
        if me.contains(organizer) {
            for attendee in event.attendees { found(Found(address: attendee, organised: true, title: event.title)) }
        } else if event.accepted {
            found(Found(address: organizer, organised: false, title: event.title))
        }
    }

    private static let begin = Array("BEGIN".utf8)
    private static let end = Array("END".utf8)
    private static let organizer = Array("ORGANIZER".utf8)
    private static let attendee = Array("ATTENDEE".utf8)
    private static let summary = Array("SUMMARY".utf8)

    /// Where the value starts: after the first colon outside quoted parameter values.
    private static func colon(_ bytes: [UInt8]) -> Int? {
        var quoted = false
        return bytes.firstIndex { b in
            if b == 0x22 { quoted.toggle() }
            return b == 0x3A && !quoted
        }
    }

    private static func value(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        colon(bytes).map { bytes[($0 + 1)...] } ?? []
    }

    /// The parameters, by upper-cased name, their values without quotes (the first of a name wins).
    private static func parameters(_ bytes: [UInt8]) -> [String: String] {
        let head = bytes[..<(colon(bytes) ?? bytes.count)]
        var result: [String: String] = [:]
        var quoted = false
        var pieces: [ArraySlice<UInt8>] = []
        var start = head.startIndex
        for i in head.indices {
            if head[i] == 0x22 { quoted.toggle() }
            if head[i] == 0x3B && !quoted {
                pieces.append(head[start..<i])
                start = i + 1
            }
        }
        pieces.append(head[start...])
        for piece in pieces.dropFirst() {
            guard let equals = piece.firstIndex(of: 0x3D) else { continue }
            let name = String(decoding: piece[..<equals].map(ContentLines.upper), as: UTF8.self).trimmingCharacters(in: .whitespaces)
            let value = String(decoding: piece[(equals + 1)...].filter { $0 != 0x22 }, as: UTF8.self)
            if result[name] == nil { result[name] = value }
        }
        return result
    }

    /// A TEXT value with its escapes undone (`\,` `\;` `\\` `\n`).
    private static func unescaped(_ bytes: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        var escaped = false
        for b in bytes {
            if escaped {
                out.append(b == 0x6E || b == 0x4E ? 0x0A : b)
                escaped = false
            } else if b == 0x5C {
                escaped = true
            } else {
                out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
