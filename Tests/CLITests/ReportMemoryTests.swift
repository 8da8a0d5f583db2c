import Foundation
import Testing

/// `merge --policy report` on a Maildir (issue #31): each message is reported once — a
/// cron line with it mails the same lines only once — and what it reported is remembered
/// apart from real runs, so a later real run still answers those messages; nothing in
/// the Maildir or the calendar changes.
@Suite struct ReportMemoryTests {
    typealias T = OrganizerBindingTests

    @Test func aReportRunReportsEachMessageOnceAndARealRunStillAnswers() throws {
        let b = try HeldMergeTests().box()
        let base = ["merge", "--json", "--me", T.me, "--state", b.root + "/state", "--spool", b.maildir]
        func run(_ extra: [String]) throws -> [String] {
            let r = try Binary.run(base + extra + [b.calendar], env: ["COOLCAL_SENDMAIL": b.root + "/sendmail"])
            #expect(r.status == 0, "\(r.stderr)")
            return try b.outcomes(r).compactMap { $0["message"] as? String ?? $0["file"] as? String ?? $0["outcome"] as? String }
        }
        try b.deliver("1.alice", T.mail(T.message(uid: "one@example.org"), from: "Alice <alice@example.org>"))
        try b.deliver("2.alice", T.mail(T.message(start: "20310304T100000Z", uid: "two@example.org"), from: "Alice <alice@example.org>"))
        let calendar = try b.bytes()
        #expect(try run(["--policy", "report", "--mark"]).count == 2)
        #expect(try run(["--policy", "report", "--mark"]).isEmpty, "the same messages were reported again")
        #expect(try b.bytes() == calendar)
        #expect(try b.new() == ["1.alice", "2.alice"], "a report run marked messages")
        // A third message arrives: the report names it alone.
        try b.deliver("3.alice", T.mail(T.message(start: "20310305T100000Z", uid: "three@example.org"), from: "Alice <alice@example.org>"))
        #expect(try run(["--policy", "report"]).count == 1)
        // The real run answers all three, reported or not.
        let real = try Binary.run(base + [b.calendar], env: ["COOLCAL_SENDMAIL": b.root + "/sendmail"])
        #expect(try b.outcomes(real).map { $0["outcome"] as? String } == ["accepted", "accepted", "accepted"], "\(real.stdout)\(real.stderr)")
        let written = String(decoding: try b.bytes(), as: UTF8.self)
        #expect(["one", "two", "three"].allSatisfy { written.contains("UID:\($0)@example.org") })
        #expect(try run([]).isEmpty)
    }
}
