import Foundation
import Testing

/// Issue #31: an accepted Outlook invitation keeps no `X-MICROSOFT-CDO-BUSYSTATUS:TENTATIVE`
/// (Outlook's "not answered yet"): the stored copy takes the organizer's intended status
/// when the invitation says one (FREE stays FREE), else BUSY, or TENTATIVE when the answer
/// is tentative. An invitation without Outlook's properties gets none.
@Suite struct OutlookBusyStatusTests {
    static func invitation(busy: String?, intended: String?) -> String {
        ([
            "BEGIN:VCALENDAR", "PRODID:Microsoft Exchange Server 2010", "VERSION:2.0", "METHOD:REQUEST",
            "BEGIN:VEVENT", "UID:040000008200E00074C5B7101A82E008000000001@outlook", "DTSTAMP:20260101T090000Z", "SEQUENCE:0",
            "DTSTART:20310303T100000Z", "DTEND:20310303T110000Z", "SUMMARY:Steering group",
            "ORGANIZER;CN=Alice:mailto:alice@example.com",
            "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:me@example.com",
        ] + (busy.map { ["X-MICROSOFT-CDO-BUSYSTATUS:\($0)"] } ?? []) + (intended.map { ["X-MICROSOFT-CDO-INTENDEDSTATUS:\($0)"] } ?? [])
          + ["END:VEVENT", "END:VCALENDAR", ""]).joined(separator: "\r\n")
    }

    @Test(arguments: [
        ("TENTATIVE", "BUSY", false, "BUSY"), ("TENTATIVE", "FREE", false, "FREE"), ("TENTATIVE", nil, false, "BUSY"),
        ("TENTATIVE", nil, true, "TENTATIVE"), ("TENTATIVE", "OOF", true, "OOF"), (nil, "BUSY", false, "BUSY"),
        (nil, nil, false, nil),
    ] as [(String?, String?, Bool, String?)])
    func theStoredCopySaysTheAnswer(busy: String?, intended: String?, tentative: Bool, expected: String?) throws {
        let dir = try Spawn.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.invitation(busy: busy, intended: intended).write(toFile: dir + "/invite.ics", atomically: true, encoding: .utf8)
        try "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//T//EN\r\nEND:VCALENDAR\r\n".write(toFile: dir + "/cal.ics", atomically: true, encoding: .utf8)
        let run = try Binary.run(["accept", "--me", "me@example.com", "--state", dir + "/state"] + (tentative ? ["--tentative"] : [])
                                 + [dir + "/invite.ics", dir + "/cal.ics"])
        #expect(run.status == 0, "\(run.stderr)")
        let stored = try String(contentsOfFile: dir + "/cal.ics", encoding: .utf8).components(separatedBy: "\r\n")
        #expect(stored.filter { $0.hasPrefix("X-MICROSOFT-CDO-BUSYSTATUS") } == (expected.map { ["X-MICROSOFT-CDO-BUSYSTATUS:\($0)"] } ?? []),
                "\(stored)")
        #expect(stored.contains { $0.hasPrefix("ATTENDEE;PARTSTAT=\(tentative ? "TENTATIVE" : "ACCEPTED")") }, "\(stored)")
    }
}
