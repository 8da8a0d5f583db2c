import Foundation
import Testing
@testable import CLITests

/// A CalDAV calendar whose `schedule-calendar-transp` is `transparent` (RFC 6638 §9.1)
/// is no busy time (issue 49): its events are free with the reason "transparent
/// calendar"; the same event in an `opaque` one conflicts. `PlainWebServer` answers
/// by hand.
@Suite struct TransparentCalendarTests {
    static let invite = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//t//EN\r
        METHOD:REQUEST\r
        BEGIN:VEVENT\r
        UID:invite-1\r
        DTSTAMP:20220801T000000Z\r
        DTSTART:20220820T103000Z\r
        DTEND:20220820T113000Z\r
        SUMMARY:Review\r
        ORGANIZER:mailto:boss@example.com\r
        ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:me@example.com\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test func aTransparentCalendarIsFreeAnOpaqueOneBusy() throws {
        let web = try PlainWebServer()
        let base = "http://127.0.0.1:\(web.server.port)"
        let invite = try Binary.temp("invite.ics", Data(Self.invite.utf8))

        let transparent = try Binary.run(["conflicts", "--json", invite, base + "/transp/"])
        #expect(transparent.status == 0, "\(transparent.stdout) \(transparent.stderr)")
        let free = try Binary.json(transparent.stdout)
        #expect((free["conflicts"] as? [Any])?.isEmpty == true)
        let ignored = try #require((free["ignored"] as? [[String: Any]])?.first)
        #expect(ignored["summary"] as? String == "Standup")
        #expect(ignored["reason"] as? String == "transparent calendar")
        #expect(ignored["busy"] as? Bool == false)
        #expect(free["free"] as? Bool == true)

        let text = try Binary.run(["conflicts", invite, base + "/transp/"])
        #expect(text.stdout.contains("Standup  [transp]  (transparent calendar)\n"), "\(text.stdout)")

        let opaque = try Binary.run(["conflicts", "--json", invite, base + "/opaque/"])
        #expect(opaque.status == 1, "\(opaque.stdout) \(opaque.stderr)")
        let busy = try Binary.json(opaque.stdout)
        #expect((busy["conflicts"] as? [[String: Any]])?.first?["summary"] as? String == "Standup")
        #expect(busy["free"] as? Bool == false)
    }
}
