import Foundation
import Testing
@testable import CLITests

/// Answering by inbox number (issue 17): `accept 1 CAL`, `decline 1`, `comment 1 TEXT`
/// and `reply --accept 1` work on what the inbox kept as on the file; an invitation
/// that arrived by e-mail brings back its headers, so a mailed answer is `In-Reply-To`
/// it; `inbox` marks each answer and `--unanswered` lists the rest.
@Suite(.serialized) struct InboxAnswerTests {
    let mail = MailAnswerTests()

    func payload(_ id: Int, _ title: String) -> String {
        #"{"aps": {"badge": 1, "category": "INVITATION"}, "title": "\#(title)", "start": "2022-08-2\#(id % 10)T08:00:00Z", "end": "2022-08-2\#(id % 10)T09:00:00Z", "id": \#(id)}"#
    }

    /// The invitation as an e-mail (iMIP), as a mail client saves it.
    func message(_ calendar: String) -> String {
        "From: Alice Example <alice@example.com>\r\nTo: me@example.com\r\nSubject: Invitation: Project kickoff\r\n"
            + "Message-ID: <kickoff-mail-1@example.com>\r\nMIME-Version: 1.0\r\n"
            + "Content-Type: text/calendar; method=REQUEST; charset=utf-8\r\n\r\n" + calendar
    }

    @Test func everyAnsweringCommandTakesAnInboxNumber() throws {
        let f = try mail.files(MailAnswerTests.invitation())
        var env = f.env
        env["COOLCAL_STATE"] = f.state
        #expect(try Binary.run(["notify", "-"], stdin: message(MailAnswerTests.invitation()), env: env).status == 0)
        func unread() throws -> Int? { try Binary.json(try Binary.run(["inbox", "--json"], env: env).stdout)["unread"] as? Int }
        #expect(try unread() == 1)
        let accept = try Binary.run(["accept", "1", f.calendar], env: env)
        #expect(accept.status == 0, "\(accept.stderr)")
        #expect(try unread() == 0, "answering marks it read (issue #46)")
        #expect(accept.stdout == "accepted: Project kickoff (id kickoff-9@example.org): added to \(f.calendar)\n"
                + "  the organizer was not told: 'coolcal reply --accept --send 1' tells them (or 'reply = mail' in the config)\n")
        let comment = try Binary.run(["comment", "1", "Bringing the slides"], env: env)
        // Not mailed (issue #46): kept, and how to tell the organizer.
        #expect(comment.stdout == "commented: Project kickoff (kept here; organizer not told: coolcal comment --reply 1 'Bringing the slides')\n",
                "\(comment.stdout)")
        // A REPLY printed from the inbox copy answers the e-mail it came in.
        let reply = try Binary.run(["reply", "--accept", "--mail", "1"], env: env)
        #expect(reply.status == 0, "\(reply.stderr)")
        #expect(reply.stdout.contains("\nIn-Reply-To: <kickoff-mail-1@example.com>\n"))
        #expect(reply.stdout.contains("\nTo: Alice Example <alice@example.com>\n"))
        let decline = try Binary.run(["decline", "1"], env: env)
        #expect(decline.stdout == "declined: Project kickoff (id kickoff-9@example.org): marked declined in \(f.calendar)\n"
                + "  the organizer was not told: 'coolcal reply --decline --send 1' tells them (or 'reply = mail' in the config)\n")
        let json = try Binary.json(try Binary.run(["responses", "--json"], env: env).stdout)
        let answers = (json["responses"] as? [[String: Any]] ?? []).compactMap { $0["answer"] as? String }
        #expect(answers == ["accepted", "comment", "declined"])
        let missing = try Binary.run(["accept", "7", f.calendar], env: env)
        #expect(missing.status == 66)
        #expect(missing.stderr == "coolcal: error: 7: no such file or directory, nor an invitation in the inbox with this number, id or UID\n")
    }

    /// Issue #46: an invitation answered by its file is marked read in the inbox too.
    @Test func answeringTheFileMarksItsEntryRead() throws {
        let f = try mail.files(MailAnswerTests.invitation())
        var env = f.env
        env["COOLCAL_STATE"] = f.state
        #expect(try Binary.run(["notify", "-"], stdin: payload(13, "Dentist"), env: env).status == 0)
        let invite = try Binary.temp("dentist.json", Data(payload(13, "Dentist").utf8))
        func unread() throws -> Int? { try Binary.json(try Binary.run(["inbox", "--json"], env: env).stdout)["unread"] as? Int }
        #expect(try unread() == 1)
        #expect(try Binary.run(["decline", invite], env: env).status == 0)
        #expect(try unread() == 0)
    }

    @Test func tentativeByMailRepliesToTheMessage() throws {
        let sink = try SMTPSink()
        let f = try mail.files(MailAnswerTests.invitation())
        var env = f.env
        env["COOLCAL_STATE"] = f.state
        env["COOLCAL_SENDMAIL"] = "msmtp -C \(try SMTPSink.msmtprc(port: sink.port, in: f.home)) -t"
        #expect(try Binary.run(["notify", "-"], stdin: message(MailAnswerTests.invitation()), env: env).status == 0)
        let run = try Binary.run(["accept", "--tentative", "--reply", "1", f.calendar], env: env)
        #expect(run.status == 0, "\(run.stderr)")
        // Issue #46: where the mail went, under the answer's line (through msmtp to a real SMTP server).
        #expect(run.stdout == "tentative: Project kickoff (id kickoff-9@example.org): added to \(f.calendar)\n"
                + "  mailed to alice@example.com\n", "\(run.stdout)")
        let calendar = String(decoding: try Data(contentsOf: URL(fileURLWithPath: f.calendar)), as: UTF8.self)
        #expect(calendar.contains("ATTENDEE;CN=Me;PARTSTAT=TENTATIVE:mailto:me@example.com\r\n"))
        let received = try sink.messages()
        #expect(received.count == 1)
        let sent = try #require(received.first)
        #expect(sent.contains("\nIn-Reply-To: <kickoff-mail-1@example.com>\n"))
        #expect(sent.contains("\nSubject: Tentative: Project kickoff\n"))
        let parts = try #require(try mail.python(sent)["parts"] as? [[String: Any]])
        let events = parts.compactMap { ($0["calendar"] as? [String: Any])?["events"] as? [[String: Any]] }.joined()
        let partstats = events.flatMap { ($0["attendees"] as? [[String: Any]] ?? []).compactMap { $0["partstat"] as? String } }
        #expect(partstats == ["TENTATIVE"])
    }

    @Test func theInboxMarksEachAnswer() throws {
        let dir = URL(fileURLWithPath: try Binary.temp("x", Data())).deletingLastPathComponent()
        let env = ["COOLCAL_STATE": dir.appendingPathComponent("state").path]
        let cal = try Binary.temp("work.ics", Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nEND:VCALENDAR\r\n".utf8))
        for (id, title) in [(21, "Accepted one"), (22, "Declined one"), (23, "Maybe one"), (24, "Noted one"), (25, "Open one")] {
            #expect(try Binary.run(["notify", "-"], stdin: payload(id, title), env: env).status == 0)
        }
        #expect(try Binary.run(["accept", "1", cal], env: env).status == 0)
        #expect(try Binary.run(["decline", "2"], env: env).status == 0)
        #expect(try Binary.run(["accept", "--tentative", "3", cal], env: env).status == 0)
        #expect(try Binary.run(["comment", "4", "later"], env: env).status == 0)
        func marks(_ args: [String], _ lang: String) throws -> [String] {
            let text = try Binary.run(["inbox"] + args, env: env.merging(["LANG": lang]) { $1 }).stdout
            // Entry lines start with their number; the zone line and the unread count follow.
            let lines = text.split(separator: "\n")
            #expect(lines.suffix(2).first == "times in UTC")
            // Number, unread mark (a space once read), answer mark, the title's first word.
            return lines.dropLast(2).map { line in
                String(line.prefix(6)) + String(line.dropFirst(6).prefix(while: { $0 != " " }))
            }
        }
        // Answering (a comment too) marks an invitation read (issue #46).
        #expect(try marks([], "en_US.UTF-8") == ["5 ● · Open", "4   ✎ Noted", "3   ? Maybe", "2   ✗ Declined", "1   ✓ Accepted"])
        #expect(try marks([], "C") == ["5 * . Open", "4   # Noted", "3   ? Maybe", "2   x Declined", "1   + Accepted"])
        #expect(try marks(["--unanswered"], "C") == ["5 * . Open", "4   # Noted"])
        let json = try Binary.json(try Binary.run(["inbox", "--json"], env: env).stdout)
        let entries = try #require(json["invitations"] as? [[String: Any]])
        #expect(entries.map { $0["answer"] as? String } == [nil, "commented", "tentative", "declined", "accepted"])
        #expect(entries.first.map { $0.keys.contains("answer") && $0["answer"] is NSNull } == true)
        #expect(try Binary.run(["accept", "5", cal], env: env).status == 0)
        #expect(try Binary.run(["decline", "4"], env: env).status == 0)
        #expect(try Binary.run(["inbox", "--unanswered"], env: env).stdout == "You have no unanswered invitations\n")
        let tentative = String(decoding: try Data(contentsOf: URL(fileURLWithPath: cal)), as: UTF8.self)
        #expect(tentative.contains("UID:coolcal-invite-23@") && tentative.contains("STATUS:TENTATIVE\r\n"))
    }
}
