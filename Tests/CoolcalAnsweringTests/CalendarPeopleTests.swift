import Foundation
import Testing
import CoolcalModel
@testable import CoolcalAnswering

/// Answering/CalendarPeople: the byte-level reading of one ORGANIZER or ATTENDEE line,
/// which must agree with `CalendarAddress.normalized` and with quoted parameter values.
@Suite struct CalendarPeopleTests {
    func address(_ text: String) -> String {
        String(decoding: CalendarPeople.address(Array(text.utf8)[...]), as: UTF8.self)
    }

    @Test func addressesAreNormalizedAsCalendarAddressDoes() {
        for value in ["mailto:Alice@Example.org", "MAILTO:alice@example.org", " mailto: alice@example.org\t", "alice@example.org",
                      "mailto:mailto:Bob@X.example", "mailto:Jürgen@Beispiel.example", "urn:uuid:1234", ""] {
            #expect(address(value) == CalendarAddress.normalized(value), "\(value)")
        }
    }

    @Test func parametersAreReadOutsideQuotesOnly() {
        func parameter(_ name: String, _ line: String) -> String? {
            let bytes = Array(line.utf8)
            // The parameters end at the first colon outside quotes.
            var quoted = false
            let colon = bytes.firstIndex { b in
                if b == 0x22 { quoted.toggle() }
                return b == 0x3A && !quoted
            } ?? bytes.count
            return CalendarPeople.parameter(Array(name.utf8), in: bytes[..<colon]).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(parameter("PARTSTAT", "ATTENDEE;partstat=Accepted;RSVP=TRUE") == "Accepted")
        #expect(parameter("PARTSTAT", "ATTENDEE;RSVP=TRUE") == nil, "no PARTSTAT: absent (NEEDS-ACTION)")
        #expect(parameter("PARTSTAT", "ATTENDEE;CN=\"x;PARTSTAT=ACCEPTED\";RSVP=TRUE") == nil, "inside a quoted CN")
        #expect(parameter("DELEGATED-FROM", "ATTENDEE;DELEGATED-FROM=\"mailto:d@x.example\";PARTSTAT=ACCEPTED") == "mailto:d@x.example")
        #expect(parameter("PARTSTAT", "ATTENDEE;X-PARTSTAT=ACCEPTED") == nil, "another parameter's name ending in it")
    }

    /// One file, every case at once: who is found and why.
    @Test func eventsNameWhomTheyMakeKnown() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("people-\(UUID().uuidString).ics").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = [
            "BEGIN:VCALENDAR",
            "BEGIN:VEVENT", "SUMMARY:Theirs\\, accepted", "ATTENDEE;PARTSTAT=ACCEPTED:mailto:carol@x.example",
            "ATTENDEE;CN=\"Me; myself\";PARTSTAT=ACCEPTED:mailto:ME@home.example", "ORGANIZER:mailto:alice@x.example", "END:VEVENT",
            "BEGIN:VEVENT", "ORGANIZER:mailto:frank@x.example", "ATTENDEE:mailto:me@home.example", "END:VEVENT",
            "BEGIN:VEVENT", "ORGANIZER:mailto:me@home.example", "ATTENDEE:mailto:dave@x.example",
            "ATTENDEE;DELEGATED-FROM=\"mailto:dave@x.example\":mailto:eve@x.example",
            "BEGIN:VALARM", "ATTENDEE:mailto:alarm@x.example", "END:VALARM", "ATTENDEE;PARTSTAT=ACCEPTED:mailto:me@home.example",
            "END:VEVENT",
            "BEGIN:VTODO", "ORGANIZER:mailto:me@home.example", "ATTENDEE:mailto:todo@x.example", "END:VTODO",
            "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        var found: [String] = []
        CalendarPeople(me: ["Me@Home.example"]).scan(path) { found.append("\($0.address) \($0.organised) \($0.title ?? "-")") }
        #expect(found == ["alice@x.example false Theirs, accepted", "dave@x.example true -"])
    }
}
