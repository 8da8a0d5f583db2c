import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalSupport
@testable import CoolcalMail
@testable import CoolcalInvite
@testable import CoolcalState
@testable import CoolcalRSVP
@testable import CoolcalCLI
@testable import CoolcalTestSupport

/// Mail/ (GMime) and the mail half of the state: headers that cannot be injected,
/// threading under the invitation's e-mail, addresses refused, the sendmail's
/// outcomes, one mail per version, and the schema step that adds the channel.
@Suite struct MailReplyTests {
    static let invitation = """
        BEGIN:VCALENDAR\r
        PRODID:-//Test//EN\r
        VERSION:2.0\r
        METHOD:REQUEST\r
        BEGIN:VEVENT\r
        UID:kickoff-9@example.org\r
        SEQUENCE:2\r
        DTSTART:20260822T080000Z\r
        DTEND:20260822T090000Z\r
        DTSTAMP:20260815T091500Z\r
        ORGANIZER;CN=Alice Example:mailto:alice@example.com\r
        ATTENDEE;CN=Me;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:me@example.com\r
        SUMMARY:Project kickoff\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    func file(mail: MailHeaders? = nil) throws -> InvitationFile {
        var file = try InviteLoader.open(Data(Self.invitation.utf8), name: "invite.eml", floatingZone: TimeZone(identifier: "UTC")!)
        file.invite.mail = mail
        return file
    }

    static let now = Date(timeIntervalSince1970: 1_787_000_000)

    func headerLines(_ message: String) -> [Substring] {
        (message.components(separatedBy: "\n\n").first ?? "").split(separator: "\n")
    }

    /// `--send` implies `--mail`; `--reply` is one shared flag on accept, decline and merge.
    @Test func mailFlagsParse() throws {
        func parsed<T: CommandUnit>(_ args: [String], as _: T.Type) throws -> T {
            guard case .run(let command) = try CommandParser.parse(args) else { throw TestFailure("not a command") }
            return try #require(command as? T)
        }
        let send = try parsed(["reply", "--accept", "--send", "i.ics"], as: ReplyCommand.self)
        #expect(send.send && send.mail)
        let mail = try parsed(["reply", "--tentative", "--mail", "i.ics"], as: ReplyCommand.self)
        #expect(mail.mail && !mail.send && mail.partstat == "TENTATIVE")
        #expect(try !parsed(["reply", "--accept", "i.ics"], as: ReplyCommand.self).mail)
        #expect(try parsed(["accept", "--reply", "i.ics", "c.ics"], as: AcceptCommand.self).reply == .always)
        #expect(try parsed(["decline", "--reply", "--me", "me@example.com", "i.ics"], as: DeclineCommand.self).reply == .always)
        #expect(try parsed(["merge", "--reply", "--spool", "s", "c.ics"], as: MergeCommand.self).reply == .always)
        #expect(try parsed(["merge", "--spool", "s", "c.ics"], as: MergeCommand.self).reply == .config)
        #expect(try parsed(["merge", "--no-reply", "--spool", "s", "c.ics"], as: MergeCommand.self).reply == .never)
    }

    @Test func threadsUnderTheInvitationsMessageID() throws {
        let reply = try MailReply(try file(mail: MailHeaders(from: "Alice <alice@example.com>", subject: "Invitation",
                                                              messageID: "inv-1@mail.example.org")),
                                  me: ["me@example.com"], partstat: "ACCEPTED", comment: nil, now: Self.now, domain: "example.net")
        let lines = headerLines(reply.message.rendered())
        #expect(lines.contains("In-Reply-To: <inv-1@mail.example.org>"))
        #expect(lines.contains("References: <inv-1@mail.example.org>"))
        #expect(lines.contains("From: Me <me@example.com>"))
        #expect(lines.contains("To: Alice Example <alice@example.com>"))
        #expect(lines.contains("Date: Mon, 17 Aug 2026 20:53:20 +0000"))
        #expect(lines.contains { $0.hasPrefix("Message-Id: <") && $0.hasSuffix("@example.net>") })
        #expect(reply.version == "kickoff-9@example.org|2||ACCEPTED")
    }

    /// A comment's REPLY is one version per text: two comments are two mails, and neither
    /// is the accept's mail (which would make it "mailed already").
    @Test func aCommentsVersionHasItsText() throws {
        func comment(_ text: String, _ partstat: String) throws -> String {
            try MailReply(try file(), me: ["me@example.com"], partstat: partstat, comment: text, now: Self.now, domain: "example.net",
                          commentOnly: true).version
        }
        #expect(try comment("Running late", "NEEDS-ACTION") == "kickoff-9@example.org|2||NEEDS-ACTION|comment:Running late")
        #expect(try comment("Running late", "ACCEPTED") == "kickoff-9@example.org|2||ACCEPTED|comment:Running late")
        #expect(try comment("Bring the slides", "ACCEPTED") != (try comment("Running late", "ACCEPTED")))
        func parsed<T: CommandUnit>(_ args: [String], as _: T.Type) throws -> T {
            guard case .run(let command) = try CommandParser.parse(args) else { throw TestFailure("not a command") }
            return try #require(command as? T)
        }
        #expect(try parsed(["comment", "--reply", "--me", "me@example.com", "3", "Hi"], as: CommentCommand.self).reply == .always)
        #expect(try parsed(["comment", "--no-reply", "3", "Hi"], as: CommentCommand.self).reply == .never)
        #expect(try parsed(["comment", "3", "Hi"], as: CommentCommand.self).reply == .config)
    }

    @Test func withoutAnEmailThereIsNoInReplyTo() throws {
        let reply = try MailReply(try file(), me: ["me@example.com"], partstat: "DECLINED", comment: nil, now: Self.now, domain: "example.net")
        let lines = headerLines(reply.message.rendered())
        #expect(!lines.contains { $0.hasPrefix("In-Reply-To") || $0.hasPrefix("References") })
        #expect(lines.contains("Subject: Declined: Project kickoff"))
    }

    /// A received Message-ID is not trusted: one that would break out of `<…>` or
    /// its line is dropped, not written.
    @Test func aHostileMessageIDIsDropped() throws {
        let reply = try MailReply(try file(mail: MailHeaders(messageID: "x>\r\nBcc: evil@example.com")),
                                  me: ["me@example.com"], partstat: "ACCEPTED", comment: nil, now: Self.now, domain: "example.net")
        let lines = headerLines(reply.message.rendered())
        #expect(!lines.contains { $0.hasPrefix("In-Reply-To") || $0.hasPrefix("Bcc") })
    }

    /// Raw CR, LF, U+2028 and C1 controls in the subject and names end no header line.
    @Test func controlCharactersNeverStartAHeader() throws {
        let message = ReplyMessage(
            from: try #require(MailAddress(calendarAddress: "me@example.com", name: "Me\r\nBcc: evil1@example.com")),
            to: try #require(MailAddress(calendarAddress: "alice@example.com", name: "Alice\u{2028}Cc: evil2@example.com")),
            subject: "Accepted: x\r\nBcc: evil3@example.com\nX-Evil: \u{85}1", date: Self.now, messageID: "a@example.net",
            inReplyTo: nil, text: "hi", calendar: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
        let lines = headerLines(message.rendered())
        #expect(lines.map { String($0.prefix { $0 != ":" }) } == ["Date", "From", "Subject", "To", "Message-Id", "MIME-Version", "Content-Type"])
        #expect(!lines.contains { $0.hasPrefix("Bcc") || $0.hasPrefix("Cc") || $0.hasPrefix("X-Evil") })
        #expect(lines.contains("Subject: Accepted: x Bcc: evil3@example.com X-Evil: 1"))
        #expect(HeaderText.clean("a\r\n\tb\u{2029}c\u{7F}") == "a b c")
    }

    @Test(arguments: ["mailto:alice@example.com,evil@example.com", "alice@example.com evil@example.com", "<alice@example.com>",
                      "Alice <alice@example.com>", "alice", "@example.com", "alice@", "a@b@example.com", "alice@example.com\r\nBcc: x",
                      "mailto:", "\"a\"@example.com"])
    func addressesThatAreNotOneMailboxAreRefused(_ text: String) {
        #expect(MailAddress(calendarAddress: text) == nil)
    }

    @Test func calendarAddressesBecomeMailboxes() throws {
        #expect(MailAddress(calendarAddress: "MAILTO:Alice@Example.com")?.address == "Alice@Example.com")
        #expect(MailAddress(calendarAddress: " mailto:a.b+c@example.com ", name: " ")?.name == nil)
    }

    @Test func meThatIsNotAMailAddressIsAUsageError() throws {
        #expect(throws: MailReply.Failure.usage("--me 'me' is not a mail address")) {
            try MailReply(try file(), me: ["me", "me@example.com"], partstat: "ACCEPTED", comment: nil, now: Self.now, domain: "x")
        }
    }

    @Test func sendmailOutcomes() throws {
        let env = ["PATH": "/usr/bin:/bin"]
        #expect(try Sendmail(command: "cat", environment: env).send("x\n") == .sent)
        #expect(try Sendmail(command: "cat", environment: env).executable == "/usr/bin/cat")
        guard case .failed(let why) = try Sendmail(command: "/bin/false", environment: env).send("x\n") else {
            Issue.record("false did not fail")
            return
        }
        #expect(why == "/bin/false: exit 1")
        // A sendmail that exits without reading its input: its status, not a SIGPIPE.
        #expect(try Sendmail(command: "/bin/true", environment: env).send(String(repeating: "y", count: 1 << 20)) == .sent)
        #expect(throws: Sendmail.Missing(command: "/no/such -t", reason: "/no/such: no such file")) {
            try Sendmail(command: "/no/such -t", environment: env)
        }
        #expect(throws: Sendmail.Missing(command: "  ", reason: "empty command")) { try Sendmail(command: "  ", environment: env) }
        #expect(throws: Sendmail.Missing(command: "/tmp", reason: "/tmp: not executable")) { try Sendmail(command: "/tmp", environment: env) }
    }

    @Test func aVersionIsMailedOnce() throws {
        let store = try StateStore(directory: stateDirectory("mail"))
        let first = try store.mailReplies.queue(version: "u|1||ACCEPTED", responseKey: nil, inviteID: "u", message: "m1", at: Self.now)
        guard case .queued(let key) = first else {
            Issue.record("not queued: \(first)")
            return
        }
        #expect(try store.mailReplies.queue(version: "u|1||ACCEPTED", responseKey: nil, inviteID: "u", message: "m2", at: Self.now)
                == .alreadyQueued(key))
        let entry = try #require(try store.outbox.entries().first)
        #expect(entry.channel == .mail && entry.method == "reply" && entry.answer == nil && entry.body == "m1")
        try store.outbox.markFailed(key, reason: "exit 1")
        // Given again after a failure: queued again under its key.
        #expect(try store.mailReplies.queue(version: "u|1||ACCEPTED", responseKey: nil, inviteID: "u", message: "m3", at: Self.now)
                == .queued(key))
        #expect(try store.outbox.entries().map(\.state) == [.queued])
        #expect(try !store.mailReplies.sent(version: "u|1||ACCEPTED"))
        try store.outbox.markDelivered(key)
        #expect(try store.mailReplies.sent(version: "u|1||ACCEPTED"))
        #expect(try store.mailReplies.queue(version: "u|1||ACCEPTED", responseKey: nil, inviteID: "u", message: "m4", at: Self.now)
                == .alreadySent)
        #expect(try store.outbox.entries().isEmpty)
        // Another version, or another answer, is another mail.
        #expect(try store.mailReplies.queue(version: "u|2||ACCEPTED", responseKey: nil, inviteID: "u", message: "m5", at: Self.now)
                != .alreadySent)
    }

    /// The schema step keeps every outbox entry of an older state, as server entries.
    @Test func migrationKeepsServerEntries() throws {
        let directory = stateDirectory("migrate")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        do {
            let old = try SQLiteDatabase(path: directory + "/" + StateStore.fileName)
            try old.execute(StateStore.migrations[0])
            try old.execute("""
                INSERT INTO responses (key, invite_id, answer, answered_at, start, "end", all_day, title)
                VALUES ('k1', '12', 'accepted', 0, '2026-03-02T12:00:00Z', '2026-03-02T13:00:00Z', 0, 'Lunch');
                INSERT INTO outbox (idempotency_key, method, invite_id, body, created_at, attempts, last_error)
                VALUES ('k1', 'accept', '12', '{}', 0, 2, 'down');
                PRAGMA user_version = 1;
                """)
        }
        let store = try StateStore(directory: directory)
        let entries = try store.outbox.entries()
        #expect(entries.count == 1)
        #expect(entries.first?.channel == .server && entries.first?.answer == .accepted && entries.first?.attempts == 2)
        #expect(try store.responses().map(\.delivery) == [.queued])
        #expect(try store.responses().map(\.mail) == [nil])
    }
}
