import CoolcalCalDAV
import Foundation
import Testing
@testable import CLITests

/// Issue 49 against a real RFC 6638 server (Cyrus, `CyrusServer`): Olga invites Bob through
/// CalDAV; the server puts the event in Bob's calendar; Bob's `merge --calendar-invitations`
/// and `inbox` list it with its conflicts; `accept N` changes his PARTSTAT on the server;
/// Olga's copy then shows Bob ACCEPTED (the server's own scheduling did it); Olga moving it
/// brings it back as pending. No daemon is left.
@Suite(.serialized) struct CalendarInvitationCyrusTests {
    static let bob = "bob@example.com"

    static func event(_ uid: String, start: String, end: String, sequence: Int, organizer: String?, attendees: [String]) -> Data {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//coolcal tests//EN", "BEGIN:VEVENT", "UID:\(uid)",
                     "DTSTAMP:20260101T00000\(sequence)Z", "SEQUENCE:\(sequence)", "DTSTART:\(start)", "DTEND:\(end)",
                     "SUMMARY:\(organizer == nil ? "Dentist" : "Roadmap")"]
        if let organizer { lines.append("ORGANIZER:mailto:\(organizer)") }
        lines += attendees
        return Data((lines + ["END:VEVENT", "END:VCALENDAR", ""]).joined(separator: "\r\n").utf8)
    }

    /// Unfolded text of the resource holding `uid`.
    static func stored(_ client: CalDAVClient, _ href: String) throws -> String {
        String(decoding: try client.get(href)?.data ?? Data(), as: UTF8.self).replacingOccurrences(of: "\r\n ", with: "")
    }

    @Test func invitedThroughTheServerAnsweredInPlaceAndBackWhenMoved() throws {
        let cyrus = try CyrusServer(users: ["olga", "bob"])
        defer {
            cyrus.stop()
            #expect(!cyrus.leftRunning, "a Cyrus process was left running")
        }
        do { try Self.flow(cyrus) } catch {
            Issue.record("\(error)\nBob's sessions:\n\(cyrus.log("bob"))\nOlga's sessions:\n\(cyrus.log("olga"))")
        }
    }

    static func flow(_ cyrus: CyrusServer) throws {
        let olga = try CalDAVClient(calendar: cyrus.calendar("olga"), environment: [:])
        let bob = try CalDAVClient(calendar: cyrus.calendar("bob"), environment: [:])
        typealias C = CalendarInvitationMergeTests
        // Bob's own appointment, then Olga's invitation over it.
        _ = try bob.put(bob.href(forName: "dentist.ics"),
                        data: Self.event("dentist-1", start: C.stamp(days: 6, hour: 9), end: C.stamp(days: 6, hour: 11), sequence: 0,
                                         organizer: nil, attendees: []), precondition: .create)
        let attendees = ["ATTENDEE;PARTSTAT=ACCEPTED:mailto:olga@example.com", "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:\(Self.bob)"]
        let olgaHref = olga.href(forName: "roadmap.ics")
        _ = try olga.put(olgaHref, data: Self.event("roadmap-1", start: C.stamp(days: 6, hour: 10), end: C.stamp(days: 6, hour: 12),
                                                    sequence: 0, organizer: "olga@example.com", attendees: attendees), precondition: .create)

        let state = try ServerProcess.temporaryHome("cyrus-state").path
        defer { try? FileManager.default.removeItem(atPath: state) }
        let merge = { try Binary.run(["merge", "--json", "--calendar-invitations", "--accept-from", "anyone", "--me", Self.bob,
                                      "--state", state, cyrus.calendar("bob")]) }
        let first = try merge()
        #expect(first.status == 0, "\(first.stderr)")
        let outcomes = try Binary.json(first.stdout)["outcomes"] as? [[String: Any]] ?? []
        #expect(outcomes.map { $0["id"] as? String } == ["roadmap-1"], "\(first.stdout)")
        #expect(outcomes.first?["outcome"] as? String == "busy")
        #expect((outcomes.first?["detail"] as? String)?.hasPrefix("1 conflict: Dentist") == true, "\(first.stdout)")
        let entries = try Binary.json(Binary.run(["inbox", "--json", "--state", state]).stdout)["invitations"] as? [[String: Any]] ?? []
        #expect(entries.map { $0["found_in"] as? String } == ["Default"])
        let number = String(entries.first?["number"] as? Int ?? 0)

        let accept = try Binary.run(["accept", "--me", Self.bob, "--state", state, number, cyrus.calendar("bob")])
        #expect(accept.status == 0, "\(accept.stderr)\n\(cyrus.log("bob"))")
        let bobsCopy = try Self.stored(bob, bob.href(forName: "roadmap-1.ics"))
        #expect(bobsCopy.contains("ATTENDEE;PARTSTAT=ACCEPTED:mailto:\(Self.bob)"), "\(bobsCopy)")
        // The server scheduled the REPLY: Olga's copy says Bob accepted.
        let olgasCopy = try Self.stored(olga, olgaHref)
        #expect(olgasCopy.range(of: "ATTENDEE;PARTSTAT=ACCEPTED[^\\r\\n]*:mailto:\(Self.bob)", options: .regularExpression) != nil, "\(olgasCopy)")

        // Olga moves it: the server resets Bob's PARTSTAT; it comes back, now free, and is accepted.
        let etag = try olga.get(olgaHref)?.etag ?? ""
        _ = try olga.put(olgaHref, data: Self.event("roadmap-1", start: C.stamp(days: 7, hour: 14), end: C.stamp(days: 7, hour: 15),
                                                    sequence: 1, organizer: "olga@example.com", attendees: attendees),
                         precondition: .replace(etag: etag))
        let again = try merge()
        let back = try Binary.json(again.stdout)["outcomes"] as? [[String: Any]] ?? []
        #expect(back.map { $0["id"] as? String } == ["roadmap-1"], "\(again.stdout) \(again.stderr)")
        #expect(back.first?["start"] as? String == OccurrenceText.iso(C.stamp(days: 7, hour: 14)))
        #expect(back.first?["outcome"] as? String == "accepted")

        // config --check: Cyrus names calendar-auto-schedule, and its inbox's
        // schedule-default-calendar-URL is this calendar (schedule-calendar-transp not
        // offered until set); calendar-invitations is off here.
        let config = try Binary.configHome("calendar = \(cyrus.calendar("bob"))\n")
        let check = try Binary.run(["config", "--check"], env: ["XDG_CONFIG_HOME": config])
        #expect(check.status == 0, "\(check.stderr)")
        let bobsCalendar = "http://127.0.0.1:\(cyrus.server.port)/dav/calendars/user/bob/Default/"
        #expect(ConfigCheckTests.lines(check.stdout) == [
            "check: \(bobsCalendar): a CalDAV calendar (personal); "
                + "the server schedules (calendar-auto-schedule): invitations arrive in the calendar itself; "
                + "new invitations go to \(bobsCalendar) (this calendar)",
            "note: a server above schedules: the invitations it puts in your calendars wait there, not in your mail; "
                + "'calendar-invitations = yes' lets merge find and answer them",
        ], "\(check.stdout)")

        // Bob marks the calendar transparent (RFC 6638 §9.1, a PROPPATCH as a client
        // would send): config --check says so, and his Dentist is free time.
        let patch = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:propertyupdate xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>
            <C:schedule-calendar-transp><C:transparent/></C:schedule-calendar-transp></D:prop></D:set></D:propertyupdate>
            """
        let answer = try CyrusServer.run("/usr/bin/curl", ["-sS", "-w", "%{http_code}", "-X", "PROPPATCH", "-H",
                                                            "Content-Type: application/xml", "--data-binary", "@-", cyrus.calendar("bob")],
                                         stdin: patch)
        #expect(answer.hasSuffix("207"), "\(answer)")
        let transparent = try Binary.run(["config", "--check"], env: ["XDG_CONFIG_HOME": config])
        #expect(ConfigCheckTests.lines(transparent.stdout).first == "check: \(bobsCalendar): a CalDAV calendar (personal); "
                + "the server schedules (calendar-auto-schedule): invitations arrive in the calendar itself; "
                + "schedule-calendar-transp: transparent (its events are free time); new invitations go to \(bobsCalendar) (this calendar)",
                "\(transparent.stdout)")
        let invite = try Binary.temp("over-dentist.ics", Data(([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//coolcal tests//EN", "METHOD:REQUEST", "BEGIN:VEVENT", "UID:over-dentist",
            "DTSTAMP:20260101T000000Z", "DTSTART:\(C.stamp(days: 6, hour: 9))", "DTEND:\(C.stamp(days: 6, hour: 10))",
            "SUMMARY:Call", "ORGANIZER:mailto:olga@example.com", "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:\(Self.bob)",
            "END:VEVENT", "END:VCALENDAR", "",
        ]).joined(separator: "\r\n").utf8))
        let conflicts = try Binary.run(["conflicts", "--json", invite, cyrus.calendar("bob")])
        #expect(conflicts.status == 0, "\(conflicts.stdout) \(conflicts.stderr)")
        let ignored = try Binary.json(conflicts.stdout)["ignored"] as? [[String: Any]] ?? []
        #expect(ignored.map { "\($0["summary"] ?? "") \($0["reason"] ?? "")" } == ["Dentist transparent calendar"], "\(conflicts.stdout)")
    }
}

/// `20261212T140000Z` → `2026-12-12T14:00:00Z`.
enum OccurrenceText {
    static func iso(_ stamp: String) -> String {
        let c = Array(stamp)
        return "\(String(c[0..<4]))-\(String(c[4..<6]))-\(String(c[6..<8]))T\(String(c[9..<11])):\(String(c[11..<13])):\(String(c[13..<15]))Z"
    }
}
