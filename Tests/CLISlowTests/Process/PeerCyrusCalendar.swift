import Foundation
@testable import CLITests

/// A calendar file as the peer-cyrus assertions read it (`../shared/corpora/peer-cyrus/README.md`,
/// `expected.json`): its VEVENTs with their own properties (unfolded, a VALARM's apart), read
/// here without coolcal's reader so that what is checked is the file, not coolcal's view of it.
struct PeerCyrusCalendar {
    struct Property {
        let name: String
        let params: [String: String]
        let value: String
    }

    struct Event {
        var properties: [Property] = []
        var hasAlarm = false
        func first(_ name: String) -> Property? { properties.first { $0.name == name } }
        func all(_ name: String) -> [Property] { properties.filter { $0.name == name } }
        var uid: String? { first("UID")?.value }
    }

    let text: String
    let events: [Event]

    init(text: String) {
        self.text = text
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\r\n\t", with: "")
            .replacingOccurrences(of: "\n ", with: "").replacingOccurrences(of: "\n\t", with: "")
        var events: [Event] = []
        var stack: [String] = []
        var current: Event?
        for raw in unfolded.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : String(raw)
            guard let property = Self.property(line) else { continue }
            if property.name == "BEGIN" {
                stack.append(property.value.uppercased())
                if property.value.uppercased() == "VEVENT" { current = Event() }
                if property.value.uppercased() == "VALARM", stack.dropLast().last == "VEVENT" { current?.hasAlarm = true }
            } else if property.name == "END" {
                if stack.popLast() == "VEVENT", let done = current { events.append(done); current = nil }
            } else if stack.last == "VEVENT" {
                current?.properties.append(property)
            }
        }
        self.events = events
    }

    /// `NAME;P=V;Q="a;b":value`: the name upper-case, the parameters by upper-case name.
    static func property(_ line: String) -> Property? {
        var name = "", params: [String: String] = [:]
        var key = "", value = "", inQuotes = false, inName = true, inKey = false
        var index = line.startIndex
        func close() {
            if inName { name = value } else if !key.isEmpty { params[key.uppercased()] = value }
            key = ""; value = ""
        }
        while index < line.endIndex {
            let c = line[index]
            if c == "\"" { inQuotes.toggle() } else if !inQuotes && c == ":" {
                close()
                return Property(name: name.uppercased(), params: params, value: String(line[line.index(after: index)...]))
            } else if !inQuotes && c == ";" { close(); inName = false; inKey = true } else if inKey && c == "=" { key = value; value = ""; inKey = false } else { value.append(c) }
            index = line.index(after: index)
        }
        return nil
    }

    /// The instant a date-time value names (TZID read as an IANA zone; floating as UTC), or nil.
    static func instant(_ value: String, tzid: String?) -> Date? {
        let digits = value.filter(\.isNumber)
        guard digits.count == 14 else { return nil }
        let zone = value.hasSuffix("Z") ? TimeZone(identifier: "UTC") : tzid.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")
        var calendar = Calendar(identifier: .gregorian)
        guard let zone else { return nil }
        calendar.timeZone = zone
        let n = digits.map { Int(String($0)) ?? 0 }
        func number(_ r: Range<Int>) -> Int { r.reduce(0) { $0 * 10 + n[$1] } }
        return calendar.date(from: DateComponents(year: number(0..<4), month: number(4..<6), day: number(6..<8),
                                                  hour: number(8..<10), minute: number(10..<12), second: number(12..<14)))
    }

    /// Whether a value written with `tzid` names the expected RECURRENCE-ID (same text, or same instant).
    static func names(_ value: String, tzid: String?, _ rid: [String: Any]) -> Bool {
        guard let expected = rid["value"] as? String else { return false }
        if value == expected { return true }
        guard let a = instant(value, tzid: tzid), let b = instant(expected, tzid: rid["tzid"] as? String) else { return false }
        return a == b
    }

    func events(uid: String?) -> [Event] { events.filter { uid == nil || $0.uid == uid } }

    /// The VEVENT with `uid` and `rid` (nil: the series master).
    func component(uid: String?, rid: [String: Any]?) -> Event? {
        events(uid: uid).first { e in
            guard let r = e.first("RECURRENCE-ID") else { return rid == nil }
            guard let rid else { return false }
            return Self.names(r.value, tzid: r.params["TZID"], rid)
        }
    }

    /// Whether the series' EXDATE names `rid`.
    func exdate(uid: String?, rid: [String: Any]) -> Bool {
        guard let master = component(uid: uid, rid: nil) else { return false }
        return master.all("EXDATE").contains { p in
            p.value.split(separator: ",").contains { Self.names(String($0), tzid: p.params["TZID"], rid) }
        }
    }

    /// nil when the assertion holds, else what was found.
    func check(_ a: [String: Any], unchanged: Bool) -> String? {
        let uid = a["uid"] as? String
        let rid = a["rid"] as? [String: Any]
        let component = self.component(uid: uid, rid: rid)
        if let n = a["count"] as? Int {
            let got = events(uid: uid).count
            return got == n ? nil : "\(got) VEVENTs"
        }
        if let want = a["summaries"] as? [String] {
            let got = events(uid: uid).map { $0.first("SUMMARY")?.value ?? "" }
            return got == want ? nil : "summaries \(got)"
        }
        if let n = a["overrides"] as? Int {
            let got = events(uid: uid).filter { $0.first("RECURRENCE-ID") != nil }.count
            return got == n ? nil : "\(got) overrides"
        }
        if let want = a["exists"] as? Bool {
            return (component != nil) == want ? nil : (want ? "absent" : "present")
        }
        if let name = a["prop"] as? String {
            let got = component?.first(name.uppercased())?.value
            if let want = a["present"] as? Bool { return (got != nil) == want ? nil : (want ? "absent" : "present: \(got ?? "")") }
            let want = a["equals"] as? String
            return got == want ? nil : "\(name) is \(got.map { "\"\($0)\"" } ?? "absent")"
        }
        if let address = a["attendee"] as? String {
            let param = (a["param"] as? String ?? "PARTSTAT").uppercased()
            let want = a["equals"] as? String
            let attendee = component?.all("ATTENDEE").first {
                let v = $0.value.lowercased()
                return (v.hasPrefix("mailto:") ? String(v.dropFirst(7)) : v) == address.lowercased()
            }
            guard let attendee else { return want == nil ? nil : (component == nil ? "no such VEVENT" : "no such attendee") }
            guard let want else { return "attendee present" }
            let got = param == "PARTSTAT" ? (attendee.params[param] ?? "NEEDS-ACTION").uppercased() : attendee.params[param] ?? ""
            let same = param == "PARTSTAT" ? got == want.uppercased() : got == want
            return same ? nil : "\(param) is \"\(got)\""
        }
        if let want = a["valarm"] as? Bool {
            guard let component else { return "no such VEVENT" }
            return component.hasAlarm == want ? nil : (want ? "no VALARM" : "a VALARM")
        }
        if a["instance_cancelled"] as? Bool == true, let rid {
            let cancelled = exdate(uid: uid, rid: rid) || component?.first("STATUS")?.value.uppercased() == "CANCELLED"
            return cancelled ? nil : "instance not cancelled"
        }
        if a["exdate"] as? Bool == true, let rid {
            return exdate(uid: uid, rid: rid) ? nil : "no EXDATE for it"
        }
        if let s = a["text"] as? String, let want = a["contains"] as? Bool {
            return text.contains(s) == want ? nil : (want ? "text lacks it" : "text has it")
        }
        if a["unchanged_since"] as? String == "start" {
            return unchanged ? nil : "changed"
        }
        return "an assertion this test cannot read"
    }
}
