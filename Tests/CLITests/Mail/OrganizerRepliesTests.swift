import Foundation
import Testing

/// Issue #28, the organizer's side: an attendee's `METHOD:REPLY` in the Maildir updates
/// that attendee's `PARTSTAT` in the event I organise — that one line, every other byte
/// kept — is listed in the inbox, and keeps cron quiet; a party crasher's reply, or one
/// mailed by someone else, is held; an older reply changes nothing.
@Suite struct OrganizerRepliesTests {
    static let me = "me@example.com"

    /// My event: Bob and Carol invited, an alarm and a note of mine that must survive.
    static let calendar = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Mine//EN",
        "BEGIN:VEVENT", "UID:sync-1@example.com", "DTSTAMP:20260101T090000Z", "SEQUENCE:1",
        "DTSTART:20310303T100000Z", "DURATION:PT1H", "SUMMARY:Team sync",
        "ORGANIZER;CN=Me:mailto:\(me)",
        "ATTENDEE;CN=Bob Example;PARTSTAT=NEEDS-ACTION;RSVP=TRUE;ROLE=REQ-PARTICIPANT:mai",
        " lto:bob@example.org",
        "ATTENDEE;CN=Carol;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:carol@example.org",
        "X-MY-NOTE:bring the slides",
        "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Sync", "TRIGGER:-PT10M", "END:VALARM",
        "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")

    static func reply(from: String, attendee: String, partstat: String, stamp: String = "20260102T090000Z",
                      sequence: Int = 1, uid: String = "sync-1@example.com", parameters: String = "") -> String {
        let ics = [
            "BEGIN:VCALENDAR", "PRODID:-//Test//Reply//EN", "VERSION:2.0", "METHOD:REPLY",
            "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:\(stamp)", "SEQUENCE:\(sequence)", "SUMMARY:Team sync",
            "ORGANIZER:mailto:\(me)", "ATTENDEE;PARTSTAT=\(partstat)\(parameters):mailto:\(attendee)",
            "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        return [
            "From: \(from)", "To: \(me)", "Subject: Reply", "Date: Fri, 2 Jan 2026 10:00:00 +0100",
            "Message-ID: <\(UUID().uuidString)@example.org>", "MIME-Version: 1.0",
            "Content-Type: text/calendar; charset=UTF-8; method=REPLY", "", ics,
        ].joined(separator: "\r\n")
    }

    func box() throws -> HeldMergeTests.Box {
        let b = try HeldMergeTests().box()
        try Data(Self.calendar.utf8).write(to: URL(fileURLWithPath: b.calendar))
        return b
    }

    func outcomes(_ run: Run) throws -> [String] {
        (try Binary.json(run.stdout)["outcomes"] as? [[String: Any]] ?? []).map {
            "\($0["outcome"] as? String ?? "") \($0["held"] as? String ?? "-")"
        }
    }

    @Test func aReplyUpdatesOnlyThatAttendeesLine() throws {
        let b = try box()
        try b.deliver("1.bob", Self.reply(from: "Bob <bob@example.org>", attendee: "bob@example.org", partstat: "ACCEPTED"))
        let run = try b.merge()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try outcomes(run) == ["updated -"], "\(run.stdout)")
        let expected = Self.calendar.replacingOccurrences(
            of: "ATTENDEE;CN=Bob Example;PARTSTAT=NEEDS-ACTION;RSVP=TRUE;ROLE=REQ-PARTICIPANT:mai\r\n lto:bob@example.org",
            with: "ATTENDEE;PARTSTAT=ACCEPTED;CN=Bob Example;RSVP=TRUE;ROLE=REQ-PARTICIPANT:ma\r\n ilto:bob@example.org")
        #expect(String(decoding: try b.bytes(), as: UTF8.self) == expected)
        #expect(b.mailed().isEmpty, "nothing is mailed about a reply")
        let inbox = try Binary.run(["inbox", "--json", "--state", b.root + "/state"])
        let entry = (try Binary.json(inbox.stdout)["invitations"] as? [[String: Any]])?.first
        #expect(entry?["title"] as? String == "bob@example.org accepted Team sync", "\(inbox.stdout)")
        #expect(entry?["kind"] as? String == "reply")
        // cron stays quiet: -q prints nothing for a reply applied, or one for someone else's event.
        try b.deliver("2.carol", Self.reply(from: "carol@example.org", attendee: "carol@example.org", partstat: "DECLINED"))
        try b.deliver("3.other", Self.reply(from: "dan@example.org", attendee: "dan@example.org", partstat: "ACCEPTED", uid: "not-mine@example.net"))
        let quiet = try Binary.run(["merge", "-q", "--me", Self.me, "--state", b.root + "/state", "--spool", b.maildir, b.calendar])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet.stdout)\(quiet.stderr)")
        #expect(String(decoding: try b.bytes(), as: UTF8.self).contains("ATTENDEE;PARTSTAT=DECLINED;CN=Carol;RSVP=TRUE:mailto:carol@example.org"))
    }

    /// RFC 5546's party crasher is not added; a reply mailed by someone else than the
    /// attendee it speaks for is not applied.
    @Test func aCrasherOrAForgedReplyIsHeld() throws {
        let b = try box()
        let before = try b.bytes()
        try b.deliver("1.eve", Self.reply(from: "Eve <eve@example.org>", attendee: "eve@example.org", partstat: "ACCEPTED"))
        try b.deliver("2.forged", Self.reply(from: "Mallory <mallory@evil.example>", attendee: "bob@example.org", partstat: "DECLINED"))
        let run = try b.merge()
        #expect(try outcomes(run) == ["held uninvited attendee", "held not from the organizer"], "\(run.stdout)")
        #expect(try b.bytes() == before)
        let held = try Binary.run(["inbox", "--held", "--state", b.root + "/state"])
        #expect(held.stdout.contains("held: reply, uninvited attendee"), "\(held.stdout)")
    }

    /// Replies are versions: Bob's older reply, arriving after his newer one, changes
    /// nothing; a reply to an older SEQUENCE of the event neither.
    @Test func anOlderReplyChangesNothing() throws {
        let b = try box()
        try b.deliver("1.new", Self.reply(from: "bob@example.org", attendee: "bob@example.org", partstat: "ACCEPTED", stamp: "20260105T090000Z"))
        #expect(try outcomes(try b.merge()) == ["updated -"])
        let after = try b.bytes()
        try b.deliver("2.old", Self.reply(from: "bob@example.org", attendee: "bob@example.org", partstat: "DECLINED", stamp: "20260103T090000Z"))
        #expect(try outcomes(try b.merge()) == ["ignored -"])
        try b.deliver("3.stale", Self.reply(from: "bob@example.org", attendee: "bob@example.org", partstat: "DECLINED",
                                            stamp: "20260106T090000Z", sequence: 0))
        #expect(try outcomes(try b.merge()) == ["ignored -"])
        #expect(try b.bytes() == after)
    }

    /// `--policy report` says what it would do, and does nothing: `would update` for a
    /// reply to my event and for a newer version of a stored invitation, `would hold` for
    /// a forged reply.
    @Test func reportSaysWouldUpdate() throws {
        let b = try box()
        let alices = [
            "BEGIN:VEVENT", "UID:theirs@example.org", "DTSTAMP:20260101T090000Z", "SEQUENCE:0", "DTSTART:20310305T100000Z",
            "DURATION:PT1H", "SUMMARY:Their meeting", "ORGANIZER:mailto:alice@example.org",
            "ATTENDEE;PARTSTAT=ACCEPTED:mailto:\(Self.me)", "END:VEVENT", "",
        ].joined(separator: "\r\n")
        try Data(Self.calendar.replacingOccurrences(of: "END:VCALENDAR", with: alices + "END:VCALENDAR").utf8)
            .write(to: URL(fileURLWithPath: b.calendar))
        let before = try b.bytes()
        try b.deliver("1.bob", Self.reply(from: "Bob <bob@example.org>", attendee: "bob@example.org", partstat: "ACCEPTED"))
        try b.deliver("2.forged", Self.reply(from: "mallory@evil.example", attendee: "carol@example.org", partstat: "DECLINED"))
        let update = [
            "From: alice@example.org", "To: \(Self.me)", "Subject: Moved", "Message-ID: <moved@example.org>", "MIME-Version: 1.0",
            "Content-Type: text/calendar; charset=UTF-8; method=REQUEST", "",
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Alice//EN", "METHOD:REQUEST",
            alices.replacingOccurrences(of: "SEQUENCE:0", with: "SEQUENCE:1").replacingOccurrences(of: "T100000Z", with: "T140000Z")
                .replacingOccurrences(of: "PARTSTAT=ACCEPTED", with: "PARTSTAT=NEEDS-ACTION") + "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        try b.deliver("3.update", update)
        let run = try Binary.run(["merge", "--policy", "report", "--me", Self.me, "--state", b.root + "/state", "--spool", b.maildir, b.calendar])
        #expect(run.status == 0, "\(run.stderr)")
        // Each outcome line (the last names the zone of its times).
        let words = run.stdout.split(separator: "\n").filter { !$0.hasPrefix("times in ") }.map { $0.split(separator: " ").prefix(3).joined(separator: " ") }
        #expect(words == ["would update new/1.bob", "would hold new/2.forged", "would update new/3.update"], "\(run.stdout)")
        #expect(try b.bytes() == before)
        #expect(b.mailed().isEmpty)
    }

    /// Delegation (RFC 5546 §3.2.3): Bob delegates to Dave (his line says so), Dave's reply
    /// on Bob's behalf adds Dave; Eve claiming Carol's delegation (Carol delegated nothing)
    /// is held.
    @Test func aDelegateIsAddedOnTheDelegatorsWord() throws {
        let b = try box()
        try b.deliver("1.bob", Self.reply(from: "bob@example.org", attendee: "bob@example.org", partstat: "DELEGATED",
                                          parameters: ";DELEGATED-TO=\"mailto:dave@example.org\""))
        try b.deliver("2.dave", Self.reply(from: "dave@example.org", attendee: "dave@example.org", partstat: "ACCEPTED",
                                           stamp: "20260102T100000Z", parameters: ";DELEGATED-FROM=\"mailto:bob@example.org\""))
        try b.deliver("3.eve", Self.reply(from: "eve@example.org", attendee: "eve@example.org", partstat: "ACCEPTED",
                                          stamp: "20260102T110000Z", parameters: ";DELEGATED-FROM=\"mailto:carol@example.org\""))
        let run = try b.merge()
        #expect(try outcomes(run) == ["updated -", "updated -", "held uninvited attendee"], "\(run.stdout)")
        let expected = Self.calendar
            .replacingOccurrences(
                of: "ATTENDEE;CN=Bob Example;PARTSTAT=NEEDS-ACTION;RSVP=TRUE;ROLE=REQ-PARTICIPANT:mai\r\n lto:bob@example.org",
                with: "ATTENDEE;PARTSTAT=DELEGATED;DELEGATED-TO=\"mailto:dave@example.org\";CN=Bob E\r\n xample;RSVP=TRUE;ROLE=REQ-PARTICIPANT:mailto:bob@example.org")
            .replacingOccurrences(
                of: "END:VALARM\r\nEND:VEVENT",
                with: "END:VALARM\r\nATTENDEE;PARTSTAT=ACCEPTED;DELEGATED-FROM=\"mailto:bob@example.org\":mailto:d\r\n ave@example.org\r\nEND:VEVENT")
        let after = String(decoding: try b.bytes(), as: UTF8.self)
        #expect(after == expected, "\(after.debugDescription)")
        let inbox = try Binary.run(["inbox", "--json", "--state", b.root + "/state"])
        let titles = (try Binary.json(inbox.stdout)["invitations"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        #expect(titles.contains("bob@example.org delegated Team sync to dave@example.org"), "\(titles)")
    }
}
