import Foundation
import Testing

/// `merge` from a Maildir (issue #27): a forged cancellation or update is held — the
/// calendar byte-identical, nothing mailed (a sendmail that logs every call), the message
/// left unmarked for the person and not reported again; the organizer's own applies.
@Suite struct HeldMergeTests {
    struct Box {
        let root: String
        var maildir: String { root + "/Maildir" }
        var calendar: String { root + "/cal.ics" }
        var sendmailLog: String { root + "/sendmail.log" }

        func deliver(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: maildir + "/tmp/" + name))
            guard rename(maildir + "/tmp/" + name, maildir + "/new/" + name) == 0 else { throw CocoaError(.fileWriteUnknown) }
        }

        func merge(_ extra: [String] = [], config: String? = nil) throws -> Run {
            var env = ["COOLCAL_SENDMAIL": root + "/sendmail"]
            if let config {
                try FileManager.default.createDirectory(atPath: root + "/xdg/coolcal", withIntermediateDirectories: true)
                try Data(config.utf8).write(to: URL(fileURLWithPath: root + "/xdg/coolcal/config"))
                env["XDG_CONFIG_HOME"] = root + "/xdg"
            }
            return try Binary.run(["merge", "--json", "--mark", "--reply", "--me", OrganizerBindingTests.me, "--state", root + "/state",
                                   "--spool", maildir] + extra + [calendar], env: env)
        }

        func outcomes(_ run: Run) throws -> [[String: Any]] {
            try Binary.json(run.stdout)["outcomes"] as? [[String: Any]] ?? []
        }

        func mailed() -> String { (try? String(contentsOfFile: sendmailLog, encoding: .utf8)) ?? "" }
        func bytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: calendar)) }
        func new() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: maildir + "/new").sorted() }
    }

    func box() throws -> Box {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-held-\(UUID().uuidString)").path
        for folder in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(atPath: root + "/Maildir/" + folder, withIntermediateDirectories: true)
        }
        let box = Box(root: root)
        // Alice is someone I deal with (accept-from = known, the default): an event of hers,
        // long past, is in my calendar.
        try Data(Self.calendarKnowingAlice.utf8).write(to: URL(fileURLWithPath: box.calendar))
        // A sendmail that logs each message it is given and succeeds.
        let script = "#!/bin/sh\ncat >> '\(box.sendmailLog)'\necho '--- end of message' >> '\(box.sendmailLog)'\n"
        try Data(script.utf8).write(to: URL(fileURLWithPath: root + "/sendmail"))
        chmod(root + "/sendmail", 0o755)
        return box
    }

    static let calendarKnowingAlice = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Known//EN",
        "BEGIN:VEVENT", "UID:review-2020@example.org", "DTSTAMP:20200101T090000Z",
        "DTSTART:20200303T100000Z", "DURATION:PT1H", "SUMMARY:Review 2020",
        "ORGANIZER:mailto:alice@example.org", "ATTENDEE;PARTSTAT=ACCEPTED:mailto:\(OrganizerBindingTests.me)",
        "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")

    @Test func forgedMessagesAreHeldUnmarkedUnansweredAndReportedOnce() throws {
        let b = try box()
        typealias T = OrganizerBindingTests
        try b.deliver("1.invite", T.mail(T.message(), from: "Alice <alice@example.org>"))
        let first = try b.merge()
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try b.outcomes(first).map { $0["outcome"] as? String } == ["accepted"])
        #expect(b.mailed().components(separatedBy: "--- end of message").count == 2, "one reply to Alice")
        let mailedBefore = b.mailed()
        let before = try b.bytes()

        try b.deliver("2.cancel", T.mail(T.message(method: "CANCEL", organizer: "mallory@evil.example", sequence: 1),
                                         from: "Mallory <mallory@evil.example>", method: "CANCEL"))
        try b.deliver("3.update", T.mail(T.message(organizer: "mallory@evil.example", sequence: 2_147_483_647,
                                                   start: "20310304T100000Z"), from: "Mallory <mallory@evil.example>"))
        let forged = try b.merge()
        #expect(forged.status == 0, "\(forged.stderr)")
        let held = try b.outcomes(forged)
        #expect(held.map { $0["outcome"] as? String } == ["held", "held"], "\(forged.stdout)")
        #expect(held.map { $0["held"] as? String } == ["organizer changed", "organizer changed"])
        #expect(try b.bytes() == before, "a forged message changed the calendar")
        #expect(b.mailed() == mailedBefore, "coolcal mailed someone about a forgery")
        #expect(try b.new() == ["2.cancel", "3.update"], "held messages must stay unmarked for the person")

        // Both wait in the inbox beside Alice's invitation, never over it.
        let inbox = try Binary.run(["inbox", "--json", "--state", b.root + "/state"])
        let entries = (try Binary.json(inbox.stdout)["invitations"] as? [[String: Any]] ?? [])
            .map { ($0["id"] as? String ?? "", $0["held"] as? String, $0["kind"] as? String ?? "", $0["title"] as? String ?? "") }
        #expect(entries.sorted { $0.0 < $1.0 }.map { "\($0.0) \($0.1 ?? "-") \($0.2) \($0.3)" } == [
            "\(T.uid) - invitation Planning",
            "cancellation:\(T.uid) organizer changed cancellation Planning",
            "update:\(T.uid) organizer changed invitation Planning",
        ], "\(inbox.stdout)")

        let again = try b.merge()
        #expect(try b.outcomes(again).isEmpty, "held messages are reported once: \(again.stdout)")

        try b.deliver("4.cancel", T.mail(T.message(method: "CANCEL", sequence: 1), from: "Alice <alice@example.org>", method: "CANCEL"))
        let genuine = try b.merge()
        #expect(try b.outcomes(genuine).map { $0["outcome"] as? String } == ["cancelled"], "\(genuine.stdout) \(genuine.stderr)")
        #expect(String(decoding: try b.bytes(), as: UTF8.self).contains("STATUS:CANCELLED"))
        #expect(!b.mailed().contains("mallory"))
    }

    /// `decline-busy` declines a busy invitation by mail — never one that is not the
    /// organizer's word: a forged update into a busy slot is held, and nobody is mailed.
    @Test func declineBusyMailsNoForger() throws {
        let b = try box()
        typealias T = OrganizerBindingTests
        try b.deliver("1.invite", T.mail(T.message(), from: "Alice <alice@example.org>"))
        #expect(try b.outcomes(try b.merge()).map { $0["outcome"] as? String } == ["accepted"])
        // Something busy on the 4th, then Mallory "moves" Alice's meeting onto it.
        try b.deliver("2.busy", T.mail(T.message(start: "20310304T100000Z", summary: "Dentist", uid: "busy-1@example.org"),
                                       from: "Alice <alice@example.org>"))
        #expect(try b.outcomes(try b.merge()).map { $0["outcome"] as? String } == ["accepted"])
        let mailedBefore = b.mailed()
        let before = try b.bytes()
        try b.deliver("3.forged", T.mail(T.message(organizer: "mallory@evil.example", sequence: 7, start: "20310304T100000Z"),
                                         from: "Mallory <mallory@evil.example>"))
        let run = try b.merge(["--policy", "decline-busy"])
        let outcomes = try b.outcomes(run)
        #expect(outcomes.map { $0["outcome"] as? String } == ["held"], "\(run.stdout) \(run.stderr)")
        #expect(outcomes.first?["held"] as? String == "organizer changed")
        #expect(b.mailed() == mailedBefore, "decline-busy mailed about a forgery")
        #expect(try b.bytes() == before)
    }

    /// An invitation that does not name me among its attendees is held, not accepted or
    /// answered; `accept` by hand still takes it (a person has decided).
    @Test func anInvitationNotNamingMeIsHeldAndAcceptTakesIt() throws {
        let b = try box()
        typealias T = OrganizerBindingTests
        let text = T.message(uid: "party@example.org").replacingOccurrences(of: "mailto:\(T.me)", with: "mailto:someone@example.org")
        try b.deliver("1.party", T.mail(text, from: "Alice <alice@example.org>"))
        let before = try b.bytes()
        let run = try b.merge()
        let outcomes = try b.outcomes(run)
        #expect(outcomes.map { $0["outcome"] as? String } == ["held"], "\(run.stdout) \(run.stderr)")
        #expect(outcomes.first?["held"] as? String == "not addressed to you")
        #expect(try b.bytes() == before)
        #expect(b.mailed().isEmpty)
        #expect(try b.new() == ["1.party"])
        let file = b.root + "/party.ics"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let accept = try Binary.run(["accept", "--me", T.me, "--state", b.root + "/state", file, b.calendar])
        #expect(accept.status == 0, "\(accept.stderr)")
        #expect(String(decoding: try b.bytes(), as: UTF8.self).contains("UID:party@example.org"))
    }

    /// A published event (a booking confirmation) is held unless the config allows them;
    /// with `allow-publish = yes` it is added; any other value is 78, naming the file.
    @Test func publishedEventsAreHeldUnlessAllowed() throws {
        let b = try box()
        typealias T = OrganizerBindingTests
        let published = T.message(uid: "booking@rail.example").replacingOccurrences(of: "METHOD:REQUEST", with: "METHOD:PUBLISH")
        try b.deliver("1.booking", T.mail(published, from: "Rail <alice@example.org>", method: "PUBLISH"))
        let before = try b.bytes()
        let held = try b.merge()
        #expect(try b.outcomes(held).map { $0["held"] as? String } == ["published"], "\(held.stdout) \(held.stderr)")
        #expect(try b.bytes() == before)
        #expect(b.mailed().isEmpty)
        let bad = try b.merge(config: "allow-publish = maybe\n")
        #expect(bad.status == 78)
        #expect(bad.stderr.contains("/xdg/coolcal/config: allow-publish must be yes or no, not 'maybe'"), "\(bad.stderr)")
        let config = try Binary.run(["config"], env: ["XDG_CONFIG_HOME": b.root + "/xdg-allowed"])
        #expect(config.stdout.contains("allow-publish no  (default)"), "\(config.stdout)")
        // A second message of the same event: the held one stays remembered, this one is added.
        try b.deliver("2.booking", T.mail(published.replacingOccurrences(of: "SEQUENCE:0", with: "SEQUENCE:1"),
                                          from: "Rail <alice@example.org>", method: "PUBLISH"))
        let allowed = try b.merge(config: "allow-publish = yes\n")
        #expect(try b.outcomes(allowed).map { $0["outcome"] as? String } == ["accepted"], "\(allowed.stdout) \(allowed.stderr)")
        #expect(String(decoding: try b.bytes(), as: UTF8.self).contains("UID:booking@rail.example"))
    }
}
