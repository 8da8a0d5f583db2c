import Foundation
import Testing
@testable import CLITests

/// `merge --reply` of a Maildir killed (`kill -9`) at each of its test-hook pause points:
/// the next run answers every invitation exactly once (one event in the calendar, one
/// answer in the state, one reply mail to its organizer through a real SMTP server),
/// and a run after that does nothing.
@Suite(.serialized) struct MaildirCrashTests {
    static let points = ["merge-after-listing", "merge-after-write", "merge-before-remember"]
    /// The invitations, each from its own organizer.
    static let invitations = 1...4

    static func uid(_ i: Int) -> String { "crash-\(i)@example.org" }
    static func organizer(_ i: Int) -> String { "organizer-\(i)@example.org" }
    static func messageName(_ i: Int) -> String { "171000000\(i).M\(i)P7.host" }

    /// An e-mail with a METHOD:REQUEST invitation from organizer `i` to me, on its own
    /// free morning in June 2031.
    static func invitation(_ i: Int) -> Data {
        let day = String(format: "203106%02d", i)
        let ics = [
            "BEGIN:VCALENDAR", "PRODID:-//Coolcal crash tests//EN", "VERSION:2.0", "METHOD:REQUEST",
            "BEGIN:VEVENT", "UID:\(uid(i))", "DTSTAMP:20260101T090000Z", "SEQUENCE:0",
            "DTSTART:\(day)T090000Z", "DTEND:\(day)T100000Z", "SUMMARY:Crash drill \(i)",
            "ORGANIZER;CN=Organizer \(i):mailto:\(organizer(i))",
            "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:me@example.com",
            "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        // Mailed by its organizer (a message from anyone else would be held).
        let mail = String(decoding: MailCorpus.gmail(ics, id: "crash-\(i)@mail.example.org"), as: UTF8.self)
        return Data(mail.replacingOccurrences(of: "From: " + MailCorpus.from, with: "From: Organizer \(i) <\(organizer(i))>").utf8)
    }

    /// How many VEVENTs of each UID the calendar holds.
    static func eventCounts(_ b: MaildirTests.Box) throws -> [String: Int] {
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: b.calendar)), as: UTF8.self)
        var counts: [String: Int] = [:]
        var inEvent = false
        for line in text.components(separatedBy: "\r\n") {
            if line == "BEGIN:VEVENT" { inEvent = true }
            if line == "END:VEVENT" { inEvent = false }
            if inEvent && line.hasPrefix("UID:") { counts[String(line.dropFirst(4)), default: 0] += 1 }
        }
        return counts
    }

    /// The answers in the state, as (invitation id, answer, mail delivery).
    static func responses(_ b: MaildirTests.Box, env: [String: String]) throws -> [(id: String, answer: String, mail: String)] {
        let run = try Binary.run(["responses", "--json", "--state", b.state], env: env)
        #expect(run.status == 0, "\(run.stderr)")
        let list = try Binary.json(run.stdout)["responses"] as? [[String: Any]] ?? []
        return list.map { ($0["invite_id"] as? String ?? "", $0["answer"] as? String ?? "", $0["mail_delivery"] as? String ?? "") }
    }

    /// Every envelope recipient of every message the sink received, in order.
    static func recipients(_ sink: SMTPSink) throws -> [String] {
        try (0..<sink.messages().count).flatMap { try sink.recipients($0 + 1) }
    }

    @Test(arguments: points)
    func killedMergeIsAnsweredExactlyOnceByTheNextRun(at point: String) throws {
        let sink = try SMTPSink()
        let b = try MaildirTests().box()
        for i in Self.invitations { try b.deliver(Self.messageName(i), Self.invitation(i)) }
        let env = ["COOLCAL_SENDMAIL": "msmtp -C \(try SMTPSink.msmtprc(port: sink.port, in: URL(fileURLWithPath: b.root))) -t"]
        let uids = Self.invitations.map(Self.uid)

        let (killed, said) = try b.pausedMerge(at: point, ["--reply"], env: env)
        defer { if killed.isRunning { kill(killed.processIdentifier, SIGKILL) } }
        // The pause line proves the kill below lands at the point, not before nor after.
        #expect(said == "coolcal: test hook: paused at \(point)\n", "merge never reached \(point): \(said)")
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
        #expect(killed.terminationReason == .uncaughtSignal && killed.terminationStatus == SIGKILL)
        // What the killed run left: the calendar written from merge-after-write on; no mail sent.
        let written = try Self.eventCounts(b)
        #expect(written == (point == "merge-after-listing" ? [:] : Dictionary(uniqueKeysWithValues: uids.map { ($0, 1) })))
        #expect(try sink.messages().isEmpty)

        // The next run: nothing of the killed one was remembered, so it answers all four, once each.
        let next = try b.merge(["--reply"], env: env)
        #expect(next.status == 0, "\(next.stderr)")
        let outcomes = (try Binary.json(next.stdout)["outcomes"] as? [[String: Any]]) ?? []
        #expect(outcomes.compactMap { $0["name"] as? String } == Self.invitations.map { "new/" + Self.messageName($0) },
                "the next run did not answer each message once: \(next.stdout)")
        #expect(outcomes.allSatisfy { $0["outcome"] as? String == "accepted" }, "\(next.stdout)")
        #expect(try Self.eventCounts(b) == Dictionary(uniqueKeysWithValues: uids.map { ($0, 1) }))
        let answers = try Self.responses(b, env: env)
        #expect(answers.map(\.id).sorted() == uids, "answers in the state: \(answers)")
        #expect(answers.allSatisfy { $0.answer == "accepted" && $0.mail == "delivered" }, "answers in the state: \(answers)")
        // One reply to each organizer, across both runs.
        #expect(try Self.recipients(sink).sorted() == Self.invitations.map(Self.organizer))

        // A third run: nothing new to answer, nothing written, nothing mailed.
        let calendar = try Data(contentsOf: URL(fileURLWithPath: b.calendar))
        let third = try b.merge(["--reply"], env: env)
        #expect(third.status == 0, "\(third.stderr)")
        #expect((try Binary.json(third.stdout)["outcomes"] as? [[String: Any]] ?? []).isEmpty, "\(third.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: b.calendar)) == calendar)
        #expect(try Self.responses(b, env: env).count == uids.count)
        #expect(try sink.messages().count == uids.count)
        // The Maildir itself was never changed (no --mark).
        #expect(try b.snapshot().keys.sorted() == Self.invitations.map { "new/" + Self.messageName($0) })
    }
}
