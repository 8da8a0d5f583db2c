import Foundation
import Testing

/// Trust III (issue #43): nobody borrows a name. For a message about an event coolcal
/// does not hold, the one identity is the mail's From — a SENT-BY the message writes
/// about itself, a `Sender:` header, my own address: none vouches. Each forgery the
/// hostile-sender drill got through is tried here, by `merge` from a Maildir and by
/// `process` on standard input: the calendar stays byte-identical, nobody is mailed, and
/// the held reason is on `inbox --held`.
@Suite struct BorrowedNameTests {
    typealias D = BorrowedNameDesk
    static let trusted = "trusted-authserv = mx.home.example\n"
    static let passForEvil = "Authentication-Results: mx.home.example; dmarc=pass (p=none) header.from=evil.example"

    /// Asserts a held outcome with nothing written and nothing mailed, and the entry on
    /// `inbox --held` under `id`.
    func expectHeld(_ said: D.Said, _ reason: String, id: String, _ d: D, before: Data,
                    sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(said.held == reason, "\(said)", sourceLocation: sourceLocation)
        #expect(try d.bytes() == before, "the calendar changed", sourceLocation: sourceLocation)
        #expect(d.mailCount() == 0, "coolcal mailed someone: \(d.mailed())", sourceLocation: sourceLocation)
        let held = try d.heldEntries()
        #expect(held[id] == reason, "\(held)", sourceLocation: sourceLocation)
    }

    /// Item 1: `ORGANIZER;SENT-BY=mallory:alice`, mailed by mallory whose own domain passes
    /// DMARC at my trusted server — a new invitation the message vouches for itself.
    @Test(arguments: D.Way.allCases) func sentByInTheMessageAdmitsNoNewInvitation(_ way: D.Way) throws {
        var d = try D(way, config: Self.trusted)
        let before = try d.bytes()
        let ics = D.calendar(method: "REQUEST", [D.event(uid: "sentby-new@example.org",
                                                         organizerParameters: ";SENT-BY=\"mailto:mallory@evil.example\"")])
        let said = try d.deliver(D.mail(ics, from: "Mallory <mallory@evil.example>", headers: [Self.passForEvil]))
        try expectHeld(said, "not from the organizer", id: "sentby-new@example.org", d, before: before)
    }

    /// Item 1: the same with my own address as ORGANIZER: not an event "I organise".
    @Test(arguments: D.Way.allCases) func sentByForMyOwnAddressWritesNothing(_ way: D.Way) throws {
        var d = try D(way, config: Self.trusted)
        let before = try d.bytes()
        let ics = D.calendar(method: "REQUEST", [D.event(uid: "sentby-me@example.org", organizer: D.me,
                                                         organizerParameters: ";SENT-BY=\"mailto:mallory@evil.example\"",
                                                         attendees: ["ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:victim@corp.example",
                                                                     "ATTENDEE;PARTSTAT=ACCEPTED:mailto:\(D.me)"])])
        let said = try d.deliver(D.mail(ics, from: "mallory@evil.example", headers: [Self.passForEvil]))
        try expectHeld(said, "not from the organizer", id: "sentby-me@example.org", d, before: before)
    }

    /// Item 1: a CANCEL with SENT-BY and the highest SEQUENCE for a UID not yet stored
    /// leaves no tombstone: Alice's real invitation with that UID is accepted after it.
    @Test(arguments: D.Way.allCases) func aSelfVouchedCancellationBuriesNothing(_ way: D.Way) throws {
        var d = try D(way)
        let before = try d.bytes()
        let cancel = D.calendar(method: "CANCEL", [D.event(uid: "buried@example.org", organizerParameters: ";SENT-BY=\"mailto:mallory@evil.example\"",
                                                           sequence: 2147483647, extra: ["STATUS:CANCELLED"])])
        let said = try d.deliver(D.mail(cancel, from: "mallory@evil.example", method: "CANCEL"))
        #expect(said.held == "not from the organizer", "\(said)")
        #expect(try d.bytes() == before)
        #expect(d.mailCount() == 0)
        let genuine = try d.deliver(D.mail(D.calendar(method: "REQUEST", [D.event(uid: "buried@example.org")]), from: "Alice <alice@example.org>"))
        #expect(genuine.held == nil && (genuine.outcome == "accepted" || genuine.outcome == "added (accepted)"), "\(genuine)")
        #expect(try d.text().contains("UID:buried@example.org"))
    }

    /// Item 2: a `Sender:` header naming the organizer stands in for nobody.
    @Test(arguments: D.Way.allCases) func aSenderHeaderIsNotTheFrom(_ way: D.Way) throws {
        var d = try D(way)
        let before = try d.bytes()
        let ics = D.calendar(method: "REQUEST", [D.event(uid: "sender-header@example.org")])
        let said = try d.deliver(D.mail(ics, from: "mallory@evil.example", headers: ["Sender: Alice <alice@example.org>",
                                                                                   "Reply-To: alice@example.org"]))
        try expectHeld(said, "not from the organizer", id: "sender-header@example.org", d, before: before)
    }

    /// Item 3: mail "from me" about "my" event with 51 attendees: held, nothing written,
    /// nobody it lists becomes known — their next invitation, and a counter-proposal for
    /// the forged UID, are held too.
    @Test(arguments: D.Way.allCases) func myOwnAddressArrivesHeldAndMakesNobodyKnown(_ way: D.Way) throws {
        var d = try D(way)
        let before = try d.bytes()
        let victims = (1...51).map { "victim\($0)@corp.example" }
        let ics = D.calendar(method: "REQUEST", [D.event(uid: "giveaway@home.example", organizer: D.me, summary: "Crypto giveaway",
                                                         attendees: victims.map { "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:\($0)" }
                                                             + ["ATTENDEE;PARTSTAT=ACCEPTED:mailto:\(D.me)"])])
        let said = try d.deliver(D.mail(ics, from: "Me <\(D.me)>"))
        try expectHeld(said, "you organise this event", id: "giveaway@home.example", d, before: before)
        let fromVictim = D.calendar(method: "REQUEST", [D.event(uid: "victim-invite@corp.example", organizer: victims[0],
                                                                start: "20310404T100000Z")])
        #expect(try d.deliver(D.mail(fromVictim, from: victims[0])).held == "unknown sender")
        let counter = D.calendar(method: "COUNTER", [D.event(uid: "giveaway@home.example", organizer: D.me, start: "20310305T100000Z",
                                                             attendees: ["ATTENDEE;PARTSTAT=ACCEPTED:mailto:\(victims[1])"])])
        let proposed = try d.deliver(D.mail(counter, from: victims[1], method: "COUNTER"))
        #expect(proposed.held == "unknown sender", "\(proposed)")
        #expect(try d.bytes() == before)
        #expect(d.mailCount() == 0)
    }

    /// Item 6: a genuine update whose override names another ORGANIZER is refused whole.
    @Test(arguments: D.Way.allCases) func componentsNamingTwoOrganizersAreAnError(_ way: D.Way) throws {
        var d = try D(way)
        let before = try d.bytes()
        let ics = D.calendar(method: "REQUEST", [
            D.event(uid: "two-organizers@example.org", extra: ["RRULE:FREQ=WEEKLY;COUNT=4"]),
            D.event(uid: "two-organizers@example.org", organizer: "mallory@evil.example", summary: "Moved",
                    extra: ["RECURRENCE-ID:20310310T100000Z"]),
        ])
        let said = try d.deliver(D.mail(ics, from: "Alice <alice@example.org>"))
        #expect(said.outcome == "failed" || said.outcome.hasPrefix("error (") , "\(said)")
        #expect(said.raw.contains("different organizers"), "\(said)")
        #expect(try d.bytes() == before)
        #expect(d.mailCount() == 0)
    }

    /// Item 6: the mail's `method=PUBLISH` over a body `METHOD:REQUEST` (RFC 6047 §2.4).
    @Test(arguments: D.Way.allCases) func aContentTypeMethodThatDisagreesIsAnError(_ way: D.Way) throws {
        var d = try D(way)
        let before = try d.bytes()
        let ics = D.calendar(method: "REQUEST", [D.event(uid: "disagree@example.org")])
        let said = try d.deliver(D.mail(ics, from: "Alice <alice@example.org>", method: "PUBLISH"))
        #expect(said.outcome == "failed" || said.outcome.hasPrefix("error ("), "\(said)")
        #expect(said.raw.contains("method=PUBLISH") && said.raw.contains("METHOD:REQUEST"), "\(said)")
        #expect(try d.bytes() == before)
        // Google's COUNTER under method=REPLY follows the body (no error).
        let counter = D.calendar(method: "COUNTER", [D.event(uid: "not-mine@example.org", start: "20310305T100000Z")])
        let google = try d.deliver(D.mail(counter, from: D.me, method: "REPLY"))
        #expect(!google.outcome.hasPrefix("error") && google.outcome != "failed", "\(google)")
    }

    /// Item 6: two inline calendar parts that differ: a mail client shows the last.
    @Test(arguments: D.Way.allCases) func twoDifferentCalendarPartsAreAnError(_ way: D.Way) throws {
        var d = try D(way)
        let before = try d.bytes()
        let shown = D.calendar(method: "REQUEST", [D.event(uid: "parts@example.org", summary: "Coffee")])
        let acted = D.calendar(method: "REQUEST", [D.event(uid: "parts@example.org", start: "20310303T030000Z", summary: "Coffee")])
        let message = [
            "From: Alice <alice@example.org>", "To: \(D.me)", "Subject: Coffee", "Message-ID: <parts@mail.example.org>",
            "MIME-Version: 1.0", "Content-Type: multipart/alternative; boundary=b", "",
            "--b", "Content-Type: text/calendar; charset=UTF-8; method=REQUEST", "", acted,
            "--b", "Content-Type: text/calendar; charset=UTF-8; method=REQUEST", "", shown, "--b--", "",
        ].joined(separator: "\r\n")
        let said = try d.deliver(message)
        #expect(said.outcome == "failed" || said.outcome.hasPrefix("error ("), "\(said)")
        #expect(said.raw.contains("two different calendar parts"), "\(said)")
        #expect(try d.bytes() == before)
    }

    /// Item 6: RSVP=FALSE on my ATTENDEE: the answer is recorded and written, not mailed,
    /// and the line says why.
    @Test(arguments: D.Way.allCases) func rsvpFalseIsAnsweredWithoutAMail(_ way: D.Way) throws {
        var d = try D(way)
        let ics = D.calendar(method: "REQUEST", [D.event(uid: "no-rsvp@example.org",
                                                         attendees: ["ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=FALSE:mailto:\(D.me)"])])
        let said = try d.deliver(D.mail(ics, from: "Alice <alice@example.org>"))
        #expect(said.raw.contains("no reply: the organizer asked for none, RSVP=FALSE"), "\(said)")
        #expect(try d.text().contains("UID:no-rsvp@example.org"))
        #expect(d.mailCount() == 0, "\(d.mailed())")
        let responses = try Binary.run(["responses", "--json", "--state", d.state])
        #expect(responses.stdout.contains("no-rsvp@example.org"), "\(responses.stdout)")
        // Without RSVP at all: answered and mailed as before.
        let plain = D.calendar(method: "REQUEST", [D.event(uid: "rsvp-absent@example.org", start: "20310304T100000Z",
                                                           attendees: ["ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:\(D.me)"])])
        _ = try d.deliver(D.mail(plain, from: "Alice <alice@example.org>"))
        #expect(d.mailCount() == 1)
    }

    /// RSVP=FALSE by hand: `reply = mail` in the config does not mail it (the line says
    /// why); `--reply` typed by the person does.
    @Test func rsvpFalseByHandMailsOnlyWhenAsked() throws {
        let d = try D(.merge, config: "reply = mail\nme = \(D.me)\n")
        let ics = D.calendar(method: "REQUEST", [D.event(uid: "no-rsvp-hand@example.org",
                                                         attendees: ["ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=FALSE:mailto:\(D.me)"])])
        let file = d.root + "/invite.eml"
        try Data(D.mail(ics, from: "Alice <alice@example.org>").utf8).write(to: URL(fileURLWithPath: file))
        let env = ["COOLCAL_SENDMAIL": d.root + "/sendmail", "XDG_CONFIG_HOME": d.root + "/xdg"]
        try FileManager.default.createDirectory(atPath: d.root + "/xdg/coolcal", withIntermediateDirectories: true)
        try Data("reply = mail\nme = \(D.me)\n".utf8).write(to: URL(fileURLWithPath: d.root + "/xdg/coolcal/config"))
        let config = try Binary.run(["accept", "--state", d.state, file, d.calendar], env: env)
        #expect(config.status == 0, "\(config.stderr)")
        #expect(config.stdout.contains("(no reply: the organizer asked for none, RSVP=FALSE)"), "\(config.stdout)")
        #expect(d.mailCount() == 0, "\(d.mailed())")
        let typed = try Binary.run(["accept", "--reply", "--state", d.state, file, d.calendar], env: env)
        #expect(typed.status == 0, "\(typed.stderr)")
        #expect(!typed.stdout.contains("RSVP=FALSE"), "\(typed.stdout)")
        #expect(d.mailCount() == 1, "\(d.mailed())")
    }

    /// Item 6: the organizer's CANCEL whose only ATTENDEE is Carol removes Carol, not me.
    @Test(arguments: D.Way.allCases) func aCancellationOfAnotherAttendeeLeavesMyCopy(_ way: D.Way) throws {
        var d = try D(way)
        let invite = D.calendar(method: "REQUEST", [D.event(uid: "carol@example.org", attendees: [
            "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:\(D.me)", "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:carol@example.org"])])
        _ = try d.deliver(D.mail(invite, from: "Alice <alice@example.org>"))
        let before = try d.bytes()
        #expect(String(decoding: before, as: UTF8.self).contains("UID:carol@example.org"))
        let cancel = D.calendar(method: "CANCEL", [D.event(uid: "carol@example.org", sequence: 1,
                                                           attendees: ["ATTENDEE:mailto:carol@example.org"], extra: ["STATUS:CANCELLED"])])
        let said = try d.deliver(D.mail(cancel, from: "Alice <alice@example.org>", method: "CANCEL"))
        #expect(said.outcome == (way == .merge ? "no action" : "no_action (cancels another attendee)"), "\(said)")
        #expect(try d.bytes() == before, "my copy was changed by a cancellation of Carol's")
        // One naming me cancels mine.
        let mine = D.calendar(method: "CANCEL", [D.event(uid: "carol@example.org", sequence: 2,
                                                         attendees: ["ATTENDEE:mailto:\(D.me)"], extra: ["STATUS:CANCELLED"])])
        _ = try d.deliver(D.mail(mine, from: "Alice <alice@example.org>", method: "CANCEL"))
        #expect(try d.text().contains("STATUS:CANCELLED"))
    }

    /// Item 6: an authserv-id written with a trailing dot (and another case) is the same server.
    @Test(arguments: D.Way.allCases) func anAuthservIDWithATrailingDotIsRecognised(_ way: D.Way) throws {
        var d = try D(way, config: "trusted-authserv = MX.Home.Example.\n")
        let before = try d.bytes()
        let ics = D.calendar(method: "REQUEST", [D.event(uid: "dmarc-dot@example.org")])
        let said = try d.deliver(D.mail(ics, from: "Alice <alice@example.org>",
                                        headers: ["Authentication-Results: mx.home.example.; dmarc=fail header.from=example.org"]))
        try expectHeld(said, "failed authentication", id: "dmarc-dot@example.org", d, before: before)
    }

    /// Mail with no From names nobody: `no sender`, whatever accept-from says.
    @Test(arguments: D.Way.allCases) func noFromIsNoSender(_ way: D.Way) throws {
        var d = try D(way, config: "accept-from = anyone\n")
        let before = try d.bytes()
        let ics = D.calendar(method: "REQUEST", [D.event(uid: "anonymous@example.org")])
        try expectHeld(try d.deliver(D.mail(ics, from: nil)), "no sender", id: "anonymous@example.org", d, before: before)
    }
}
