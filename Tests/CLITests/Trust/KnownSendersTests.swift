import Foundation
import Testing
@testable import CoolcalState

/// Known, narrowly (issue #43): who `accept-from = known` admits. Organizers of events in
/// my calendars that I accepted or tentatively accepted; attendees as I listed them in
/// events I organise; organizers I accepted from by hand or by policy; `accept-from`. Not
/// co-attendees, not a NEEDS-ACTION organizer, not a delegate, not a declined spammer,
/// never one of my own addresses. Each test runs the binary: merge from a Maildir with a
/// logging sendmail (`HeldMergeTests.Box`).
@Suite struct KnownSendersTests {
    typealias T = OrganizerBindingTests
    typealias S = SenderTrustTests

    /// One VEVENT organised by `organizer`, with these ATTENDEE lines (and any other lines).
    static func event(_ uid: String, organizer: String, _ lines: [String], summary: String = "Meeting") -> [String] {
        ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20200101T090000Z", "DTSTART:20200303T100000Z", "DURATION:PT1H",
         "SUMMARY:\(summary)", "ORGANIZER:mailto:\(organizer)"] + lines + ["END:VEVENT"]
    }

    static func calendar(_ events: [[String]]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Known//EN"] + events.flatMap { $0 } + ["END:VCALENDAR", ""])
            .joined(separator: "\r\n")
    }

    /// My calendar: every way of being named in an event, once each.
    static let people = calendar([
        // Alice's meeting, accepted; Carol only attends it too.
        event("a@example.org", organizer: "alice@example.org",
              ["ATTENDEE;PARTSTAT=ACCEPTED:mailto:\(T.me)", "ATTENDEE;PARTSTAT=ACCEPTED:mailto:carol@example.org"]),
        // Frank's, never answered: no PARTSTAT is NEEDS-ACTION.
        event("f@example.org", organizer: "frank@example.org", ["ATTENDEE;RSVP=TRUE:mailto:\(T.me)"]),
        // Grace's, tentatively; Henry's, declined.
        event("g@example.org", organizer: "grace@example.org", ["ATTENDEE;PARTSTAT=TENTATIVE:mailto:ME@Example.com"]),
        event("h@example.org", organizer: "henry@example.org", ["ATTENDEE;PARTSTAT=DECLINED:mailto:\(T.me)"]),
        // Ivan's meeting with Judy, which names none of me (a shared calendar, a forward).
        event("i@example.org", organizer: "ivan@example.org", ["ATTENDEE;PARTSTAT=ACCEPTED:mailto:judy@example.org"]),
        // Mine: Dave as I listed him; Eve, a delegate Dave's reply added; whom the alarm mails.
        event("m@example.org", organizer: T.me, [
            "ATTENDEE;PARTSTAT=ACCEPTED:mailto:\(T.me)", "ATTENDEE;PARTSTAT=DELEGATED;DELEGATED-TO=\"mailto:eve@example.org\":mailto:dave@example.org",
            "ATTENDEE;PARTSTAT=ACCEPTED;DELEGATED-FROM=\"mailto:dave@example.org\":mailto:eve@example.org",
            "BEGIN:VALARM", "ACTION:EMAIL", "TRIGGER:-PT15M", "SUMMARY:Soon", "DESCRIPTION:Soon",
            "ATTENDEE:mailto:alarm@example.org", "END:VALARM",
        ], summary: "My planning"),
    ])

    /// Each sender's new invitation, merged once against `people`: outcome (or `held: REASON`) by sender.
    func decided(_ senders: [String]) throws -> [String: String] {
        let b = try HeldMergeTests().box()
        try Data(Self.people.utf8).write(to: URL(fileURLWithPath: b.calendar))
        for (i, sender) in senders.enumerated() {
            let invite = T.message(organizer: "\(sender)@example.org", start: "203104\(String(format: "%02d", i + 1))T100000Z",
                                   summary: "From \(sender)", uid: "\(sender)-new@example.org")
            try b.deliver("\(i).\(sender)", S.mail(invite, from: "\(sender) <\(sender)@example.org>"))
        }
        let run = try b.merge()
        #expect(run.status == 0, "\(run.stderr)")
        var result: [String: String] = [:]
        for outcome in try b.outcomes(run) {
            let name = (outcome["name"] as? String ?? "").split(separator: ".").last.map(String.init) ?? ""
            let word = outcome["outcome"] as? String ?? "?"
            result[name] = (outcome["held"] as? String).map { "\(word): \($0)" } ?? word
        }
        return result
    }

    /// The inbox number of the newest entry held for the person.
    func heldNumber(_ b: HeldMergeTests.Box) throws -> Int {
        let held = try Binary.run(["inbox", "--held", "--json", "--state", b.root + "/state"])
        return try #require((try Binary.json(held.stdout)["invitations"] as? [[String: Any]])?.first?["number"] as? Int, "\(held.stdout)")
    }

    @Test func coAttendeesOfOtherPeoplesMeetingsAreNotKnown() throws {
        let outcomes = try decided(["carol", "judy", "ivan"])
        #expect(outcomes == ["carol": "held: unknown sender", "judy": "held: unknown sender", "ivan": "held: unknown sender"],
                "a co-attendee, or an event that names none of me, made someone known")
    }

    @Test func theOrganizerOfAnEventIAcceptedIsKnownOfOneIDidNotNot() throws {
        let outcomes = try decided(["alice", "grace", "frank", "henry"])
        #expect(outcomes["alice"] == "accepted", "accepted in my calendar")
        #expect(outcomes["grace"] == "accepted", "tentative in my calendar (my address in other case)")
        #expect(outcomes["frank"] == "held: unknown sender", "NEEDS-ACTION (no PARTSTAT) made the organizer known")
        #expect(outcomes["henry"] == "held: unknown sender", "a declined event made the organizer known")
    }

    @Test func attendeesOfMyOwnEventsAreKnownTheirDelegatesNot() throws {
        let outcomes = try decided(["dave", "eve", "alarm"])
        #expect(outcomes["dave"] == "accepted", "an attendee I listed")
        #expect(outcomes["eve"] == "held: unknown sender", "a delegate (DELEGATED-FROM) was known")
        #expect(outcomes["alarm"] == "held: unknown sender", "a VALARM's ATTENDEE was known")
    }

    /// Held spam, declined by hand (with `reply = mail` in the config): recorded, nothing
    /// mailed, the line says so; the spammer's next invitation is still held. `--reply`
    /// mails the decline and still makes nobody known.
    @Test func declinedHeldSpamMailsNothingAndTheNextInvitationIsStillHeld() throws {
        let b = try HeldMergeTests().box()
        let env = ["COOLCAL_SENDMAIL": b.root + "/sendmail", "XDG_CONFIG_HOME": b.root + "/xdg"]
        try FileManager.default.createDirectory(atPath: b.root + "/xdg/coolcal", withIntermediateDirectories: true)
        try Data("reply = mail\n".utf8).write(to: URL(fileURLWithPath: b.root + "/xdg/coolcal/config"))
        try b.deliver("1.casino", S.mail(S.stranger(), from: "Bob <bob@stranger.example>"))
        #expect(try b.outcomes(try b.merge()).map { $0["held"] as? String } == ["unknown sender"])
        let before = try b.bytes()
        let decline = try Binary.run(["decline", "--me", T.me, "--state", b.root + "/state", String(try heldNumber(b))], env: env)
        #expect(decline.status == 0, "\(decline.stderr)")
        #expect(decline.stdout == "declined: Win big (held: unknown sender; nothing mailed — --reply mails it)\n", "\(decline.stdout)")
        #expect(b.mailed().isEmpty, "declining held spam mailed the spammer")
        #expect(try b.bytes() == before)
        let responses = try Binary.run(["responses", "--json", "--state", b.root + "/state"])
        #expect(responses.stdout.contains("\"answer\": \"declined\""), "the decline was not recorded: \(responses.stdout)")

        try b.deliver("2.casino", S.mail(S.stranger(uid: "casino-2@spam.example", start: "20310310T100000Z"), from: "Bob <bob@stranger.example>"))
        let next = try b.merge()
        #expect(try b.outcomes(next).map { $0["held"] as? String } == ["unknown sender"], "declining made the spammer known: \(next.stdout)")
        #expect(b.mailed().isEmpty)

        // --reply, explicitly: the decline is mailed, and Bob is still nobody I deal with.
        let mailed = try Binary.run(["decline", "--reply", "--me", T.me, "--state", b.root + "/state", String(try heldNumber(b))], env: env)
        #expect(mailed.status == 0, "\(mailed.stderr)")
        #expect(!mailed.stdout.contains("nothing mailed"), "\(mailed.stdout)")
        #expect(b.mailed().contains("To: Organizer <bob@stranger.example>") && b.mailed().contains("PARTSTAT=DECLINED"), "\(b.mailed())")
        try b.deliver("3.casino", S.mail(S.stranger(uid: "casino-3@spam.example", start: "20310317T100000Z"), from: "Bob <bob@stranger.example>"))
        #expect(try b.outcomes(try b.merge()).map { $0["held"] as? String } == ["unknown sender"])
    }

    /// `review`'s `d` on held spam, with `reply = mail`: the same line as `decline N`, nothing mailed.
    @Test func reviewsDOnHeldSpamMailsNothing() throws {
        let pane = try TerminalPane { dir in
            let script = "#!/bin/sh\ncat >> '\(dir)/sendmail.log'\n"
            try Data(script.utf8).write(to: URL(fileURLWithPath: dir + "/sendmail"))
            chmod(dir + "/sendmail", 0o755)
            try FileManager.default.createDirectory(atPath: dir + "/no-config/coolcal", withIntermediateDirectories: true)
            try Data("me = \(T.me)\nreply = mail\nsendmail = \(dir)/sendmail\n".utf8)
                .write(to: URL(fileURLWithPath: dir + "/no-config/coolcal/config"))
            for folder in ["cur", "new", "tmp"] {
                try FileManager.default.createDirectory(atPath: dir + "/Maildir/" + folder, withIntermediateDirectories: true)
            }
            try Data(S.mail(S.stranger(), from: "Bob <bob@stranger.example>").utf8).write(to: URL(fileURLWithPath: dir + "/Maildir/new/1.casino"))
            let merge = try Binary.run(["merge", "--state", dir + "/state", "--spool", dir + "/Maildir", dir + "/work.ics"],
                                       env: ["XDG_CONFIG_HOME": dir + "/no-config"])
            #expect(merge.stdout.hasPrefix("held "), "\(merge.stdout)\(merge.stderr)")
        }
        #expect(pane.waitFor("Win big", "d decline"), "\(pane.screen)")
        pane.keys("d")
        #expect(pane.waitFor("declined: Win big (held: unknown sender; nothing mailed — --reply mails it)"), "\(pane.screen)")
        pane.keys("q")
        #expect(pane.status() == "0", "\(pane.file("err.txt"))")
        #expect(!FileManager.default.fileExists(atPath: pane.dir + "/sendmail.log"), "review's d mailed the spammer")
    }

    /// One of my own addresses is never known, whatever says so: not the state (a row an
    /// older coolcal wrote), not my own events. A forged `From: me` invitation organised
    /// by "me" is not answered, and `coolcal known` does not list me.
    @Test func myOwnAddressIsNeverKnown() throws {
        let b = try HeldMergeTests().box()
        try Data(Self.people.utf8).write(to: URL(fileURLWithPath: b.calendar))
        try StateStore(directory: b.root + "/state").database.execute("INSERT INTO known_senders (address, since) VALUES ('\(T.me)', 1)")
        let before = try b.bytes()
        try b.deliver("1.forged", S.mail(T.message(organizer: T.me, summary: "Crypto giveaway", uid: "giveaway@evil.example"),
                                         from: "Me <\(T.me)>"))
        let run = try b.merge()
        let outcome = try b.outcomes(run).first
        #expect(outcome?["outcome"] as? String == "held", "my own address was known: \(run.stdout)")
        #expect(try b.bytes() == before)
        #expect(b.mailed().isEmpty)
        let known = try Binary.run(["known", "--me", T.me, "--state", b.root + "/state", b.calendar])
        #expect(known.status == 0, "\(known.stderr)")
        #expect(!known.stdout.contains(T.me), "\(known.stdout)")
    }
}
