import Foundation
import Glibc
import Testing
@testable import CoolcalCalDAV
@testable import CoolcalICal
@testable import CLITests

/// Changing your mind (issue 17): accept → decline → accept on a calendar file, a vdir
/// and a CalDAV collection (a real Radicale), answered by inbox number. The bytes
/// outside coolcal's event never change; the state (`responses`, the inbox marks,
/// `written_events`) and the outbox follow every answer.
@Suite(.serialized) struct ChangeOfMindTests {
    /// A calendar the user has: another event, a non-ASCII name, CRLF.
    static let original = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//me//hand made//EN", "X-WR-CALNAME:Wörk ✓",
        "BEGIN:VEVENT", "UID:other@example.com", "DTSTAMP:20220101T000000Z", "DTSTART:20220819T100000Z",
        "DTEND:20220819T110000Z", "SUMMARY:Other\\, with a comma", "END:VEVENT", "END:VCALENDAR",
    ].map { $0 + "\r\n" }.joined()

    static let payload = #"{"aps": {"badge": 1, "category": "INVITATION"}, "title": "Family Reunion", "start": "2022-08-20T08:00:00-08:00", "end": "2022-08-20T12:00:00-08:00", "id": 12}"#

    /// Its own state, its own home, and a server that is down (so every answer waits
    /// in the outbox, in order).
    func environment() throws -> [String: String] {
        let dir = URL(fileURLWithPath: try Binary.temp("x", Data())).deletingLastPathComponent()
        return ["COOLCAL_STATE": dir.appendingPathComponent("state").path, "HOME": dir.path,
                "COOLCAL_SERVER": "http://127.0.0.1:\(try ServerProcess.freePort())", "COOLCAL_SERVER_TIMEOUT": "1"]
    }

    /// The invitation received into the inbox, as number 1.
    func received(_ env: [String: String]) throws {
        let notify = try Binary.run(["notify", "-"], stdin: Self.payload, env: env)
        #expect(notify.status == 0, "\(notify.stderr)")
    }

    func read(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }

    func real(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    func answers(_ env: [String: String]) throws -> [String] {
        let json = try Binary.json(try Binary.run(["responses", "--json"], env: env).stdout)
        return (json["responses"] as? [[String: Any]] ?? []).compactMap { $0["answer"] as? String }
    }

    func outbox(_ env: [String: String]) throws -> [String] {
        let json = try Binary.json(try Binary.run(["outbox", "--json"], env: env).stdout)
        return (json["outbox"] as? [[String: Any]] ?? []).map { "\($0["state"] ?? "") \($0["method"] ?? "") \($0["invite_id"] ?? "")" }
    }

    /// The inbox line of number 1, without the time it was received (ASCII marks).
    func inboxLine(_ env: [String: String]) throws -> String {
        let text = try Binary.run(["inbox"], env: env.merging(["LANG": "C"]) { $1 }).stdout
        return String(text.split(separator: "\n").first?.prefix(22) ?? "")
    }

    @Test func acceptDeclineAcceptOnAFile() throws {
        let env = try environment()
        try received(env)
        let cal = try Binary.temp("work.ics", Data(Self.original.utf8))
        let accepted = try Binary.run(["accept", "1", cal], env: env)
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stdout == "accepted: Family Reunion (id 12): added to \(cal)\n")
        let withEvent = try read(cal)
        #expect(withEvent.hasPrefix(String(Self.original.dropLast("END:VCALENDAR\r\n".count)) + "BEGIN:VEVENT\r\nUID:coolcal-invite-12@"))
        #expect(withEvent.contains("STATUS:CONFIRMED\r\n"))
        #expect(try inboxLine(env) == "1   + Family Reunion  ", "answered: read")

        let declined = try Binary.run(["decline", "1"], env: env)
        #expect(declined.status == 0, "\(declined.stderr)")
        #expect(declined.stdout == "declined: Family Reunion (id 12): removed from \(real(cal))\n")
        #expect(try read(cal) == Self.original, "every byte as before the accept")
        #expect(try inboxLine(env) == "1   x Family Reunion  ")
        // Declining again finds nothing to undo: the state forgot the calendar.
        #expect(try Binary.run(["decline", "1"], env: env).stdout == "declined: Family Reunion (id 12)\n")

        let again = try Binary.run(["accept", "1", cal], env: env)
        #expect(again.stdout == "accepted: Family Reunion (id 12): added to \(cal)\n")
        #expect(try read(cal).hasPrefix(String(Self.original.dropLast("END:VCALENDAR\r\n".count))))
        #expect(try answers(env) == ["accepted", "declined", "accepted"])
        #expect(try outbox(env) == ["queued accept 12", "queued decline 12", "queued accept 12"])
        #expect(try inboxLine(env) == "1   + Family Reunion  ", "answered: read")
    }

    @Test func anEditedEventIsDeclinedInPlace() throws {
        let env = try environment()
        try received(env)
        let cal = try Binary.temp("work.ics", Data(Self.original.utf8))
        #expect(try Binary.run(["accept", "1", cal], env: env).status == 0)
        // The user moves it to the park in their calendar program.
        let edited = try read(cal).replacingOccurrences(of: "SUMMARY:Family Reunion\r\n", with: "SUMMARY:Family Reunion (in the park)\r\n")
        try Data(edited.utf8).write(to: URL(fileURLWithPath: cal))
        let declined = try Binary.run(["decline", "1"], env: env)
        #expect(declined.status == 0)
        #expect(declined.stdout == "declined: Family Reunion (id 12): declined in place in \(real(cal)) (edited since coolcal wrote it)\n")
        #expect(declined.stderr.hasPrefix("coolcal: warning: \(real(cal)): Family Reunion (id 12) was edited since coolcal wrote it; kept, declined in place (shown as free)\n"))
        // One line added, before the event's END:VEVENT (the last one in the file).
        let end = try #require(edited.range(of: "END:VEVENT\r\n", options: .backwards))
        var expected = edited
        expected.insert(contentsOf: "TRANSP:TRANSPARENT\r\n", at: end.lowerBound)
        #expect(try read(cal) == expected)
        // It is free now: an invitation at the same time has no conflict.
        let other = try Binary.temp("invite-13.json", Data(#"{"title": "Tea", "start": "2022-08-20T17:00:00Z", "end": "2022-08-20T18:00:00Z", "id": 13}"#.utf8))
        let conflicts = try Binary.run(["conflicts", "--json", "--buffer", "0", other, cal], env: env)
        #expect(try Binary.json(conflicts.stdout)["free"] as? Bool == true)
        // A second decline leaves it as it is.
        #expect(try Binary.run(["decline", "1"], env: env).stdout == "declined: Family Reunion (id 12): already declined in \(real(cal))\n")
        #expect(try read(cal) == expected)
    }

    @Test func whatMergeAcceptedIsUndoneByDecline() throws {
        let env = try environment()
        let spool = try Binary.temp("spool/a.json", Data(Self.payload.utf8))
        let dir = URL(fileURLWithPath: spool).deletingLastPathComponent().path
        let cal = try Binary.temp("work.ics", Data(Self.original.utf8))
        let merge = try Binary.run(["merge", "--me", "me@example.com", "--spool", dir, cal], env: env)
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(try read(cal) != Self.original)
        let declined = try Binary.run(["decline", "1"], env: env)
        #expect(declined.stdout == "declined: Family Reunion (id 12): removed from \(real(cal))\n")
        #expect(try read(cal) == Self.original)
    }

    @Test func acceptDeclineAcceptInAVdir() throws {
        let env = try environment()
        try received(env)
        let other = try Binary.temp("vdir/other.ics", Data(Self.original.utf8))
        let dir = URL(fileURLWithPath: other).deletingLastPathComponent().path
        func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir).filter { !$0.hasPrefix(".") }.sorted() }
        let accepted = try Binary.run(["accept", "1", dir], env: env)
        #expect(accepted.status == 0, "\(accepted.stderr)")
        let own = "coolcal-invite-12@\(NewEvent.domain(configured: nil)).ics"
        #expect(try names() == [own, "other.ics"].sorted())
        let declined = try Binary.run(["decline", "1", dir], env: env)
        #expect(declined.stdout == "declined: Family Reunion (id 12): removed from \(dir)\n")
        #expect(try names() == ["other.ics"], "the event's own file is gone")
        #expect(try read(other) == Self.original)
        #expect(try Binary.run(["accept", "1", dir], env: env).status == 0)
        #expect(try names() == [own, "other.ics"].sorted())
        #expect(try read(dir + "/" + own).contains("SUMMARY:Family Reunion\r\n"))
        #expect(try answers(env) == ["accepted", "declined", "accepted"])
    }

    @Test func anITIPInvitationIsDeclinedByItsPartstat() throws {
        let env = try environment()
        let invitation = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "METHOD:REQUEST", "BEGIN:VEVENT",
            "UID:standup-9@example.org", "DTSTAMP:20220815T091500Z", "SEQUENCE:0", "SUMMARY:Standup",
            "ORGANIZER:mailto:alice@example.org", "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:me@example.com",
            "DTSTART:20220822T100000Z", "DTEND:20220822T103000Z", "END:VEVENT", "END:VCALENDAR",
        ].map { $0 + "\r\n" }.joined()
        #expect(try Binary.run(["notify", "-"], stdin: invitation, env: env).status == 0)
        let cal = try Binary.temp("work.ics", Data(Self.original.utf8))
        let me = ["--me", "me@example.com"]
        #expect(try Binary.run(["accept"] + me + ["1", cal], env: env).status == 0)
        #expect(try read(cal).contains("ATTENDEE;PARTSTAT=ACCEPTED:mailto:me@example.com\r\n"))
        // Without --me the answer cannot go into the stored copy: said, and nothing written.
        let acceptedText = try read(cal)
        let anonymous = try Binary.run(["decline", "1"], env: env)
        #expect(anonymous.stdout == "declined: Standup (id standup-9@example.org)\n" + "  the organizer was not told: 'coolcal reply --decline --send 1' tells them (or 'reply = mail' in the config)\n")
        #expect(anonymous.stderr.hasPrefix("coolcal: warning: inbox 1: no --me (or 'me' in the config): your PARTSTAT in the stored event stays as the organizer sent it\n"))
        #expect(try read(cal) == acceptedText)
        // The user adds an alarm to the stored event; declining keeps it, byte for byte.
        let end = try #require(acceptedText.range(of: "END:VEVENT\r\n", options: .backwards))
        var withAlarm = acceptedText
        withAlarm.insert(contentsOf: "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Standup\r\nTRIGGER:-PT5M\r\nEND:VALARM\r\n", at: end.lowerBound)
        try Data(withAlarm.utf8).write(to: URL(fileURLWithPath: cal))
        let declined = try Binary.run(["decline"] + me + ["1"], env: env)
        #expect(declined.stdout == "declined: Standup (id standup-9@example.org): marked declined in \(real(cal))\n" + "  the organizer was not told: 'coolcal reply --decline --send 1' tells them (or 'reply = mail' in the config)\n")
        let text = try read(cal)
        #expect(text == withAlarm.replacingOccurrences(of: "ATTENDEE;PARTSTAT=ACCEPTED:mailto:me@example.com\r\n",
                                                       with: "ATTENDEE;PARTSTAT=DECLINED:mailto:me@example.com\r\n"),
                "only the owner's ATTENDEE line changed")
        #expect(text.contains("UID:standup-9@example.org\r\n") && text.contains("SEQUENCE:0\r\n"), "the organizer's version, so updates match")
        #expect(text.hasPrefix(String(Self.original.dropLast("END:VCALENDAR\r\n".count))) && text.hasSuffix("END:VEVENT\r\nEND:VCALENDAR\r\n"))
        #expect(try Binary.run(["accept"] + me + ["1", cal], env: env).stdout == "accepted: Standup (id standup-9@example.org): updated in \(cal)\n" + "  the organizer was not told: 'coolcal reply --accept --send 1' tells them (or 'reply = mail' in the config)\n")
        #expect(try read(cal).contains("ATTENDEE;PARTSTAT=ACCEPTED:mailto:me@example.com\r\n"))
        #expect(try answers(env) == ["accepted", "declined", "accepted"])
    }

    @Test func acceptDeclineAcceptOnCalDAV() throws {
        let server = try RadicaleServer()
        let url = server.url("/alice/cal-\(UUID().uuidString.prefix(8))/")
        let client = try CalDAVClient(calendar: url, environment: [:])
        try client.makeCalendar()
        let otherHref = client.href(forName: "other.ics")
        try client.put(otherHref, data: Data(Self.original.utf8), precondition: .create)
        let otherBefore = try #require(try client.get(otherHref))
        let env = try environment()
        try received(env)
        let accepted = try Binary.run(["accept", "1", url], env: env)
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(try client.query(window: nil).count == 2)
        let declined = try Binary.run(["decline", "1"], env: env)
        #expect(declined.status == 0, "\(declined.stderr)")
        #expect(declined.stdout == "declined: Family Reunion (id 12): removed from \(url)\n")
        let left = try client.query(window: nil)
        #expect(left.map(\.href) == [otherHref], "the event's resource was deleted")
        #expect(try client.get(otherHref) == otherBefore, "the other resource: same etag, same bytes")
        let again = try Binary.run(["accept", "1", url], env: env)
        #expect(again.stdout == "accepted: Family Reunion (id 12): added to \(url)\n")
        #expect(try client.query(window: nil).count == 2)
        #expect(try answers(env) == ["accepted", "declined", "accepted"])
        #expect(try outbox(env) == ["queued accept 12", "queued decline 12", "queued accept 12"])
        // An iTIP invitation's resource is changed in place (PUT with If-Match), not deleted.
        let invitation = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "METHOD:REQUEST", "BEGIN:VEVENT",
            "UID:standup-9@example.org", "DTSTAMP:20220815T091500Z", "SEQUENCE:0", "SUMMARY:Standup",
            "ORGANIZER:mailto:alice@example.org", "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:me@example.com",
            "DTSTART:20220822T100000Z", "DTEND:20220822T103000Z", "END:VEVENT", "END:VCALENDAR",
        ].map { $0 + "\r\n" }.joined()
        let ics = try Binary.temp("standup.ics", Data(invitation.utf8))
        #expect(try Binary.run(["accept", "--me", "me@example.com", ics, url], env: env).status == 0)
        let decline = try Binary.run(["decline", "--me", "me@example.com", ics], env: env)
        #expect(decline.stdout == "declined: Standup (id standup-9@example.org): marked declined in \(url)\n", "\(decline.stderr)")
        let stored = try #require(try client.find(uid: "standup-9@example.org"))
        let text = String(decoding: stored.data, as: UTF8.self).replacingOccurrences(of: "\r\n ", with: "")
        #expect(text.contains("ATTENDEE;PARTSTAT=DECLINED:mailto:me@example.com") && !text.contains("PARTSTAT=ACCEPTED"))
        #expect(try client.query(window: nil).count == 3)
    }
}
