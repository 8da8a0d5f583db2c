import Foundation
import Testing

/// Issue #44: every VEVENT of a message is checked before anything is written — a time
/// zone that cannot be resolved in a later override is an error naming that override,
/// and the calendar is left byte for byte.
@Suite struct EveryComponentTests {
    static func request(overrideTZID: String) -> String {
        let ics = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "METHOD:REQUEST",
            "BEGIN:VEVENT", "UID:tz-every@example.org", "DTSTAMP:20260101T090000Z", "SEQUENCE:0",
            "DTSTART;TZID=America/New_York:20310303T100000", "DURATION:PT1H", "RRULE:FREQ=WEEKLY;COUNT=4",
            "SUMMARY:Weekly", "ORGANIZER:mailto:alice@example.org", "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:\(OrganizerBindingTests.me)",
            "END:VEVENT",
            "BEGIN:VEVENT", "UID:tz-every@example.org", "DTSTAMP:20260101T090000Z", "SEQUENCE:0",
            "RECURRENCE-ID;TZID=America/New_York:20310310T100000", "DTSTART;TZID=\(overrideTZID):20310310T110000", "DURATION:PT1H",
            "SUMMARY:Weekly (late)", "ORGANIZER:mailto:alice@example.org", "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:\(OrganizerBindingTests.me)",
            "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        return ["From: Alice <alice@example.org>", "To: \(OrganizerBindingTests.me)", "Subject: Weekly",
                "Date: Fri, 2 Jan 2026 10:00:00 +0100", "Message-ID: <\(UUID().uuidString)@example.org>", "MIME-Version: 1.0",
                "Content-Type: text/calendar; charset=UTF-8; method=REQUEST", "", ics].joined(separator: "\r\n")
    }

    @Test func anUnresolvableTZIDInALaterOverrideIsAnError() throws {
        let desk = try ProcessDesk()
        let before = try desk.text()
        let run = try desk.process(Self.request(overrideTZID: "American/New_York"), ["--json"])
        let json = try Binary.json(run.text)
        #expect(json["outcome"] as? String == "error", "\(run.text)\(run.stderr)")
        #expect((json["detail"] as? String)?.hasSuffix("TZID \"American/New_York\" of the override of 2031-03-10 cannot be resolved") == true, "\(run.text)")
        #expect(try desk.text() == before, "nothing written")
        // The same message with a zone that resolves is read (not an error).
        let good = try desk.process(Self.request(overrideTZID: "America/New_York"), ["--json"])
        #expect(try Binary.json(good.text)["outcome"] as? String != "error", "\(good.text)")
    }
}
