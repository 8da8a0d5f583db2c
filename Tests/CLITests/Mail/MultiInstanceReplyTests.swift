import Foundation
import Testing

/// Issue #44: one REPLY answering the series and instances (RFC 5546 §3.2.3; Google sends
/// this) is applied VEVENT by VEVENT — the series, a stored override, an instance with no
/// override (created, as for a one-instance reply); a RECURRENCE-ID that is no instance
/// adds nothing and is said. The attendee's CN and LANGUAGE come with the PARTSTAT; ROLE
/// and RSVP stay the organizer's.
@Suite struct MultiInstanceReplyTests {
    static let me = OrganizerRepliesTests.me

    /// My weekly series (4 Mondays from 2031-03-03 10:00Z), Bob invited, an override of the
    /// second week stored.
    static let calendar = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Mine//EN",
        "BEGIN:VEVENT", "UID:weekly-1@example.com", "DTSTAMP:20260101T090000Z", "SEQUENCE:1",
        "DTSTART:20310303T100000Z", "DURATION:PT1H", "RRULE:FREQ=WEEKLY;COUNT=4", "SUMMARY:Weekly",
        "ORGANIZER:mailto:\(me)", "ATTENDEE;ROLE=REQ-PARTICIPANT;RSVP=TRUE;PARTSTAT=NEEDS-ACTION:mailto:bob@example.org",
        "END:VEVENT",
        "BEGIN:VEVENT", "UID:weekly-1@example.com", "DTSTAMP:20260101T090000Z", "SEQUENCE:1",
        "RECURRENCE-ID:20310310T100000Z", "DTSTART:20310310T110000Z", "DURATION:PT1H", "SUMMARY:Weekly (late)",
        "ORGANIZER:mailto:\(me)", "ATTENDEE;ROLE=REQ-PARTICIPANT;RSVP=TRUE;PARTSTAT=NEEDS-ACTION:mailto:bob@example.org",
        "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")

    /// Bob's reply: the series ACCEPTED, the stored override (10th) DECLINED, the 17th
    /// TENTATIVE (no override stored), and 10:30 of the 24th (no instance) ACCEPTED.
    static func reply(instances: [(rid: String, partstat: String)]) -> String {
        var ics = ["BEGIN:VCALENDAR", "PRODID:-//Test//Reply//EN", "VERSION:2.0", "METHOD:REPLY"]
        for (rid, partstat) in [("", "ACCEPTED")] + instances {
            ics += ["BEGIN:VEVENT", "UID:weekly-1@example.com", "DTSTAMP:20260102T090000Z", "SEQUENCE:1"]
                + (rid.isEmpty ? [] : ["RECURRENCE-ID:" + rid])
                + ["ORGANIZER:mailto:\(me)", "ATTENDEE;CN=\"Bob; Builder\";LANGUAGE=en;ROLE=CHAIR;RSVP=FALSE;PARTSTAT=\(partstat):mailto:bob@example.org",
                   "END:VEVENT"]
        }
        ics += ["END:VCALENDAR", ""]
        return ["From: Bob <bob@example.org>", "To: \(me)", "Subject: Reply", "Date: Fri, 2 Jan 2026 10:00:00 +0100",
                "Message-ID: <\(UUID().uuidString)@example.org>", "MIME-Version: 1.0",
                "Content-Type: text/calendar; charset=UTF-8; method=REPLY", "", ics.joined(separator: "\r\n")].joined(separator: "\r\n")
    }

    static let three = [("20310310T100000Z", "DECLINED"), ("20310317T100000Z", "TENTATIVE"), ("20310324T103000Z", "ACCEPTED")]

    /// Bob's ATTENDEE line of each VEVENT, by RECURRENCE-ID ("" for the series).
    static func bob(_ text: String) -> [String: String] {
        var found: [String: String] = [:]
        for block in text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "BEGIN:VEVENT").dropFirst() {
            let lines = block.components(separatedBy: "\r\n")
            let rid = lines.first { $0.hasPrefix("RECURRENCE-ID") }.map { String($0.drop { $0 != ":" }.dropFirst()) } ?? ""
            found[rid] = lines.first { $0.hasPrefix("ATTENDEE") && $0.hasSuffix("bob@example.org") }
        }
        return found
    }

    @Test func processAppliesEveryVEVENTAndSaysSo() throws {
        let root = try Spawn.directory()
        let cal = root + "/cal.ics"
        try Data(Self.calendar.utf8).write(to: URL(fileURLWithPath: cal))
        let run = try ProcessRun.run(["--json", "--recipient", Self.me, "--state", root + "/state", cal],
                                     message: Data(Self.reply(instances: Self.three).utf8))
        let json = try Binary.json(run.text)
        #expect(json["outcome"] as? String == "updated", "\(run.text)\(run.stderr)")
        #expect(json["detail"] as? String == "reply: 3 instances; 1 not an instance", "\(run.text)")
        let text = try String(contentsOfFile: cal, encoding: .utf8)
        let lines = Self.bob(text)
        #expect(lines.keys.sorted() == ["", "20310310T100000Z", "20310317T100000Z"], "no override at 10:30 of the 24th: \(text)")
        #expect(lines[""]?.contains("PARTSTAT=ACCEPTED") == true)
        #expect(lines["20310310T100000Z"]?.contains("PARTSTAT=DECLINED") == true)
        #expect(lines["20310317T100000Z"]?.contains("PARTSTAT=TENTATIVE") == true)
        for line in lines.values {
            #expect(line.contains("CN=\"Bob; Builder\"") && line.contains("LANGUAGE=en"), "the attendee's own: \(line)")
            #expect(line.contains("ROLE=REQ-PARTICIPANT") && line.contains("RSVP=TRUE") && !line.contains("CHAIR"), "the organizer's: \(line)")
        }
    }

    @Test func oneVEVENTIsSaidAsBefore() throws {
        let root = try Spawn.directory()
        let cal = root + "/cal.ics"
        try Data(Self.calendar.utf8).write(to: URL(fileURLWithPath: cal))
        let run = try ProcessRun.run(["--json", "--recipient", Self.me, "--state", root + "/state", cal],
                                     message: Data(Self.reply(instances: []).utf8))
        #expect(try Binary.json(run.text)["detail"] as? String == "reply", "\(run.text)")
    }

    @Test func mergeSaysTheInstancesToo() throws {
        let b = try HeldMergeTests().box()
        try Data(Self.calendar.utf8).write(to: URL(fileURLWithPath: b.calendar))
        try b.deliver("1.bob", Self.reply(instances: Array(Self.three.prefix(2))))
        let run = try b.merge()
        let outcome = try b.outcomes(run).first
        #expect(outcome?["outcome"] as? String == "updated", "\(run.stdout)\(run.stderr)")
        #expect((outcome?["detail"] as? String)?.hasSuffix("(reply: 3 instances)") == true, "\(run.stdout)")
    }
}
