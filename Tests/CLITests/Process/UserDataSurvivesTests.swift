import Foundation
import Testing

/// Issue #44, "the user's own data survives the organizer": after I mark a series free
/// and add an alarm of mine, the organizer's update (new title, and a newly arriving
/// override) keeps both in the series byte for byte, and the new override takes them
/// from the series (Thunderbird and Evolution do the same).
@Suite struct UserDataSurvivesTests {
    static let alarm = "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT15M\r\nDESCRIPTION:my own\r\nEND:VALARM\r\n"

    /// `extra`: lines the organizer sends in the series, before its `END:VEVENT`.
    static func request(sequence: Int, title: String, override: Bool, extra: [String] = []) -> String {
        var ics = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "METHOD:REQUEST",
            "BEGIN:VEVENT", "UID:mine-kept@example.org", "DTSTAMP:2026010\(sequence + 1)T090000Z", "SEQUENCE:\(sequence)",
            "DTSTART:20310303T100000Z", "DURATION:PT1H", "RRULE:FREQ=WEEKLY;COUNT=4", "SUMMARY:\(title)", "TRANSP:OPAQUE",
            "ORGANIZER:mailto:alice@example.org", "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:\(OrganizerBindingTests.me)",
        ] + extra + ["END:VEVENT"]
        if override {
            ics += ["BEGIN:VEVENT", "UID:mine-kept@example.org", "DTSTAMP:2026010\(sequence + 1)T090000Z", "SEQUENCE:\(sequence)",
                    "RECURRENCE-ID:20310310T100000Z", "DTSTART:20310310T140000Z", "DURATION:PT1H", "SUMMARY:\(title) (moved)",
                    "TRANSP:OPAQUE", "ORGANIZER:mailto:alice@example.org",
                    "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:\(OrganizerBindingTests.me)", "END:VEVENT"]
        }
        ics += ["END:VCALENDAR", ""]
        return ["From: Alice <alice@example.org>", "To: \(OrganizerBindingTests.me)", "Subject: \(title)",
                "Date: Fri, 2 Jan 2026 10:00:00 +0100", "Message-ID: <\(UUID().uuidString)@example.org>", "MIME-Version: 1.0",
                "Content-Type: text/calendar; charset=UTF-8; method=REQUEST", "", ics.joined(separator: "\r\n")].joined(separator: "\r\n")
    }

    /// The VEVENT blocks of the UID, by RECURRENCE-ID ("" for the series).
    static func blocks(_ text: String) -> [String: String] {
        var found: [String: String] = [:]
        for block in text.components(separatedBy: "BEGIN:VEVENT\r\n").dropFirst() where block.contains("UID:mine-kept@example.org") {
            let body = block.components(separatedBy: "END:VEVENT\r\n").first ?? ""
            let rid = body.components(separatedBy: "\r\n").first { $0.hasPrefix("RECURRENCE-ID") } ?? ""
            found[rid] = body
        }
        return found
    }

    @Test func aSeriesUpdateKeepsMyAlarmAndTRANSPAndANewOverrideInheritsThem() throws {
        let desk = try ProcessDesk()
        let first = try desk.process(Self.request(sequence: 0, title: "Weekly", override: false))
        #expect(first.text.hasPrefix("added"), "\(first.text)\(first.stderr)")
        // I mark the series free and add an alarm of mine.
        var text = try desk.text()
        let series = try #require(Self.blocks(text)[""])
        let mine = series.replacingOccurrences(of: "TRANSP:OPAQUE\r\n", with: "TRANSP:TRANSPARENT\r\n") + Self.alarm
        text = text.replacingOccurrences(of: series, with: mine)
        try Data(text.utf8).write(to: URL(fileURLWithPath: desk.calendar))
        let update = try desk.process(Self.request(sequence: 1, title: "Weekly sync", override: true))
        #expect(update.text.hasPrefix("updated"), "\(update.text)\(update.stderr)")
        let after = Self.blocks(try desk.text())
        #expect(after.count == 2, "\(after.keys)")
        for (rid, block) in after {
            let lines = block.components(separatedBy: "\r\n")
            #expect(lines.contains("TRANSP:TRANSPARENT") && !lines.contains("TRANSP:OPAQUE"), "\(rid): \(block)")
            #expect(block.components(separatedBy: Self.alarm).count == 2, "\(rid): my alarm once, byte for byte: \(block)")
            #expect(block.contains(rid.isEmpty ? "SUMMARY:Weekly sync\r\n" : "SUMMARY:Weekly sync (moved)\r\n"), "the organizer's title: \(block)")
        }
    }
}
