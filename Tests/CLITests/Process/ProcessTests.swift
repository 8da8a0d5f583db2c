import Foundation
import Testing

/// `coolcal process` (issue #32): one message on standard input handled as merge handles a
/// spool message, with RFC 9671's outcome word first; exit 0 whenever the message should
/// be delivered normally, 75 only when a retry could succeed (and the message parked for
/// the next run), 64 for bad arguments before stdin is read.
@Suite struct ProcessTests {
    typealias T = OrganizerBindingTests
    static let alice = "Alice <alice@example.org>"

    @Test func outcomesInRFC9671sWords() throws {
        let d = try ProcessDesk()
        let invitation = T.mail(T.message(), from: Self.alice)
        #expect(try d.process(invitation).text == "added (accepted)\n")
        // Delivered twice (an MTA retry): answered once.
        #expect(try d.process(invitation).text == "no_action (already processed)\n")
        let update = T.mail(T.message(sequence: 1, start: "20310303T140000Z"), from: Self.alice)
        #expect(try d.process(update).text == "updated (accepted)\n")
        #expect(try d.text().contains("DTSTART:20310303T140000Z"))
        let cancel = T.mail(T.message(method: "CANCEL", sequence: 2), from: Self.alice, method: "CANCEL")
        #expect(try d.process(cancel).text == "updated (cancelled)\n")
        #expect(try d.count(T.uid) == 1 && d.text().contains("STATUS:CANCELLED"))
        // A stranger's invitation is held; a forged cancellation too; plain mail is no invitation.
        let stranger = SenderTrustTests.mail(SenderTrustTests.stranger(), from: "Bob <bob@stranger.example>")
        #expect(try d.process(stranger).text == "no_action (held: unknown sender)\n")
        let plain = "From: Carol <carol@example.org>\r\nSubject: lunch?\r\nMessage-ID: <x@example.org>\r\n\r\nnoon?\r\n"
        #expect(try d.process(plain).text == "no_action (no invitation)\n")
        let broken = T.mail("BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:x\r\n", from: Self.alice)
        let error = try d.process(broken)
        #expect(error.status == 0 && error.text.hasPrefix("error ("), "\(error.text)\(error.stderr)")
        // --json: the same as an object.
        let jsonText = try d.process(T.mail(T.message(uid: "j@example.org"), from: Self.alice), ["--json"]).text
        #expect(jsonText.hasSuffix("}\n") && !jsonText.hasSuffix("\n\n"), "one document, one line end: \(jsonText)")
        let json = try Binary.json(jsonText)
        #expect(json["outcome"] as? String == "added" && json["detail"] as? String == "accepted" && json["invite_id"] as? String == "j@example.org")
        #expect(d.parked.isEmpty)
    }

    /// The pass-through copy: the message byte for byte, an mbox From line first, then the
    /// outcome header; incoming outcome headers (folded too) are gone.
    @Test func passThroughAddsOneHeaderAndChangesNothingElse() throws {
        let d = try ProcessDesk()
        let body = T.message(uid: "pass@example.org")
        let headers = "From: \(Self.alice)\r\nTo: \(T.me)\r\nX-Coolcal-Outcome: added\r\n (forged)\r\nSubject: Invitation\r\n"
            + "x-coolcal-outcome : no_action (forged too)\r\nMessage-ID: <pass@mail.example.org>\r\n"
            + "Content-Type: text/calendar; charset=UTF-8; method=REQUEST\r\n\r\n"
        let message = "From alice@example.org Tue Dec  1 10:00:00 2026\r\n" + headers + body
        let run = try d.process(message, ["--pass-through"])
        #expect(run.status == 0, "\(run.stderr)")
        let expected = "From alice@example.org Tue Dec  1 10:00:00 2026\r\nX-Coolcal-Outcome: added (accepted)\r\n"
            + "From: \(Self.alice)\r\nTo: \(T.me)\r\nSubject: Invitation\r\nMessage-ID: <pass@mail.example.org>\r\n"
            + "Content-Type: text/calendar; charset=UTF-8; method=REQUEST\r\n\r\n" + body
        #expect(run.stdout == Data(expected.utf8), "\(run.text)")
        #expect(try d.count("pass@example.org") == 1)
        // Bytes that are not UTF-8 come back as they were.
        let latin1 = Data("From: x@example.org\nSubject: caf".utf8) + Data([0xE9]) + Data("\n\nbody ".utf8) + Data([0xFF, 0x00, 0x80]) + Data("\n".utf8)
        let raw = try ProcessRun.run(["--pass-through"] + d.args, message: latin1)
        #expect(raw.stdout == Data("X-Coolcal-Outcome: no_action (no invitation)\n".utf8) + latin1)
    }

    /// Bad arguments are 64 before standard input is read: a stdin that never ends does
    /// not hold the run.
    @Test func badArgumentsAre64BeforeStdinIsRead() throws {
        let dir = try Spawn.directory()
        let fifo = dir + "/never-written"
        try Spawn.mkfifo(fifo)
        let writer = open(fifo, O_RDWR)  // keeps the FIFO open: a reader would wait forever
        defer { close(writer) }
        for args in [["process", "--deadline", "0"], ["process", "--policy", "sometimes"], ["process", "--reply", "--no-reply"],
                     ["process", "-"]] {
            let run = try Spawn.run(args, stdin: fifo, watchdog: 20)
            #expect(!run.hung && run.status == 64, "\(args): \(run.status) \(run.stderr)")
        }
    }

    /// A calendar locked past the wait: 75, the message parked; delivered again later
    /// (procmail and maildrop redeliver on 75) it is added once, and the parked copy is
    /// answered by that run too without a second event.
    @Test(arguments: ["lock timeout", "deadline"])
    func aLockedCalendarIs75AndTheMessageIsAddedOnceLater(_ cut: String) throws {
        let d = try ProcessDesk()
        let lockPath = d.root + "/.cal.ics.coolcal-lock"
        let fd = open(lockPath, O_RDONLY | O_CREAT, 0o644)
        #expect(fd >= 0 && flock(fd, LOCK_EX) == 0)
        let message = T.mail(T.message(uid: "locked@example.org"), from: Self.alice)
        let before = try d.text()
        let locked = cut == "deadline"
            ? try d.process(message, ["--deadline", "1"], env: ["COOLCAL_LOCK_TIMEOUT": "30"])
            : try d.process(message, env: ["COOLCAL_LOCK_TIMEOUT": "0.3"])
        #expect(locked.status == 75, "\(locked.text)\(locked.stderr)")
        #expect(locked.stderr.contains(cut == "deadline" ? "no outcome within the deadline" : "locked by another coolcal"), "\(locked.stderr)")
        #expect(try d.text() == before)
        #expect(d.parked.count == 1, "the message was not parked")
        flock(fd, LOCK_UN)
        close(fd)
        let again = try d.process(message)
        #expect(again.status == 0 && again.text == "added (accepted)\n", "\(again.text)\(again.stderr)")
        #expect(try d.count("locked@example.org") == 1)
        #expect(d.parked.isEmpty, "the parked copy stayed")
    }

    /// What a run parked is answered by the next `merge` too, with no message of its own.
    @Test func mergeAnswersWhatProcessParked() throws {
        let d = try ProcessDesk()
        let message = T.mail(T.message(uid: "parked@example.org"), from: Self.alice)
        // No `me` anywhere: a config a person mends, so parked and 0 (the mail is delivered).
        let noMe = try ProcessRun.run(["--state", d.state, d.calendar], message: Data(message.utf8))
        #expect(noMe.status == 0 && d.parked.count == 1, "\(noMe.text)\(noMe.stderr)")
        #expect(noMe.text.hasSuffix("; parked, answered once fixed)\n"), "\(noMe.text)")
        let spool = d.root + "/spool"
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
        let merge = try Binary.run(["merge", "--me", T.me, "--state", d.state, "--spool", spool, d.calendar])
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(merge.stdout.contains("accepted") && merge.stdout.contains("parked/"), "\(merge.stdout)")
        #expect(try d.count("parked@example.org") == 1 && d.parked.isEmpty)
    }
}
