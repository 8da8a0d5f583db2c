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
    /// The same, as bytes: what each line's address is compared with, unconverted.
    private let meBytes: Set<[UInt8]>

    init(me: [String]) {
        self.me = Set(me.map(CalendarAddress.normalized))
        meBytes = Set(self.me.map { Array($0.utf8) })
    }

    /// What one VEVENT said, up to its END.
    private struct Event {
        var organizer: [UInt8]?
        var accepted = false
        var attendees: [[UInt8]] = []
        var title: String?
    }

    /// Calls `found` with each person the file at `path` makes known (an address may come twice).
    func scan(_ path: String, _ found: (Found) -> Void) {
        guard let data = FileManager.default.contents(atPath: path) else { return }
        scan(data: data, found)
    }

    /// The same for the bytes of a calendar (a CalDAV resource's).
    func scan(data: Data, _ found: (Found) -> Void) {
        var event: Event?
        // Components open inside the current VEVENT (a VALARM): their lines are not its.
        var nested = 0
        ContentLines.forEachUnfolded(in: data, startingWith: Self.wanted) { bytes in
            let name = ContentLines.propertyName(bytes)
            let colon = Self.colon(bytes)
            let value = colon.map { bytes[($0 + 1)...] } ?? []
            if name == Self.begin || name == Self.end {
                let component = String(decoding: value.map(ContentLines.upper), as: UTF8.self).trimmingCharacters(in: .whitespaces)
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
                event?.title = Self.unescaped(value)
                return
            }
            guard name == Self.organizer || name == Self.attendee else { return }
            let address = Self.address(value)
            guard address.contains(0x40) else { return }
            let head = bytes[..<(colon ?? bytes.count)]
            if name == Self.organizer {
                event?.organizer = address
            } else if meBytes.contains(address) {
                // No PARTSTAT is NEEDS-ACTION.
                if let partstat = Self.parameter(Self.partstat, in: head),
                   Self.equalsIgnoringCase(partstat, Self.accepted) || Self.equalsIgnoringCase(partstat, Self.tentative) {
                    event?.accepted = true
                }
            } else if Self.parameter(Self.delegatedFrom, in: head) == nil {
                event?.attendees.append(address)
            }
        }
    }

    private func finish(_ event: Event, _ found: (Found) -> Void) {
        guard let organizer = event.organizer else { return }
        if meBytes.contains(organizer) {
            for attendee in event.attendees {
                found(Found(address: String(decoding: attendee, as: UTF8.self), organised: true, title: event.title))
            }
        } else if event.accepted {
            found(Found(address: String(decoding: organizer, as: UTF8.self), organised: false, title: event.title))
        }
    }

    /// BEGIN, END, ORGANIZER, ATTENDEE, SUMMARY: the only lines kept (by their first byte).
    private static func wanted(_ first: UInt8) -> Bool {
        switch ContentLines.upper(first) {
        case 0x42, 0x45, 0x4F, 0x41, 0x53: return true
        default: return false
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

    private static let partstat = Array("PARTSTAT".utf8)
    private static let delegatedFrom = Array("DELEGATED-FROM".utf8)
    private static let accepted = Array("ACCEPTED".utf8)
    private static let tentative = Array("TENTATIVE".utf8)
    private static let mailto = Array("mailto:".utf8)

    /// An address as `CalendarAddress.normalized` makes it, from the value's bytes: ASCII
    /// lower-cased, after the last `mailto:`, without blanks around it (a value with any
    /// non-ASCII byte goes through `CalendarAddress.normalized` itself).
    static func address(_ value: ArraySlice<UInt8>) -> [UInt8] {
        if value.contains(where: { $0 >= 0x80 }) {
            return Array(CalendarAddress.normalized(String(decoding: value, as: UTF8.self)).utf8)
        }
        var bytes = value.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }
        var last: Int?
        if bytes.count >= mailto.count {
            for i in stride(from: bytes.count - mailto.count, through: 0, by: -1) where bytes[i] == 0x6D && bytes[i..<(i + mailto.count)].elementsEqual(mailto) {
                last = i
                break
            }
        }
        if let last { bytes.removeSubrange(..<(last + mailto.count)) }
        let blank = { (b: UInt8) in b == 0x20 || b == 0x09 }
        while let b = bytes.last, blank(b) { bytes.removeLast() }
        let lead = bytes.prefix(while: blank).count
        if lead > 0 { bytes.removeFirst(lead) }
        return bytes
    }

    /// The value of the parameter `name` (upper-case ASCII) in a line's part before the
    /// value, its quotes dropped; nil when the line has no such parameter.
    static func parameter(_ name: [UInt8], in head: ArraySlice<UInt8>) -> [UInt8]? {
        var quoted = false
        var i = head.startIndex
        while i < head.endIndex {
            let b = head[i]
            if b == 0x22 { quoted.toggle() }
            i += 1
            guard b == 0x3B, !quoted else { continue }
            // A parameter starts at i: NAME=VALUE, up to the next ';' outside quotes.
            let nameEnd = i + name.count
            guard nameEnd < head.endIndex, head[nameEnd] == 0x3D,
                  zip(head[i..<nameEnd], name).allSatisfy({ ContentLines.upper($0) == $1 }) else { continue }
            var value: [UInt8] = []
            var inQuotes = false
            var j = nameEnd + 1
            while j < head.endIndex, inQuotes || head[j] != 0x3B {
                if head[j] == 0x22 { inQuotes.toggle() } else { value.append(head[j]) }
                j += 1
            }
            return value
        }
        return nil
    }

    private static func equalsIgnoringCase(_ bytes: [UInt8], _ upper: [UInt8]) -> Bool {
        bytes.count == upper.count && zip(bytes, upper).allSatisfy { ContentLines.upper($0) == $1 }
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
