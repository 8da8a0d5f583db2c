import Foundation
import Testing
@testable import CLITests

/// `reply --send` and `accept|decline|merge --reply` through a real mail transfer:
/// msmtp (Debian) as the sendmail, delivering to an aiosmtpd server on 127.0.0.1;
/// the server down (msmtp exits 75: queued, delivered once later); a sendmail that
/// is missing (78) or fails (1: failed, never retried).
@Suite(.serialized) struct MailSendTests {
    let mail = MailAnswerTests()

    /// `COOLCAL_SENDMAIL` for msmtp talking to 127.0.0.1:`port`.
    func msmtp(_ f: MailAnswerTests.Files, port: Int) throws -> [String: String] {
        var env = f.env
        env["COOLCAL_SENDMAIL"] = "msmtp -C \(try SMTPSink.msmtprc(port: port, in: f.home)) -t"
        return env
    }

    func outbox(_ f: MailAnswerTests.Files, _ env: [String: String]) throws -> [[String: Any]] {
        let run = try Binary.run(["outbox", "--json", "--state", f.state], env: env)
        #expect(run.status == 0, "\(run.stderr)")
        return try #require(try Binary.json(run.stdout)["outbox"] as? [[String: Any]])
    }

    func responses(_ f: MailAnswerTests.Files, _ env: [String: String]) throws -> [[String: Any]] {
        let run = try Binary.run(["responses", "--json", "--state", f.state], env: env)
        #expect(run.status == 0, "\(run.stderr)")
        return try #require(try Binary.json(run.stdout)["responses"] as? [[String: Any]])
    }

    @Test func replySendGoesThroughMsmtpToTheServer() throws {
        let sink = try SMTPSink()
        let f = try mail.files(MailAnswerTests.instance)
        let env = try msmtp(f, port: sink.port)
        let send = try Binary.run(["reply", "--accept", "--send", "--state", f.state, f.invite], env: env)
        #expect(send.status == 0, "\(send.stderr)")
        // The hint of issue #46: where it went, and nothing on stderr.
        #expect(send.stdout == "mailed to juergen@example.org\n" && send.stderr.isEmpty, "\(send.stdout)\(send.stderr)")
        let received = try sink.messages()
        #expect(received.count == 1)
        #expect(try sink.recipients(1) == ["juergen@example.org"])
        // The message received is the one `reply --mail` prints, but for its Date,
        // Message-Id, DTSTAMP and MIME boundary.
        let printed = try Binary.run(["reply", "--accept", "--mail", f.invite], env: env)
        #expect(MailAnswerTests.normalized(try #require(received.first)) == MailAnswerTests.normalized(printed.stdout))
        // Recorded like `accept --reply`: the answer, and its mail as delivered.
        let answers = try responses(f, env)
        #expect(answers.map { $0["answer"] as? String } == ["accepted"])
        #expect(answers.map { $0["mail_delivery"] as? String } == ["delivered"])
        #expect(try outbox(f, env).isEmpty)
        // The same answer to the same version again: not mailed twice.
        let again = try Binary.run(["reply", "--accept", "--send", "--state", f.state, f.invite], env: env)
        #expect(again.status == 0)
        #expect(again.stderr == "coolcal: warning: \(f.invite): this answer was mailed already; not sent again\n")
        #expect(try sink.messages().count == 1)
    }

    @Test func serverDownQueuesAndALaterRunDeliversOnce() throws {
        let port = try ServerProcess.freePort()
        let f = try mail.files(MailAnswerTests.invitation())
        let env = try msmtp(f, port: port)
        let accept = try Binary.run(["accept", "--reply", "--state", f.state, f.invite, f.calendar], env: env)
        #expect(accept.status == 0, "\(accept.stderr)")
        #expect(accept.stdout.hasPrefix("accepted: Project kickoff"), "\(accept.stdout)")
        #expect(accept.stderr.contains("1 mail reply queued (msmtp -C "), "\(accept.stderr)")
        #expect(accept.stderr.contains("exit 75 (temporary failure)"), "\(accept.stderr)")
        let queued = try outbox(f, env)
        #expect(queued.map { $0["channel"] as? String } == ["mail"])
        #expect(queued.map { $0["method"] as? String } == ["reply"])
        #expect(queued.map { $0["state"] as? String } == ["queued"])
        #expect(queued.map { $0["attempts"] as? Int } == [1])
        let built = try #require(queued.first?["body"] as? String)
        #expect(try responses(f, env).map { $0["mail_delivery"] as? String } == ["queued"])
        // `responses` delivers the outbox too, but this reply waits out its backoff (5
        // minutes after the first failure). The text says it is mail, and when it is next tried.
        let listing = try Binary.run(["outbox", "--state", f.state], env: env)
        #expect(listing.stdout.hasPrefix("queued  reply kickoff-9@example.org  attempts 1  by mail  next "), "\(listing.stdout)")
        // A local time (as `conflicts` shows times), then the line naming the zone.
        #expect(["\u{202F}AM", "\u{202F}PM"].contains { listing.stdout.contains($0 + "  last: msmtp -C ") }, "\(listing.stdout)")
        #expect(listing.stdout.hasSuffix("\ntimes in UTC\n"), "\(listing.stdout)")

        // Accepting again while it waits adds nothing.
        _ = try Binary.run(["accept", "--reply", "--state", f.state, f.invite, f.calendar], env: env)
        #expect(try outbox(f, env).count == 1)

        // The server comes up: `outbox flush` delivers it, exactly the message built.
        let sink = try SMTPSink(port: port)
        let flush = try Binary.run(["outbox", "flush", "--state", f.state], env: env)
        #expect(flush.status == 0, "\(flush.stderr)")
        #expect(flush.stdout == "mailed 1, failed 0, still queued 0\n")
        #expect(try sink.messages() == [built])
        #expect(try sink.recipients(1) == ["alice@example.com"])
        #expect(try outbox(f, env).isEmpty)
        #expect(try responses(f, env).map { $0["mail_delivery"] as? String } == ["delivered"])

        // Later runs deliver nothing again: flush, accept, decline's drain.
        _ = try Binary.run(["outbox", "flush", "--state", f.state], env: env)
        let reaccept = try Binary.run(["accept", "--reply", "--state", f.state, f.invite, f.calendar], env: env)
        #expect(reaccept.status == 0, "\(reaccept.stderr)")
        _ = try Binary.run(["responses", "--state", f.state], env: env)
        #expect(try sink.messages().count == 1)

        // A new version (SEQUENCE 1) is a new answer to mail.
        try Data(MailAnswerTests.invitation(sequence: 1).utf8).write(to: URL(fileURLWithPath: f.invite))
        let update = try Binary.run(["accept", "--reply", "--state", f.state, f.invite, f.calendar], env: env)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(try sink.messages().count == 2)
    }

    @Test func replySendWithTheServerDownIs75AndQueued() throws {
        let f = try mail.files(MailAnswerTests.invitation())
        let env = try msmtp(f, port: try ServerProcess.freePort())
        let send = try Binary.run(["reply", "--decline", "--send", "--state", f.state, f.invite], env: env)
        #expect(send.status == 75)
        #expect(send.stdout.hasPrefix("queued for alice@example.com (msmtp -C ") && send.stdout.contains("Connection refused"),
                "\(send.stdout)")
        #expect(send.stderr.hasPrefix("coolcal: error: msmtp -C "), "\(send.stderr)")
        #expect(send.stderr.contains("Connection refused"), "\(send.stderr)")
        #expect(send.stderr.hasSuffix("the answer is queued, 'coolcal outbox flush' retries\n"), "\(send.stderr)")
        #expect(try outbox(f, env).map { $0["state"] as? String } == ["queued"])
        #expect(try responses(f, env).map { $0["mail_delivery"] as? String } == ["queued"])
        // Sent again while it waits: tried again at once (the backoff kept `responses` from
        // trying; the user asking does not wait), still one entry.
        let again = try Binary.run(["reply", "--decline", "--send", "--state", f.state, f.invite], env: env)
        #expect(again.status == 75)
        #expect(try outbox(f, env).map { $0["attempts"] as? Int } == [2])
        // Still down: flush is 75 and says why.
        let flush = try Binary.run(["outbox", "flush", "--state", f.state], env: env)
        #expect(flush.status == 75)
        #expect(flush.stderr.hasPrefix("coolcal: error: 1 mail reply still queued (msmtp -C "), "\(flush.stderr)")
    }

    @Test func missingSendmailIs78AndChangesNothing() throws {
        let f = try mail.files(MailAnswerTests.invitation())
        var env = f.env
        env["COOLCAL_SENDMAIL"] = "/nonexistent/sendmail -t"
        let send = try Binary.run(["reply", "--accept", "--send", "--state", f.state, f.invite], env: env)
        #expect(send.status == 78)
        #expect(send.stderr == "coolcal: error: sendmail '/nonexistent/sendmail -t': /nonexistent/sendmail: no such file (from COOLCAL_SENDMAIL)\n")
        #expect(!FileManager.default.fileExists(atPath: f.state))
        let before = try Data(contentsOf: URL(fileURLWithPath: f.calendar))
        let accept = try Binary.run(["accept", "--reply", "--state", f.state, f.invite, f.calendar], env: env)
        #expect(accept.status == 78)
        #expect(accept.stdout.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: f.calendar)) == before)
        #expect(!FileManager.default.fileExists(atPath: f.state))
        env["COOLCAL_SENDMAIL"] = "no-such-sendmail-here -t"
        let named = try Binary.run(["decline", "--reply", "--state", f.state, f.invite], env: env)
        #expect(named.status == 78)
        #expect(named.stderr == "coolcal: error: sendmail 'no-such-sendmail-here -t': no-such-sendmail-here: not found in PATH (from COOLCAL_SENDMAIL)\n")
    }

    @Test func sendmailExiting1IsFailedAndNeverRetried() throws {
        let f = try mail.files(MailAnswerTests.invitation())
        var env = f.env
        env["COOLCAL_SENDMAIL"] = "/bin/false"
        let send = try Binary.run(["reply", "--accept", "--send", "--state", f.state, f.invite], env: env)
        #expect(send.status == 74)
        #expect(send.stderr == "coolcal: error: /bin/false: exit 1; not sent (see 'coolcal outbox')\n")
        let entries = try outbox(f, env)
        #expect(entries.map { $0["state"] as? String } == ["failed"])
        #expect(entries.map { $0["attempts"] as? Int } == [1])
        #expect(try responses(f, env).map { $0["mail_delivery"] as? String } == ["failed"])
        // No run sends it by itself: flush, and commands that deliver the outbox.
        let flush = try Binary.run(["outbox", "flush", "--state", f.state], env: env)
        #expect(flush.status == 0, "\(flush.stderr)")
        #expect(flush.stdout == "mailed 0, failed 1 (coolcal outbox retry), still queued 0\n")
        _ = try Binary.run(["responses", "--state", f.state], env: env)
        #expect(try outbox(f, env).map { $0["attempts"] as? Int } == [1])
    }

    /// `sendmail = CMD` in the config is one settings row: `config` lists it, and the
    /// environment comes before it.
    @Test func sendmailFromTheConfigFile() throws {
        let f = try mail.files(MailAnswerTests.invitation())
        let env = ["XDG_CONFIG_HOME": try Binary.configHome("me = me@example.com\nsendmail = /bin/false -t\n")]
        let config = try Binary.run(["config"], env: env)
        #expect(config.stdout.contains("\nsendmail      /bin/false -t  (config file)\n"), "\(config.stdout)")
        let send = try Binary.run(["reply", "--accept", "--send", "--state", f.state, f.invite], env: env)
        #expect(send.status == 74)
        #expect(send.stderr == "coolcal: error: /bin/false -t: exit 1; not sent (see 'coolcal outbox')\n")
        let overridden = try Binary.run(["config"], env: env.merging(["COOLCAL_SENDMAIL": "msmtp -t"]) { $1 })
        #expect(overridden.stdout.contains("\nsendmail      msmtp -t  (COOLCAL_SENDMAIL)\n"), "\(overridden.stdout)")
        let plain = try Binary.run(["config"], env: f.env)
        #expect(plain.stdout.contains("\nsendmail      /usr/sbin/sendmail -t -oi  (default)\n"), "\(plain.stdout)")
        // The text of `responses` says how the mail stands.
        let listed = try Binary.run(["responses", "--state", f.state], env: env)
        #expect(listed.stdout.contains("Project kickoff") && listed.stdout.contains("(mail failed)"), "\(listed.stdout)")
    }

    @Test func replyOnAPushPayloadIsAWarning() throws {
        let f = try mail.files(#"{"title": "Family Reunion", "start": "2036-08-20T08:00:00Z", "end": "2036-08-20T12:00:00Z", "id": 12}"#,
                               name: "invite.json")
        var env = f.env
        env["COOLCAL_SENDMAIL"] = "/bin/false"
        let accept = try Binary.run(["accept", "--reply", "--state", f.state, f.invite, f.calendar], env: env)
        #expect(accept.status == 0, "\(accept.stderr)")
        #expect(accept.stderr == "coolcal: warning: \(f.invite): --reply: no organizer to mail the answer to (not an iTIP invitation); not mailed\n")
        #expect(try outbox(f, env).isEmpty)
    }

    /// Without an address to answer from, `merge` stops before answering anything: it
    /// cannot tell which invitations are addressed to the user (78, naming the key).
    @Test func mergeWithoutMeIsAConfigError() throws {
        let f = try mail.files(MailAnswerTests.invitation())
        let spool = f.home.appendingPathComponent("spool")
        try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: true)
        try Data(MailAnswerTests.invitation().utf8).write(to: spool.appendingPathComponent("a.ics"))
        let env = ["COOLCAL_SENDMAIL": "/bin/true"]
        let merge = try Binary.run(["merge", "--reply", "--spool", spool.path, "--state", f.state, f.calendar], env: env)
        #expect(merge.status == 78)
        #expect(merge.stderr == "coolcal: error: merge: no 'me' set: merge answers only invitations addressed to you; add 'me = ADDRESS' to the config file (or give --me ADDRESS)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: spool.path).sorted() == ["a.ics"], "nothing created in the spool")
    }

    @Test func mergeReplyMailsEachAnswerOnce() throws {
        let sink = try SMTPSink()
        let f = try mail.files(MailAnswerTests.invitation())
        let env = try msmtp(f, port: sink.port)
        let spool = f.home.appendingPathComponent("spool")
        try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: true)
        try Data(MailAnswerTests.invitation().utf8).write(to: spool.appendingPathComponent("a.ics"))
        let merge = try Binary.run(["merge", "--reply", "--me", "me@example.com", "--accept-from", "anyone", "--spool", spool.path, "--state", f.state, f.calendar], env: env)
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(merge.stdout.hasPrefix("accepted  a.ics  Project kickoff"), "\(merge.stdout)")
        #expect(try sink.messages().count == 1)
        // The same invitation arriving again: answered again, not mailed again.
        try Data(MailAnswerTests.invitation().utf8).write(to: spool.appendingPathComponent("b.ics"))
        let second = try Binary.run(["merge", "--reply", "--me", "me@example.com", "--accept-from", "anyone", "--spool", spool.path, "--state", f.state, f.calendar], env: env)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try sink.messages().count == 1)
        let first = try #require(try sink.messages().first)
        let parts = try #require(try mail.python(first)["parts"] as? [[String: Any]])
        #expect(parts.first?["text"] as? String == "Me has accepted this invitation.\n")
    }
}
