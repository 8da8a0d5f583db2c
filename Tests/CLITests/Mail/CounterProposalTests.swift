import Foundation
import Testing

/// Issue #28, the counter-proposal both ways (RFC 5546 §3.2.7–3.2.8): the attendee's
/// `reply --counter` proposes the first free slot to the organizer; the organizer's
/// `merge` records it (not a failure, not applied); `accept N` moves only the times of
/// the organizer's event (SEQUENCE + 1, every other byte kept) and mails the update to
/// the attendees, whose own `merge` then takes it; `reply --decline-counter N` goes to
/// the proposer only; a counter from someone not invited is held.
@Suite struct CounterProposalTests {
    typealias Replies = OrganizerRepliesTests
    static let bob = "bob@example.org"

    /// The organizer's invitation as Bob receives it (the event of `Replies.calendar`).
    static let invitation = [
        "From: Me <\(Replies.me)>", "To: \(bob)", "Subject: Team sync", "Date: Thu, 1 Jan 2026 10:00:00 +0000",
        "Message-ID: <sync-invite@example.com>", "MIME-Version: 1.0",
        "Content-Type: text/calendar; charset=UTF-8; method=REQUEST", "",
        "BEGIN:VCALENDAR", "PRODID:-//Test//Mine//EN", "VERSION:2.0", "METHOD:REQUEST",
        "BEGIN:VEVENT", "UID:sync-1@example.com", "DTSTAMP:20260101T090000Z", "SEQUENCE:1",
        "DTSTART:20310303T100000Z", "DURATION:PT1H", "SUMMARY:Team sync", "ORGANIZER;CN=Me:mailto:\(Replies.me)",
        "ATTENDEE;CN=Bob Example;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:\(bob)",
        "ATTENDEE;CN=Carol;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:carol@example.org",
        "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")

    /// Bob's calendar: the dentist all Monday morning (the proposed slot must miss it),
    /// and a past event of the organizer's (so that the organizer is someone Bob knows).
    static let bobsCalendar = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Bob//EN",
        "BEGIN:VEVENT", "UID:dentist@example.org", "DTSTAMP:20260101T090000Z",
        "DTSTART:20310303T090000Z", "DTEND:20310303T130000Z", "SUMMARY:Dentist", "END:VEVENT",
        "BEGIN:VEVENT", "UID:old@example.com", "DTSTAMP:20200101T090000Z", "DTSTART:20200303T100000Z", "DURATION:PT1H",
        "SUMMARY:Old", "ORGANIZER:mailto:\(Replies.me)", "ATTENDEE;PARTSTAT=ACCEPTED:mailto:\(bob)", "END:VEVENT",
        "END:VCALENDAR", "",
    ].joined(separator: "\r\n")

    struct Party {
        let box: HeldMergeTests.Box
        var state: String { box.root + "/state" }
        var env: [String: String] { ["COOLCAL_SENDMAIL": box.root + "/sendmail"] }

        func run(_ args: [String]) throws -> Run {
            try Binary.run(args + ["--state", state], env: env)
        }

        /// The messages the sendmail was given, in order.
        func mails() -> [String] {
            box.mailed().components(separatedBy: "--- end of message\n").filter { !$0.isEmpty }
        }
    }

    func organizer() throws -> Party { Party(box: try Replies().box()) }

    func attendee() throws -> Party {
        let box = try HeldMergeTests().box()
        try Data(Self.bobsCalendar.utf8).write(to: URL(fileURLWithPath: box.calendar))
        try Data(Self.invitation.utf8).write(to: URL(fileURLWithPath: box.root + "/invite.eml"))
        return Party(box: box)
    }

    func inbox(_ party: Party) throws -> [[String: Any]] {
        try Binary.json(try party.run(["inbox", "--json"]).stdout)["invitations"] as? [[String: Any]] ?? []
    }

    @Test func aCounterProposalMakesTheRoundTrip() throws {
        let bob = try attendee()
        let proposed = try bob.run(["reply", "--counter", "--send", "--me", Self.bob, "--tz", "UTC", "--buffer", "0",
                                    bob.box.root + "/invite.eml", bob.box.calendar])
        #expect(proposed.status == 0, "\(proposed.stdout)\(proposed.stderr)")
        #expect(proposed.stdout.contains("proposed: Team sync: Mar 3, 2031, 1:00\u{2009}–\u{2009}2:00\u{202F}PM, mailed to "), "\(proposed.stdout)")
        #expect(proposed.stdout.hasSuffix("\n  times in UTC\n"), "\(proposed.stdout)")
        let counter = try #require(bob.mails().first)
        #expect(bob.mails().count == 1)
        #expect(counter.contains("method=COUNTER") && counter.contains("METHOD:COUNTER"), "\(counter)")
        #expect(counter.contains("To: Me <\(Replies.me)>"), "\(counter)")
        #expect(counter.contains("DTSTART:20310303T130000Z") && counter.contains("DTEND:20310303T140000Z"), "\(counter)")
        #expect(counter.contains("SEQUENCE:1"), "a COUNTER echoes the invitation's SEQUENCE")

        // The organizer's merge records it for the person: nothing written, nothing mailed.
        let me = try organizer()
        let before = try me.box.bytes()
        try me.box.deliver("1.counter", counter)
        let merged = try me.box.merge()
        #expect(try me.box.outcomes(merged).map { $0["outcome"] as? String } == ["proposed"], "\(merged.stdout)\(merged.stderr)")
        #expect(try me.box.bytes() == before)
        #expect(me.mails().isEmpty)
        let entry = try #require(try inbox(me).first)
        #expect(entry["kind"] as? String == "counter")
        #expect(entry["title"] as? String == "\(Self.bob) proposes a new time for Team sync")
        #expect(entry["start"] as? String == "2031-03-03T13:00:00Z")
        let number = try #require(entry["number"] as? Int)

        // Accepting it moves only the times (SEQUENCE 2) and tells Bob and Carol.
        let accepted = try me.run(["accept", "--reply", "--me", Replies.me, String(number), me.box.calendar])
        #expect(accepted.status == 0, "\(accepted.stdout)\(accepted.stderr)")
        #expect(accepted.stdout.hasPrefix("moved to the proposed time: "), "\(accepted.stdout)")
        let after = String(decoding: try me.box.bytes(), as: UTF8.self)
        let stamp = try #require(after.split(separator: "\r\n").first { $0.hasPrefix("DTSTAMP:2") && $0 != "DTSTAMP:20260101T090000Z" })
        let expected = Replies.calendar.replacingOccurrences(
            of: "DTSTAMP:20260101T090000Z\r\nSEQUENCE:1\r\nDTSTART:20310303T100000Z\r\nDURATION:PT1H\r\n",
            with: "DTSTART:20310303T130000Z\r\nDTEND:20310303T140000Z\r\nSEQUENCE:2\r\n\(stamp)\r\n")
        #expect(after == expected)
        let update = try #require(me.mails().first)
        #expect(me.mails().count == 1)
        #expect(update.contains("method=REQUEST") && update.contains("METHOD:REQUEST") && update.contains("SEQUENCE:2"), "\(update)")
        #expect(update.contains(Self.bob) && update.contains("carol@example.org"))
        #expect(!update.contains("BEGIN:VALARM"), "the organizer's alarm is not sent")
        #expect(try inbox(me).first?["answer"] as? String == "accepted")

        // Bob's merge takes the update: the event at the new time in his calendar.
        try bob.box.deliver("1.update", update)
        let taken = try Binary.run(["merge", "--json", "--me", Self.bob, "--buffer", "0", "--state", bob.state,
                                    "--spool", bob.box.maildir, bob.box.calendar], env: bob.env)
        #expect(try bob.box.outcomes(taken).map { $0["outcome"] as? String } == ["accepted"], "\(taken.stdout)\(taken.stderr)")
        let bobs = String(decoding: try bob.box.bytes(), as: UTF8.self)
        #expect(bobs.contains("UID:sync-1@example.com") && bobs.contains("DTSTART:20310303T130000Z") && bobs.contains("SEQUENCE:2"))
    }

    /// `--at` names the start (wall-clock time in `--tz`); the length stays the invitation's.
    @Test func atNamesTheProposedStart() throws {
        let bob = try attendee()
        let printed = try bob.run(["reply", "--counter", "--at", "2031-03-04T15:00", "--tz", "Europe/Berlin", "--me", Self.bob,
                                   "--comment", "After lunch?", bob.box.root + "/invite.eml"])
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stdout.contains("METHOD:COUNTER") && printed.stdout.contains("DTSTART:20310304T140000Z")
                && printed.stdout.contains("DTEND:20310304T150000Z") && printed.stdout.contains("COMMENT:After lunch?"), "\(printed.stdout)")
        #expect(bob.mails().isEmpty, "printing mails nothing")
    }

    /// What `reply --counter` refuses before it proposes anything (65 for the message, 64
    /// for `--at`), and an all-day invitation's `--at` date, which keeps its length in days.
    @Test func whatACounterProposalRefusesAndAnAllDayOnesDate() throws {
        let bob = try attendee()
        func counter(_ invitation: String, _ extra: [String] = []) throws -> Run {
            try Data(invitation.utf8).write(to: URL(fileURLWithPath: bob.box.root + "/other.eml"))
            return try bob.run(["reply", "--counter", "--me", Self.bob, "--tz", "UTC"] + extra + [bob.box.root + "/other.eml", bob.box.calendar])
        }
        let series = try counter(Self.invitation.replacingOccurrences(of: "DURATION:PT1H\r\n", with: "DURATION:PT1H\r\nRRULE:FREQ=WEEKLY\r\n"))
        #expect(series.status == 65 && series.stderr.contains("is a recurring series; coolcal proposes new times for single events"),
                "\(series.stderr)")
        let cancel = try counter(Self.invitation.replacingOccurrences(of: "REQUEST", with: "CANCEL"))
        #expect(cancel.status == 65 && cancel.stderr.contains("is not an iCalendar invitation (METHOD:REQUEST); a counter-proposal answers one"),
                "\(cancel.stderr)")
        let allDay = Self.invitation.replacingOccurrences(of: "DTSTART:20310303T100000Z\r\nDURATION:PT1H",
                                                          with: "DTSTART;VALUE=DATE:20310303\r\nDTEND;VALUE=DATE:20310305")
        let timed = try counter(allDay, ["--at", "2031-03-10T15:00"])
        #expect(timed.status == 64 && timed.stderr.contains("--at: an all-day invitation takes a date (2031-03-04)"), "\(timed.stderr)")
        let dated = try counter(allDay, ["--at", "2031-03-10"])
        #expect(dated.status == 0, "\(dated.stderr)")
        #expect(dated.stdout.contains("METHOD:COUNTER") && dated.stdout.contains("DTSTART;VALUE=DATE:20310310")
                && dated.stdout.contains("DTEND;VALUE=DATE:20310312"), "\(dated.stdout)")
        #expect(bob.mails().isEmpty)
    }

    /// Busy every day of the horizon: no slot, exit 1, nothing mailed.
    @Test func noFreeSlotIsExitOne() throws {
        let bob = try attendee()
        let always = Self.bobsCalendar.replacingOccurrences(of: "DTEND:20310303T130000Z",
                                                           with: "DTEND:20310303T235900Z\r\nRRULE:FREQ=DAILY")
            .replacingOccurrences(of: "DTSTART:20310303T090000Z", with: "DTSTART:20310301T000000Z")
        try Data(always.utf8).write(to: URL(fileURLWithPath: bob.box.calendar))
        let run = try bob.run(["reply", "--counter", "--send", "--weekends", "--me", Self.bob, "--tz", "UTC",
                               bob.box.root + "/invite.eml", bob.box.calendar])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasPrefix("no free slot"), "\(run.stdout)")
        #expect(bob.mails().isEmpty)
    }

    /// The organizer says no: the DECLINECOUNTER goes to Bob alone. Eve, not invited, is held.
    @Test func aDeclinedCounterGoesToTheProposerOnlyAndAStrangersIsHeld() throws {
        let bob = try attendee()
        _ = try bob.run(["reply", "--counter", "--send", "--me", Self.bob, "--tz", "UTC", "--buffer", "0",
                         bob.box.root + "/invite.eml", bob.box.calendar])
        let counter = try #require(bob.mails().first)
        let me = try organizer()
        try me.box.deliver("1.counter", counter)
        let eve = counter.replacingOccurrences(of: "From: Bob Example <\(Self.bob)>", with: "From: Eve <eve@example.org>")
        #expect(eve != counter)
        try me.box.deliver("2.eve", eve)
        let merged = try me.box.merge()
        #expect(try me.box.outcomes(merged).map { "\($0["outcome"] as? String ?? "") \($0["held"] as? String ?? "-")" }
                == ["proposed -", "held uninvited attendee"], "\(merged.stdout)")
        let number = try #require(try inbox(me).first { $0["held"] is NSNull }?["number"] as? Int)
        // Eve is never answered, not even with a no.
        let eves = try #require(try inbox(me).first { $0["held"] as? String == "uninvited attendee" }?["number"] as? Int)
        let refused = try me.run(["reply", "--decline-counter", "--send", "--me", Replies.me, String(eves)])
        #expect(refused.status == 65 && refused.stderr.contains("is held (uninvited attendee)"), "\(refused.stderr)")
        #expect(me.mails().isEmpty)
        let printed = try me.run(["reply", "--decline-counter", "--me", Replies.me, String(number)])
        #expect(printed.status == 0, "\(printed.stderr)")
        // RFC 5546 §3.2.8: no ATTENDEE in a DECLINECOUNTER; the mail's To names Bob.
        #expect(printed.stdout.contains("METHOD:DECLINECOUNTER") && !printed.stdout.contains("ATTENDEE"), "\(printed.stdout)")
        #expect(!printed.stdout.contains("carol@example.org"))
        let sent = try me.run(["reply", "--decline-counter", "--send", "--me", Replies.me, String(number)])
        #expect(sent.status == 0, "\(sent.stderr)")
        let mail = try #require(me.mails().first)
        #expect(mail.contains("To: \(Self.bob)") && mail.contains("method=DECLINECOUNTER"), "\(mail)")
        #expect(!mail.contains("carol@example.org"))
        let before = try me.box.bytes()
        let declined = try me.run(["decline", String(number)])
        #expect(declined.status == 64 && declined.stderr.contains("reply --decline-counter"), "\(declined.stderr)")
        #expect(try me.box.bytes() == before)
    }
}
