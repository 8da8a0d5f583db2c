import Foundation
import Testing

/// Issue #46 item 2: a comment on a mail invitation reaches its organizer. Through the
/// binary, a Maildir merged by `merge` and a sendmail that logs each message: `comment
/// --reply N TEXT` mails a REPLY (RFC 5546 §3.2.3) with my answer as it stands
/// (NEEDS-ACTION while unanswered, so the entry stays unanswered) and the COMMENT;
/// without mailing it says how to; a held entry is never mailed; and the hints of the
/// answers mailed (`mailed to ORGANIZER`, `queued for ORGANIZER (REASON)`).
@Suite struct CommentByMailTests {
    typealias T = OrganizerBindingTests
    typealias Box = OutgoingMailEndToEndTests.Box

    static let uid = "budget-1@example.org"

    /// Alice's old event (she is someone I deal with) and a busy hour at the invitation's
    /// time, so that `merge` leaves the invitation unanswered (`busy`) rather than accepting it.
    static let calendar = HeldMergeTests.calendarKnowingAlice.replacingOccurrences(of: "END:VCALENDAR", with: [
        "BEGIN:VEVENT", "UID:dentist@example.net", "DTSTAMP:20260101T090000Z",
        "DTSTART:20310303T100000Z", "DURATION:PT1H", "SUMMARY:Dentist", "END:VEVENT", "END:VCALENDAR",
    ].joined(separator: "\r\n"))

    /// A box whose Maildir brought Alice's "Budget sync" (merged, busy, unanswered) and,
    /// when `stranger`, Mallory's "Cheap watches" (held: unknown sender); the inbox numbers.
    static func merged(stranger: Bool = false, title: String = "Budget sync") throws -> (Box, budget: Int, held: Int?) {
        let b = try Box(calendar: calendar)
        try b.box.deliver("1.invite", T.mail(T.message(summary: title, uid: uid), from: "Alice <alice@example.org>"))
        if stranger {
            try b.box.deliver("2.invite", T.mail(T.message(organizer: "mallory@evil.example", start: "20310305T100000Z",
                                                           summary: "Cheap watches", uid: "watches@evil.example"),
                                                 from: "Mallory <mallory@evil.example>"))
        }
        let merge = try b.box.merge()
        #expect(merge.status == 0, "\(merge.stdout)\(merge.stderr)")
        let outcomes = try b.box.outcomes(merge).map { $0["outcome"] as? String ?? "" }.sorted()
        #expect(outcomes == (stranger ? ["busy", "held"] : ["busy"]), "\(merge.stdout)")
        #expect(b.mails().isEmpty, "merge mailed nothing")
        let inbox = try unanswered(b)
        let budget = try #require(inbox.first { $0["title"] as? String == title }?["number"] as? Int)
        return (b, budget, inbox.first { $0["title"] as? String == "Cheap watches" }?["number"] as? Int)
    }

    /// `inbox --unanswered --json`'s invitations.
    static func unanswered(_ b: Box) throws -> [[String: Any]] {
        try Binary.json(try b.run(["inbox", "--unanswered", "--json"]).stdout)["invitations"] as? [[String: Any]] ?? []
    }

    /// The mail's calendar lines of my ATTENDEE and the COMMENT, and its METHOD.
    static func said(_ mail: String) -> (method: String?, attendee: String?, comment: String?) {
        let lines = OutgoingMailEndToEndTests.calendarLines(mail)
        return (lines.first { $0.hasPrefix("METHOD:") }, lines.first { $0.hasPrefix("ATTENDEE") && $0.hasSuffix(":mailto:\(T.me)") },
                lines.first { $0.hasPrefix("COMMENT") })
    }

    /// (A title with é, for the byte checks every mail of coolcal's passes.)
    @Test func aCommentWithReplyIsMailedAndTheInvitationStaysUnanswered() throws {
        let title = OutgoingMailEndToEndTests.titles[0]
        let (b, number, _) = try Self.merged(title: title.title)
        let run = try b.run(["comment", "--reply", "--me", T.me, String(number), "Running late – sorry"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "commented: Café-Besprechung (id \(Self.uid))\n  mailed to alice@example.org\n", "\(run.stdout)")
        let mails = b.mails()
        #expect(mails.count == 1)
        let mail = try #require(mails.first)
        let (method, attendee, comment) = Self.said(mail)
        #expect(method == "METHOD:REPLY")
        #expect(attendee?.contains(";PARTSTAT=NEEDS-ACTION") == true && attendee?.contains("RSVP") == false, "\(attendee ?? mail)")
        #expect(comment == "COMMENT:Running late – sorry", "\(comment ?? mail)")
        #expect(mail.contains("\nTo: Organizer <alice@example.org>\n"), "\(mail)")
        // The same checks as every other mail coolcal sends: UTF-8 under its labels, short lines.
        OutgoingMailEndToEndTests.checkBytes(mail, title: title, kind: "comment REPLY")
        // Still unanswered: the comment is no answer.
        #expect(try Self.unanswered(b).contains { $0["number"] as? Int == number })
        // The same text again is not mailed again; a new one is.
        let again = try b.run(["comment", "--reply", "--me", T.me, String(number), "Running late – sorry"])
        #expect(again.stdout == "commented: Café-Besprechung (id \(Self.uid))\n  already mailed to alice@example.org; not mailed again\n",
                "\(again.stdout)\(again.stderr)")
        #expect(b.mails().count == 1)
    }

    /// After an accept (mailed: `mailed to` under its line), a comment carries ACCEPTED.
    @Test func aCommentAfterAcceptingCarriesTheAnswer() throws {
        let (b, number, _) = try Self.merged()
        let accept = try b.run(["accept", "--reply", "--me", T.me, String(number), b.box.calendar])
        #expect(accept.status == 0, "\(accept.stderr)")
        #expect(accept.stdout.hasSuffix("\n  mailed to alice@example.org\n"), "\(accept.stdout)")
        #expect(accept.stdout.hasPrefix("accepted: Budget sync (id \(Self.uid)): "), "\(accept.stdout)")
        let comment = try b.run(["comment", "--reply", "--me", T.me, String(number), "Bringing the slides"])
        #expect(comment.stdout == "commented: Budget sync (id \(Self.uid))\n  mailed to alice@example.org\n", "\(comment.stdout)")
        let mails = b.mails()
        #expect(mails.count == 2)
        let said = Self.said(mails.last ?? "")
        #expect(said.attendee?.contains(";PARTSTAT=ACCEPTED") == true, "\(said)")
        #expect(said.comment == "COMMENT:Bringing the slides")
        #expect(mails.last?.contains("\nSubject: Comment: Budget sync\n") == true, "\(mails.last ?? "")")
    }

    /// Not mailed (no `--reply`, or `--no-reply` over `reply = mail`): kept, and the line
    /// says how to mail it; nothing is mailed.
    @Test func withoutMailingTheLineSaysHowToMailIt() throws {
        let (b, number, _) = try Self.merged()
        let kept = try b.run(["comment", String(number), "I'm late"])
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(kept.stdout == "commented: Budget sync (kept here; organizer not told: coolcal comment --reply \(number) 'I'\\''m late')\n",
                "\(kept.stdout)")
        try Data("me = \(T.me)\nreply = mail\n".utf8).write(to: URL(fileURLWithPath: b.root + "/xdg/coolcal/config"))
        let skipped = try b.run(["comment", "--no-reply", String(number), "Later"])
        #expect(skipped.stdout == "commented: Budget sync (kept here; organizer not told: coolcal comment --reply \(number) 'Later')\n",
                "\(skipped.stdout)")
        #expect(b.mails().isEmpty)
        // `reply = mail` alone mails it.
        let mailed = try b.run(["comment", String(number), "Now then"])
        #expect(mailed.stdout == "commented: Budget sync (id \(Self.uid))\n  mailed to alice@example.org\n", "\(mailed.stdout)\(mailed.stderr)")
        #expect(b.mails().count == 1)
        // The command the first line gave, as pasted: the comment kept then is mailed now.
        let pasted = try b.run(["comment", "--reply", String(number), "I'm late"])
        #expect(pasted.stdout == "commented: Budget sync (id \(Self.uid))\n  mailed to alice@example.org\n", "\(pasted.stdout)\(pasted.stderr)")
        #expect(b.mails().count == 2)
        #expect(Self.said(b.mails().last ?? "").comment == "COMMENT:I'm late")
    }

    /// A comment on an entry merge held is never mailed, not even with `--reply`.
    @Test func aHeldEntryIsNeverMailed() throws {
        let (b, _, held) = try Self.merged(stranger: true)
        let number = try #require(held)
        let run = try b.run(["comment", "--reply", "--me", T.me, String(number), "Who are you?"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "commented: Cheap watches (held: unknown sender; kept here, not mailed: a held invitation's comment never is)\n",
                "\(run.stdout)")
        #expect(b.mails().isEmpty)
        let still = try Self.unanswered(b).first { $0["number"] as? Int == number }
        #expect(still?["held"] as? String == "unknown sender", "\(String(describing: still))")
    }

    /// The hints of `accept --reply`, `decline --reply` and `reply --send` when the
    /// sendmail fails for now: `queued for ORGANIZER (REASON)`.
    @Test func aSendmailThatFailsForNowSaysQueued() throws {
        let (b, number, _) = try Self.merged()
        let script = "#!/bin/sh\ncat > /dev/null\necho 'mail server down' >&2\nexit 75\n"
        try Data(script.utf8).write(to: URL(fileURLWithPath: b.root + "/sendmail"))
        chmod(b.root + "/sendmail", 0o755)
        let reason = "\(b.root)/sendmail: exit 75 (temporary failure): mail server down"
        let decline = try b.run(["decline", "--reply", "--me", T.me, String(number)])
        #expect(decline.status == 0, "\(decline.stderr)")
        #expect(decline.stdout == "declined: Budget sync (id \(Self.uid))\n  queued for alice@example.org (\(reason))\n", "\(decline.stdout)")
        let send = try b.run(["reply", "--accept", "--send", "--me", T.me, String(number)])
        #expect(send.status == 75, "\(send.stderr)")
        #expect(send.stdout == "queued for alice@example.org (\(reason))\n", "\(send.stdout)")
        // Working again: `reply --send` says where it went.
        try Data("#!/bin/sh\ncat >> '\(b.box.sendmailLog)'\necho '--- end of message' >> '\(b.box.sendmailLog)'\n".utf8)
            .write(to: URL(fileURLWithPath: b.root + "/sendmail"))
        chmod(b.root + "/sendmail", 0o755)
        let tentative = try b.run(["reply", "--tentative", "--send", "--me", T.me, String(number)])
        #expect(tentative.status == 0, "\(tentative.stderr)")
        #expect(tentative.stdout == "mailed to alice@example.org\n", "\(tentative.stdout)")
    }

    /// `c` in `review`, with `reply = mail`: the comment is mailed, as `comment N TEXT` does,
    /// and the invitation stays unanswered.
    @Test func reviewsCommentIsMailed() throws {
        let pane = try TerminalPane { dir in
            let script = "#!/bin/sh\ncat >> '\(dir)/sendmail.log'\necho '--- end of message' >> '\(dir)/sendmail.log'\n"
            try Data(script.utf8).write(to: URL(fileURLWithPath: dir + "/sendmail"))
            chmod(dir + "/sendmail", 0o755)
            try FileManager.default.createDirectory(atPath: dir + "/no-config/coolcal", withIntermediateDirectories: true)
            try Data("me = \(T.me)\nreply = mail\nsendmail = \(dir)/sendmail\n".utf8)
                .write(to: URL(fileURLWithPath: dir + "/no-config/coolcal/config"))
            let run = try Binary.run(["notify", "--state", dir + "/state", "-"],
                                     stdin: T.mail(T.message(summary: "Budget sync", uid: Self.uid), from: "Alice <alice@example.org>"))
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(pane.waitFor("invitation 1 of 1"), "\(pane.screen)")
        pane.keys("c")
        #expect(pane.waitFor("comment (Enter sends, Esc cancels):"), "\(pane.screen)")
        pane.keys("-l", "Running late")
        pane.keys("Enter")
        #expect(pane.waitFor("commented: Budget sync", "mailed to alice@example.org"), "\(pane.screen)")
        pane.keys("q")
        #expect(pane.status() == "0", "\(pane.file("err.txt"))")
        let log = pane.file("sendmail.log")
        let mails = log.components(separatedBy: "--- end of message\n").filter { !$0.isEmpty }
        #expect(mails.count == 1, "\(log)")
        let said = Self.said(mails.first ?? "")
        #expect(said.method == "METHOD:REPLY" && said.comment == "COMMENT:Running late", "\(log)")
        #expect(said.attendee?.contains(";PARTSTAT=NEEDS-ACTION") == true, "\(log)")
        let inbox = try Binary.json(try Binary.run(["inbox", "--unanswered", "--json", "--state", pane.dir + "/state"]).stdout)
        #expect((inbox["invitations"] as? [[String: Any]])?.count == 1, "\(inbox)")
    }
}
