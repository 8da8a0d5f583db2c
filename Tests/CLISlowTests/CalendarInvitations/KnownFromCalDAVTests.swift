import CoolcalCalDAV
import Foundation
import Testing
@testable import CLITests

/// Issue 49, "known from CalDAV": the events of a CalDAV calendar from now to a year ahead
/// make people known as a local calendar's do (an organizer whose event I accepted), for
/// the invitations found in it and for the mailed ones; a stranger stays held. Against a
/// real Radicale.
@Suite struct KnownFromCalDAVTests {
    @Test func anOrganizerIAcceptedOnTheServerIsKnown() throws {
        typealias C = CalendarInvitationMergeTests
        let server = try RadicaleServer()
        let url = server.url("/alice/cal/")
        let client = try CalDAVClient(calendar: url, environment: [:])
        try client.makeCalendar()
        // Olga's standup, accepted; then a pending one from her and one from a stranger.
        let put = { (name: String, text: String) in
            _ = try client.put(client.href(forName: name), data: Data(text.utf8), precondition: .create)
        }
        try put("standup.ics", C.item("standup-1", organizer: "olga@example.com", partstat: "ACCEPTED",
                                      start: C.stamp(days: 3, hour: 9), end: C.stamp(days: 3, hour: 10), summary: "Standup"))
        try put("plan.ics", C.item("plan-1", organizer: "olga@example.com", partstat: "NEEDS-ACTION",
                                   start: C.stamp(days: 5, hour: 9), end: C.stamp(days: 5, hour: 10), summary: "Plan"))
        try put("spam.ics", C.item("spam-1", organizer: "spammer@example.net", partstat: "NEEDS-ACTION",
                                   start: C.stamp(days: 6, hour: 9), end: C.stamp(days: 6, hour: 10), summary: "Buy"))
        // And Olga's invitation by mail, in a spool.
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-known-caldav-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/spool", withIntermediateDirectories: true)
        let mailed = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Mail//EN", "METHOD:REQUEST", "BEGIN:VEVENT",
                      "UID:mailed-1", "DTSTAMP:20260101T000000Z", "SEQUENCE:0", "DTSTART:\(C.stamp(days: 8, hour: 10))",
                      "DTEND:\(C.stamp(days: 8, hour: 11))", "SUMMARY:Review", "ORGANIZER:mailto:olga@example.com",
                      "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:\(C.bob)", "END:VEVENT", "END:VCALENDAR", ""]
        try Data(mailed.joined(separator: "\r\n").utf8).write(to: URL(fileURLWithPath: root + "/spool/review.ics"))

        // accept-from known (the default): Olga is known from the server's copy of her standup.
        let run = try Binary.run(["merge", "--json", "--calendar-invitations", "--me", C.bob, "--state", root + "/state",
                                  "--spool", root + "/spool", url])
        #expect(run.status == 0, "\(run.stderr)")
        let outcomes = try Binary.json(run.stdout)["outcomes"] as? [[String: Any]] ?? []
        var byID: [String: String] = [:]
        for outcome in outcomes { byID[outcome["id"] as? String ?? ""] = outcome["outcome"] as? String }
        #expect(byID == ["plan-1": "accepted", "spam-1": "held", "mailed-1": "accepted"], "\(run.stdout)")
    }
}
