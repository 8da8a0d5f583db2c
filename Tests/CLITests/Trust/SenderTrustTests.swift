import Foundation
import Testing

/// Whom `merge` accepts new invitations from (issue #27): `accept-from` (default `known`:
/// people in my calendars and people I answered before), forwards, and mail my own server
/// says failed DMARC. What fails is held — nothing written, nobody mailed, the message
/// left for the person, in `inbox --held` with its reason — and `accept N` decides.
@Suite struct SenderTrustTests {
    typealias T = OrganizerBindingTests

    /// A mail of `ics` from `from`, with extra header lines on top (as a server adds them).
    static func mail(_ ics: String, from: String, headers: [String] = []) -> String {
        (headers + [
            "From: \(from)", "To: \(T.me)", "Subject: Invitation", "Date: Tue, 1 Dec 2026 10:00:00 +0100",
            "Message-ID: <\(UUID().uuidString)@mail.example.org>", "MIME-Version: 1.0",
            "Content-Type: text/calendar; charset=UTF-8; method=REQUEST", "", ics,
        ]).joined(separator: "\r\n")
    }

    static func stranger(uid: String = "casino@spam.example", start: String = "20310303T100000Z") -> String {
        T.message(organizer: "bob@stranger.example", start: start, summary: "Win big", uid: uid)
    }

    func outcome(_ run: Run) throws -> (outcome: String?, held: String?) {
        let first = (try Binary.json(run.stdout)["outcomes"] as? [[String: Any]])?.first
        return (first?["outcome"] as? String, first?["held"] as? String)
    }

    func inbox(_ b: HeldMergeTests.Box, _ extra: [String] = []) throws -> Run {
        try Binary.run(["inbox", "--state", b.root + "/state"] + extra)
    }

    @Test func anUnknownSenderIsHeldUntilIAcceptThenKnown() throws {
        let b = try HeldMergeTests().box()
        try b.deliver("1.casino", Self.mail(Self.stranger(), from: "Bob <bob@stranger.example>"))
        let before = try b.bytes()
        let run = try b.merge()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try outcome(run) == ("held", "unknown sender"), "\(run.stdout)")
        #expect(try b.bytes() == before, "an unknown sender's invitation was written")
        #expect(b.mailed().isEmpty, "coolcal answered a stranger")
        #expect(try b.new() == ["1.casino"], "a held message stays unmarked")
        // The text line says why in a word and where to look; -q prints it once.
        try b.deliver("2.casino", Self.mail(Self.stranger(uid: "casino-2@spam.example"), from: "Bob <bob@stranger.example>"))
        let quiet = try Binary.run(["merge", "-q", "--me", T.me, "--state", b.root + "/state", "--spool", b.maildir, b.calendar])
        #expect(quiet.stdout == "held      new/2.casino  Win big  Mar 3, 2031, 10:00\u{202F}AM  (unknown sender; coolcal inbox --held)\ntimes in UTC\n",
                "\(quiet.stdout)\(quiet.stderr)")
        #expect(try Binary.run(["merge", "-q", "--me", T.me, "--state", b.root + "/state", "--spool", b.maildir, b.calendar]).stdout == "")
        // The inbox shows both with the reason; JSON ends with held and kind.
        let held = try inbox(b, ["--held"])
        #expect(held.stdout.components(separatedBy: "held: unknown sender").count == 3, "\(held.stdout)")
        let json = try Binary.json(try inbox(b, ["--held", "--json"]).stdout)
        let entries = json["invitations"] as? [[String: Any]] ?? []
        #expect(entries.map { $0["held"] as? String } == ["unknown sender", "unknown sender"])
        #expect(entries.map { $0["kind"] as? String } == ["invitation", "invitation"])
        // A person decides: accept writes it, the hold is gone, Bob is known from now on.
        let number = try #require(entries.last?["number"] as? Int)
        let accept = try Binary.run(["accept", "--me", T.me, "--state", b.root + "/state", String(number), b.calendar])
        #expect(accept.status == 0, "\(accept.stdout)\(accept.stderr)")
        #expect(String(decoding: try b.bytes(), as: UTF8.self).contains("UID:casino@spam.example"))
        let after = try Binary.json(try inbox(b, ["--json"]).stdout)["invitations"] as? [[String: Any]] ?? []
        #expect(after.first { $0["id"] as? String == "casino@spam.example" }?["held"] is NSNull)
        #expect(try inbox(b, ["--held"]).stdout.components(separatedBy: "held: unknown sender").count == 2)
        try b.deliver("3.lunch", Self.mail(T.message(organizer: "bob@stranger.example", start: "20310310T120000Z", summary: "Lunch",
                                                     uid: "lunch@stranger.example"), from: "Bob <bob@stranger.example>"))
        #expect(try outcome(try b.merge()) == ("accepted", nil))
    }

    /// Attendees of events I organise are known too (issue #43), a co-attendee of someone
    /// else's meeting is not; an address or a domain in `accept-from` admits;
    /// `--accept-from` replaces the config's lines for one run.
    @Test func acceptFromRulesAndTheCalendarsPeople() throws {
        let b = try HeldMergeTests().box()
        // Colin only attends Alice's review with me; Carol is on the list of my own party.
        let withCarol = HeldMergeTests.calendarKnowingAlice.replacingOccurrences(
            of: "END:VEVENT", with: "ATTENDEE;PARTSTAT=ACCEPTED:mailto:colin@team.example\r\nEND:VEVENT").replacingOccurrences(
            of: "END:VCALENDAR", with: "BEGIN:VEVENT\r\nUID:party-2020@example.com\r\nDTSTAMP:20200101T090000Z\r\n"
                + "DTSTART:20200404T180000Z\r\nDURATION:PT3H\r\nSUMMARY:My party\r\nORGANIZER:mailto:\(T.me)\r\n"
                + "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:Carol@Team.Example\r\nEND:VEVENT\r\nEND:VCALENDAR")
        try Data(withCarol.utf8).write(to: URL(fileURLWithPath: b.calendar))
        try b.deliver("0.colin", Self.mail(T.message(organizer: "colin@team.example", start: "20310302T100000Z", uid: "co@team.example"),
                                           from: "Colin <colin@team.example>"))
        #expect(try outcome(try b.merge()) == ("held", "unknown sender"), "a co-attendee of Alice's meeting is known")
        try b.deliver("1.carol", Self.mail(T.message(organizer: "carol@team.example", uid: "c@team.example"), from: "Carol <carol@team.example>"))
        #expect(try outcome(try b.merge()) == ("accepted", nil), "an attendee of my own event is known")
        try b.deliver("2.dan", Self.mail(T.message(organizer: "dan@corp.example", start: "20310401T100000Z", uid: "d@corp.example"),
                                         from: "Dan <dan@corp.example>"))
        let byConfig = try b.merge(config: "accept-from = known\naccept-from = @corp.example\n")
        #expect(try outcome(byConfig) == ("accepted", nil), "\(byConfig.stdout)\(byConfig.stderr)")
        try b.deliver("3.erin", Self.mail(T.message(organizer: "erin@else.example", start: "20310402T100000Z", uid: "e@else.example"),
                                          from: "Erin <erin@else.example>"))
        // The config would take anyone; the flag says only Alice, for this run.
        let byFlag = try b.merge(["--accept-from", "alice@example.org"], config: "accept-from = anyone\n")
        #expect(try outcome(byFlag) == ("held", "unknown sender"), "\(byFlag.stdout)")
        let bad = try b.merge(config: "accept-from = everybody\n")
        #expect(bad.status == 78)
        #expect(bad.stderr.contains("config: line 1: accept-from 'everybody' is not anyone, known, an address or @domain"), "\(bad.stderr)")
        let badFlag = try b.merge(["--accept-from", "nobody at all"])
        #expect(badFlag.status == 64)
        let config = try Binary.run(["config"], env: ["XDG_CONFIG_HOME": b.root + "/none"])
        #expect(config.stdout.contains("accept-from   known  (default)\n"), "\(config.stdout)")
        #expect(config.stdout.contains("trusted-authserv (none)  (default)\n"), "\(config.stdout)")
    }

    /// A forward (the mail is not the organizer's) is held; so is a new invitation whose
    /// ORGANIZER names the mail's sender as SENT-BY: a message never vouches for itself
    /// (issue #43). The organizer's own mail is accepted.
    @Test func aForwardIsHeldAndSoIsASelfDeclaredDelegate() throws {
        let b = try HeldMergeTests().box()
        try b.deliver("1.fwd", Self.mail(T.message(uid: "fwd@example.org"), from: "Frank <frank@example.net>"))
        let forwarded = try b.merge()
        #expect(try outcome(forwarded) == ("held", "not from the organizer"), "\(forwarded.stdout)")
        #expect(b.mailed().isEmpty)
        try b.deliver("2.delegate", Self.mail(T.message(sentBy: "assistant@example.org", uid: "delegated@example.org"),
                                              from: "Assistant <assistant@example.org>"))
        #expect(try outcome(try b.merge()) == ("held", "not from the organizer"))
        try b.deliver("3.alice", Self.mail(T.message(sentBy: "assistant@example.org", uid: "own@example.org"),
                                           from: "Alice <alice@example.org>"))
        #expect(try outcome(try b.merge()) == ("accepted", nil))
    }

    /// A booking confirmation names no attendee and often no organizer: held as published;
    /// with `allow-publish = yes` the mail's sender answers for it, so `accept-from` still
    /// decides. A mail without any From vouches for nobody.
    @Test func publishedEventsAnswerToTheirSender() throws {
        let b = try HeldMergeTests().box()
        let booking = [
            "BEGIN:VCALENDAR", "PRODID:-//Rail//Tickets//EN", "VERSION:2.0", "METHOD:PUBLISH",
            "BEGIN:VEVENT", "UID:ticket-1@rail.example", "DTSTAMP:20260101T090000Z",
            "DTSTART:20310303T070000Z", "DTEND:20310303T100000Z", "SUMMARY:Train to Berlin",
            "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        try b.deliver("1.ticket", Self.mail(booking, from: "Rail <noreply@rail.example>").replacingOccurrences(of: "method=REQUEST", with: "method=PUBLISH"))
        #expect(try outcome(try b.merge()) == ("held", "published"))
        try b.deliver("2.ticket", Self.mail(booking.replacingOccurrences(of: "ticket-1", with: "ticket-2"), from: "Rail <noreply@rail.example>")
            .replacingOccurrences(of: "method=REQUEST", with: "method=PUBLISH"))
        #expect(try outcome(try b.merge(config: "allow-publish = yes\n")) == ("held", "unknown sender"))
        try b.deliver("3.ticket", Self.mail(booking.replacingOccurrences(of: "ticket-1", with: "ticket-3"), from: "Rail <noreply@rail.example>")
            .replacingOccurrences(of: "method=REQUEST", with: "method=PUBLISH"))
        let allowed = try b.merge(config: "allow-publish = yes\naccept-from = @rail.example\n")
        #expect(try outcome(allowed) == ("accepted", nil), "\(allowed.stdout)\(allowed.stderr)")
        // No From at all: nobody vouches for it (issue #43: `no sender`).
        let anonymous = Self.mail(T.message(uid: "anon@example.org"), from: "x").replacingOccurrences(of: "From: x\r\n", with: "")
        try b.deliver("4.anonymous", anonymous)
        #expect(try outcome(try b.merge()) == ("held", "no sender"))
    }

    /// decline-busy declines by mail only people I accept from: a stranger's invitation
    /// into a busy slot is held and nobody is mailed; Alice's is declined to Alice.
    @Test func declineBusyMailsNoStranger() throws {
        let b = try HeldMergeTests().box()
        try b.deliver("1.mine", Self.mail(T.message(uid: "busy@example.org"), from: "Alice <alice@example.org>"))
        #expect(try outcome(try b.merge()) == ("accepted", nil))
        let mailedBefore = b.mailed()
        try b.deliver("2.spam", Self.mail(Self.stranger(), from: "Bob <bob@stranger.example>"))
        let spam = try b.merge(["--policy", "decline-busy"])
        #expect(try outcome(spam) == ("held", "unknown sender"), "\(spam.stdout)")
        #expect(b.mailed() == mailedBefore, "decline-busy mailed a stranger")
        try b.deliver("3.clash", Self.mail(T.message(summary: "Clash", uid: "clash@example.org"), from: "Alice <alice@example.org>"))
        let clash = try b.merge(["--policy", "decline-busy"])
        #expect(try outcome(clash) == ("declined", nil), "\(clash.stdout)")
        let mailed = b.mailed().dropFirst(mailedBefore.count)
        #expect(mailed.contains("To: Organizer <alice@example.org>") && mailed.contains("PARTSTAT=DECLINED"), "\(mailed)")
        #expect(!b.mailed().contains("stranger.example"))
    }

    /// `Authentication-Results` counts only from my own server (`trusted-authserv`), and
    /// only its topmost header: dmarc=fail there holds; anyone else's header is ignored.
    @Test func dmarcFailFromMyServerHoldsAndOtherServersAreIgnored() throws {
        let b = try HeldMergeTests().box()
        let config = "trusted-authserv = mx.mine.example\n"
        let fail = "Authentication-Results: mx.mine.example; spf=pass smtp.mailfrom=example.org; dkim=none; dmarc=fail (p=reject) header.from=example.org"
        try b.deliver("1.forged", Self.mail(T.message(uid: "f@example.org"), from: "Alice <alice@example.org>", headers: [fail]))
        let held = try b.merge(config: config)
        #expect(try outcome(held) == ("held", "failed authentication"), "\(held.stdout)\(held.stderr)")
        #expect(b.mailed().isEmpty)
        // The forger writes a passing header of "my" server below a failing one of another's:
        // the topmost header of a trusted server is read, another server's is not.
        let theirs = "Authentication-Results: mx.evil.example; dmarc=fail header.from=example.org"
        let pass = "Authentication-Results: mx.mine.example; dmarc=pass header.from=example.org"
        try b.deliver("2.real", Self.mail(T.message(start: "20310305T100000Z", uid: "r@example.org"), from: "Alice <alice@example.org>",
                                          headers: [theirs, pass]))
        #expect(try outcome(try b.merge(config: config)) == ("accepted", nil))
        // Without trusted-authserv no header counts.
        try b.deliver("3.unvouched", Self.mail(T.message(start: "20310306T100000Z", uid: "u@example.org"), from: "Alice <alice@example.org>",
                                               headers: [fail]))
        #expect(try outcome(try b.merge()) == ("accepted", nil))
    }

    /// A plain spool keeps a held file where it is, and a later run does not report it
    /// again; changed, it is news and decided again.
    @Test func aPlainSpoolKeepsHeldFilesAndReportsThemOnce() throws {
        let b = try HeldMergeTests().box()
        let spool = b.root + "/spool"
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
        try Data(Self.stranger().utf8).write(to: URL(fileURLWithPath: spool + "/casino.ics"))
        func merge() throws -> Run {
            try Binary.run(["merge", "--me", T.me, "--state", b.root + "/state", "--spool", spool, b.calendar])
        }
        let first = try merge()
        #expect(first.stdout.hasPrefix("held      casino.ics  Win big"), "\(first.stdout)\(first.stderr)")
        #expect(try merge().stdout == "", "a held file is reported once")
        #expect(FileManager.default.fileExists(atPath: spool + "/casino.ics"))
        try Data(Self.stranger().replacingOccurrences(of: "bob@stranger.example", with: "alice@example.org").utf8)
            .write(to: URL(fileURLWithPath: spool + "/casino.ics"))
        #expect(try merge().stdout.hasPrefix("accepted  casino.ics"), "changed, it is decided again")
    }

    /// An update whose ORGANIZER is not the stored one is held; by hand `accept` says so and
    /// exits 1; `accept --new-organizer` lets the event change hands.
    @Test func aNewOrganizerIsForAPersonToAccept() throws {
        let b = try T().accepted()
        let handover = try b.file("handover.ics", T.message(organizer: "zoe@example.org", sequence: 1, summary: "Planning (Zoe)"))
        let before = try b.bytes()
        let refused = try b.accept(handover)
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("organizer changed") && refused.stdout.contains("alice@example.org")
                && refused.stdout.contains("zoe@example.org"), "\(refused.stdout)")
        #expect(try b.bytes() == before)
        let taken = try Binary.run(["accept", "--new-organizer", "--me", T.me, "--state", b.state, handover, b.calendar])
        #expect(taken.status == 0, "\(taken.stdout)\(taken.stderr)")
        #expect(try b.text().contains("ORGANIZER;CN=Organizer:mailto:zoe@example.org"))
    }
}
