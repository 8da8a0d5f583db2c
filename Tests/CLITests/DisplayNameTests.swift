import Foundation
import Testing

/// Issue #31: the user's display name (config `name`) in the mails coolcal sends for
/// them — the From header and the CN of their ATTENDEE line — read back by Python's
/// `email` and `icalendar`. Without it, a CN that only repeats the address (Gmail's)
/// gives a bare From, not `"dana@acme.example" <dana@acme.example>`.
@Suite struct DisplayNameTests {
    static let gmail = [
        "BEGIN:VCALENDAR", "PRODID:-//Google Inc//Google Calendar 70.9054//EN", "VERSION:2.0", "METHOD:REQUEST",
        "BEGIN:VEVENT", "UID:display-name@google.com", "DTSTAMP:20260101T090000Z", "DTSTART:20310303T100000Z",
        "DTEND:20310303T110000Z", "SUMMARY:Design review", "ORGANIZER;CN=Alice:mailto:alice@example.com",
        "ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE;CN=dana@acme.example;X-NUM-GUESTS=0:mailto:dana@acme.example",
        "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")

    @Test(arguments: [("Dana Scully", "Dana Scully"), (nil, nil)] as [(String?, String?)])
    func theReplySaysWhoAnswers(name: String?, shown: String?) throws {
        let mail = MailAnswerTests()
        let f = try mail.files(Self.gmail)
        let config = try Binary.configHome("me = dana@acme.example\n" + (name.map { "name = \($0)\n" } ?? ""))
        let printed = try Binary.run(["reply", "--accept", "--mail", f.invite], env: ["XDG_CONFIG_HOME": config])
        #expect(printed.status == 0, "\(printed.stderr)")
        let read = try mail.python(printed.stdout)
        #expect(read["from_address"] as? String == "dana@acme.example")
        #expect((read["from_name"] as? String).flatMap { $0.isEmpty ? nil : $0 } == shown, "\(read["headers"] ?? "")")
        let parts = try #require(read["parts"] as? [[String: Any]])
        let events = parts.compactMap { ($0["calendar"] as? [String: Any])?["events"] as? [[String: Any]] }.joined()
        let attendees = events.flatMap { $0["attendees"] as? [[String: Any]] ?? [] }
        #expect(attendees.map { $0["cn"] as? String } == [name ?? "dana@acme.example"], "\(attendees)")
        let text = parts.first { $0["content_type"] as? String == "text/plain" }?["text"] as? String ?? ""
        #expect(text.hasPrefix("\(name ?? "dana@acme.example") has accepted this invitation."), "\(text)")
        // `coolcal config` lists the key and where it came from.
        let listed = try Binary.run(["config"], env: ["XDG_CONFIG_HOME": config])
        #expect(listed.stdout.contains(name.map { "\nname          \($0)  (config file)\n" } ?? "\nname          (none)"), "\(listed.stdout)")
    }
}
