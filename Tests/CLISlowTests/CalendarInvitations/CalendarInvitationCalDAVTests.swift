import CoolcalCalDAV
import Foundation
import Testing
@testable import CLITests

/// Invitations found pending in a CalDAV collection (issue 49), against a real Radicale
/// (no scheduling: the organizer's copy is put there by hand, as a scheduling server would):
/// found by `merge --calendar-invitations`, answered by `accept N` with a conditional PUT
/// that changes only my PARTSTAT (RSVP gone) and DTSTAMP in what the server holds.
@Suite struct CalendarInvitationCalDAVTests {
    @Test func foundOnTheServerAndAnsweredThereInPlace() throws {
        let server = try RadicaleServer()
        let url = server.url("/alice/cal/")
        let client = try CalDAVClient(calendar: url, environment: [:])
        try client.makeCalendar()
        typealias C = CalendarInvitationMergeTests
        let stored = C.item("srv-1", organizer: "olga@example.com", partstat: "NEEDS-ACTION",
                            start: C.stamp(days: 9, hour: 10), end: C.stamp(days: 9, hour: 11), summary: "Sync")
        let href = client.href(forName: "srv-1.ics")
        _ = try client.put(href, data: Data(stored.utf8), precondition: .create)
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-caldavinv-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: state) }

        let merge = try Binary.run(["merge", "--json", "--calendar-invitations", "--policy", "report", "--accept-from", "anyone",
                                    "--me", C.bob, "--state", state, url])
        #expect(merge.status == 0, "\(merge.stderr)")
        // --policy report records nothing; the default policy would accept it (free): hold it
        // for the person with accept-from known (Olga is not known here).
        let run = try Binary.run(["merge", "--json", "--calendar-invitations", "--me", C.bob, "--state", state, url])
        #expect(run.status == 0, "\(run.stderr)")
        let outcomes = try Binary.json(run.stdout)["outcomes"] as? [[String: Any]] ?? []
        #expect(outcomes.map { $0["outcome"] as? String } == ["held"], "\(run.stdout)")
        let entries = try Binary.json(Binary.run(["inbox", "--json", "--state", state]).stdout)["invitations"] as? [[String: Any]] ?? []
        #expect(entries.first?["found_in"] as? String == "cal")
        let number = String(entries.first?["number"] as? Int ?? 0)

        let accept = try Binary.run(["accept", "--me", C.bob, "--state", state, number, url])
        #expect(accept.status == 0, "\(accept.stderr)")
        let after = try #require(try client.get(href))
        let text = String(decoding: after.data, as: UTF8.self)
        #expect(text.contains("ATTENDEE;PARTSTAT=ACCEPTED:mailto:bob@example.com"), "\(text)")
        #expect(!text.contains("RSVP") && !text.contains("SCHEDULE-STATUS") && text.contains("SUMMARY:Sync"))
        // Answered: not pending any more, nothing written again.
        let again = try Binary.run(["accept", "--me", C.bob, "--state", state, number, url])
        #expect(again.stdout.contains("not pending"), "\(again.stdout) \(again.stderr)")
        #expect(try client.get(href)?.etag == after.etag)
    }
}
