import Foundation
import Testing
@testable import CoolcalCLI
@testable import CoolcalTestSupport

/// Issue #28, protocol order: a `merge` run applies the messages of one event by SEQUENCE
/// and DTSTAMP (a CANCEL after its REQUEST), whatever their Maildir folders; nothing is
/// mailed for an answer a later message of the run overtook; a cancellation is remembered,
/// so the invitation it cancels, arriving later, is ignored. In-process, the clock set.
@Suite(.serialized) struct ArrivalOrderTests {
    typealias Result = MergeQuietTests.Result

    /// 2025-03-01T00:00:00Z: before the corpus chains' meetings.
    static let t0 = Date(timeIntervalSince1970: 1_740_787_200)

    /// The real-mail corpus beside the checkout (`../shared/corpora/mail-real`), if there.
    static let corpus: URL? = {
        Checkout.corpus("mail-real")
    }()

    struct Box {
        let root: String
        var maildir: String { root + "/Maildir" }
        var calendar: String { root + "/cal.ics" }
        var log: String { root + "/sendmail.log" }

        func put(_ folder: String, _ name: String, _ data: Data) throws {
            try data.write(to: URL(fileURLWithPath: maildir + "/\(folder)/" + name))
        }

        func merge(me: String, _ extra: [String] = []) -> Result {
            MergeQuietTests().run(["merge", "--json", "--reply", "--me", me, "--state", root + "/state", "--spool", maildir]
                                  + extra + [calendar], ["COOLCAL_SENDMAIL": root + "/sendmail"], at: ArrivalOrderTests.t0)
        }

        func outcomes(_ run: Result) -> [String] {
            let document = (try? JSONSerialization.jsonObject(with: Data(run.out.utf8))) as? [String: Any]
            return (document?["outcomes"] as? [[String: Any]] ?? []).map { "\($0["name"] as? String ?? "") \($0["outcome"] as? String ?? "")" }
        }

        func mailed() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        func text() -> String { (try? String(contentsOfFile: calendar, encoding: .utf8)) ?? "" }
    }

    func box() throws -> Box {
        let root = stateDirectory("arrival")
        for folder in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(atPath: root + "/Maildir/" + folder, withIntermediateDirectories: true)
        }
        let b = Box(root: root)
        try Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//Empty//EN\r\nEND:VCALENDAR\r\n".utf8)
            .write(to: URL(fileURLWithPath: b.calendar))
        try Data("#!/bin/sh\ncat >> '\(b.log)'\necho '--- end' >> '\(b.log)'\n".utf8).write(to: URL(fileURLWithPath: root + "/sendmail"))
        chmod(root + "/sendmail", 0o755)
        return b
    }

    static func message(method: String, sequence: Int, stamp: String, uid: String = "order-1@example.org",
                        start: String = "20250320T100000Z") -> Data {
        let ics = [
            "BEGIN:VCALENDAR", "PRODID:-//Test//Order//EN", "VERSION:2.0", "METHOD:\(method)",
            "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:\(stamp)", "SEQUENCE:\(sequence)",
            "DTSTART:\(start)", "DURATION:PT1H", "SUMMARY:Weekly", "STATUS:\(method == "CANCEL" ? "CANCELLED" : "CONFIRMED")",
            "ORGANIZER:mailto:alice@example.org", "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:me@example.com",
            "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        return Data(([
            "From: Alice <alice@example.org>", "To: me@example.com", "Subject: \(method)", "Date: Mon, 3 Mar 2025 10:00:00 +0000",
            "Message-ID: <\(method)-\(sequence)-\(stamp)@example.org>", "MIME-Version: 1.0",
            "Content-Type: text/calendar; charset=UTF-8; method=\(method)", "", ics,
        ]).joined(separator: "\r\n").utf8)
    }

    /// The CANCEL unread in new/, its REQUEST read in cur/: one run applies the REQUEST,
    /// then the CANCEL, and mails no "Accepted" for a meeting that is off. The calendar
    /// is what the two arriving one run apart make of it.
    @Test func aCancellationInNewIsAppliedAfterItsRequestInCur() throws {
        let b = try box()
        try b.put("new", "1.cancel", Self.message(method: "CANCEL", sequence: 1, stamp: "20250303T120000Z"))
        try b.put("cur", "2.request:2,S", Self.message(method: "REQUEST", sequence: 0, stamp: "20250303T090000Z"))
        let run = b.merge(me: "me@example.com", ["--accept-from", "alice@example.org"])
        #expect(run.status == 0, "\(run.err)")
        #expect(b.outcomes(run) == ["cur/2.request:2,S accepted", "new/1.cancel cancelled"], "\(run.out)")
        #expect(b.text().contains("STATUS:CANCELLED"))
        #expect(b.mailed().isEmpty, "an answer to a cancelled meeting was mailed: \(b.mailed())")

        let apart = try box()
        try apart.put("new", "2.request", Self.message(method: "REQUEST", sequence: 0, stamp: "20250303T090000Z"))
        _ = apart.merge(me: "me@example.com", ["--accept-from", "alice@example.org"])
        try apart.put("new", "1.cancel", Self.message(method: "CANCEL", sequence: 1, stamp: "20250303T120000Z"))
        _ = apart.merge(me: "me@example.com", ["--accept-from", "alice@example.org"])
        #expect(b.text() == apart.text(), "one run and two give different calendars")
    }

    /// A cancellation seen before its invitation (a later run): the invitation is ignored,
    /// not accepted, and nothing is mailed; a newer invitation still applies. A forged
    /// cancellation (not from the organizer) is not remembered.
    @Test func aRememberedCancellationOutranksAnOlderInvitation() throws {
        let b = try box()
        try b.put("new", "1.cancel", Self.message(method: "CANCEL", sequence: 1, stamp: "20250303T120000Z"))
        let first = b.merge(me: "me@example.com", ["--accept-from", "alice@example.org"])
        #expect(b.outcomes(first) == ["new/1.cancel cancelled"], "\(first.out)")
        let before = b.text()
        try b.put("new", "2.request", Self.message(method: "REQUEST", sequence: 0, stamp: "20250303T090000Z"))
        let late = b.merge(me: "me@example.com", ["--accept-from", "alice@example.org"])
        #expect(b.outcomes(late) == ["new/2.request ignored"], "\(late.out)")
        #expect(late.out.contains("its organizer cancelled it (SEQUENCE 1); this is SEQUENCE 0"), "\(late.out)")
        #expect(b.text() == before)
        #expect(b.mailed().isEmpty)
        try b.put("new", "3.again", Self.message(method: "REQUEST", sequence: 2, stamp: "20250304T090000Z"))
        #expect(b.outcomes(b.merge(me: "me@example.com", ["--accept-from", "alice@example.org"])) == ["new/3.again accepted"])

        let forged = try box()
        let cancel = String(decoding: Self.message(method: "CANCEL", sequence: 9, stamp: "20250303T120000Z"), as: UTF8.self)
            .replacingOccurrences(of: "From: Alice <alice@example.org>", with: "From: Mallory <mallory@evil.example>")
        try forged.put("new", "1.forged", Data(cancel.utf8))
        _ = forged.merge(me: "me@example.com", ["--accept-from", "alice@example.org"])
        try forged.put("new", "2.request", Self.message(method: "REQUEST", sequence: 0, stamp: "20250303T090000Z"))
        let real = forged.merge(me: "me@example.com", ["--accept-from", "alice@example.org"])
        #expect(forged.outcomes(real) == ["new/2.request accepted"], "a forged cancellation buried the invitation: \(real.out)")
    }

    /// `--policy report` changes nothing and says what it would do: `would cancel`,
    /// `would hold` (a stranger's invitation), `free` for one it would accept.
    @Test func reportSaysWhatItWouldDo() throws {
        let b = try box()
        try b.put("new", "1.cancel", Self.message(method: "CANCEL", sequence: 1, stamp: "20250303T120000Z"))
        let stranger = String(decoding: Self.message(method: "REQUEST", sequence: 0, stamp: "20250303T090000Z", uid: "s@example.org"), as: UTF8.self)
            .replacingOccurrences(of: "alice@example.org", with: "bob@stranger.example")
        try b.put("new", "2.stranger", Data(stranger.utf8))
        try b.put("new", "3.alice", Self.message(method: "REQUEST", sequence: 0, stamp: "20250303T090000Z", uid: "a@example.org"))
        let before = b.text()
        let run = MergeQuietTests().run(["merge", "--policy", "report", "--me", "me@example.com", "--accept-from", "alice@example.org",
                                         "--state", b.root + "/state", "--spool", b.maildir, b.calendar], [:], at: Self.t0)
        #expect(run.status == 0, "\(run.err)")
        // Each outcome line (the last names the zone of its times).
        let words = run.out.split(separator: "\n").filter { !$0.hasPrefix("times in ") }.map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
        #expect(words == ["would cancel", "would hold", "free new/3.alice"], "\(run.out)")
        #expect(b.text() == before)
    }

    /// A message is its Message-ID and its calendar part: two invitations that share a
    /// Message-ID (Google's and Outlook.com's test mails do) are both answered. A message
    /// remembered is known by its file name next time, not opened again.
    @Test func oneMessageIDTwoInvitations() throws {
        let b = try box()
        let first = String(decoding: Self.message(method: "REQUEST", sequence: 0, stamp: "20250303T090000Z", uid: "one@example.org"), as: UTF8.self)
        let second = String(decoding: Self.message(method: "REQUEST", sequence: 0, stamp: "20250303T090000Z", uid: "two@example.org",
                                                   start: "20250321T100000Z"), as: UTF8.self)
        #expect(first.contains("Message-ID: <REQUEST-0-20250303T090000Z@example.org>") && second.contains("Message-ID: <REQUEST-0-20250303T090000Z@example.org>"))
        try b.put("new", "1.one", Data(first.utf8))
        let run = b.merge(me: "me@example.com", ["--accept-from", "alice@example.org"])
        #expect(b.outcomes(run) == ["new/1.one accepted"], "\(run.out)\(run.err)")
        // The second, under the same Message-ID, in a later run.
        try b.put("new", "2.two", Data(second.utf8))
        let later = b.merge(me: "me@example.com", ["--accept-from", "alice@example.org"])
        #expect(b.outcomes(later) == ["new/2.two accepted"], "\(later.out)\(later.err)")
        let again = b.merge(me: "me@example.com", ["-v", "--accept-from", "alice@example.org"])
        #expect(b.outcomes(again).isEmpty)
        #expect(!again.err.contains("processed by an earlier merge"), "a remembered message was opened again: \(again.err)")
    }

    /// The corpus's Outlook chains, in the adverse folders: `cmp__test-01` (CANCEL with a
    /// higher SEQUENCE) and `cmp__test-11` (a CANCEL that keeps the SEQUENCE, later DTSTAMP).
    @Test(arguments: [("cmp__test-01-1.eml", "cmp__test-01-2.eml", "brechtel@med.uni-frankfurt.de"),
                      ("cmp__test-11-2.eml", "cmp__test-11-1.eml", "markus.brechtel@uk-koeln.de")])
    func outlookChainsInTheAdverseOrder(_ request: String, _ cancel: String, _ me: String) throws {
        guard let corpus = Self.corpus else {
            print("note: ../shared/corpora/mail-real is absent; the corpus chains are not checked")
            return
        }
        let b = try box()
        try b.put("new", "1.cancel", Data(contentsOf: corpus.appendingPathComponent(cancel)))
        try b.put("cur", "2.request:2,S", Data(contentsOf: corpus.appendingPathComponent(request)))
        let run = b.merge(me: me, ["--accept-from", "anyone"])
        #expect(run.status == 0, "\(run.err)")
        #expect(b.outcomes(run) == ["cur/2.request:2,S accepted", "new/1.cancel cancelled"], "\(run.out)\(run.err)")
        #expect(b.text().contains("STATUS:CANCELLED"))
        #expect(b.mailed().isEmpty, "\(b.mailed())")
    }
}
