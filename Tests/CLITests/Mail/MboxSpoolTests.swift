import Foundation
import Testing

/// Issue #28: an mbox is every message in it, not only its first. `merge --spool FILE`
/// takes each message (in file order, remembered by Message-ID and calendar part, the
/// file never changed); an INVITE that holds several messages is refused (65) naming
/// the count and `merge --spool`; one message after a `From ` line is still an INVITE.
@Suite struct MboxSpoolTests {
    typealias Replies = OrganizerRepliesTests

    /// A second invitation (to me, from Alice, whom the calendar does not know: held)
    /// whose body has a `From ` line that is not a separator (no blank line before it).
    static let invitation = [
        "From: Alice <alice@example.org>", "To: \(Replies.me)", "Subject: Lunch", "Message-ID: <lunch@example.org>",
        "MIME-Version: 1.0", "Content-Type: multipart/mixed; boundary=b", "", "--b", "Content-Type: text/plain", "",
        "See you there.", "From the kitchen: bring a fork.", "", "--b",
        "Content-Type: text/calendar; charset=UTF-8; method=REQUEST", "",
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Alice//EN", "METHOD:REQUEST", "BEGIN:VEVENT", "UID:lunch@example.org",
        "DTSTAMP:20260101T090000Z", "DTSTART:20310306T120000Z", "DURATION:PT1H", "SUMMARY:Lunch",
        "ORGANIZER:mailto:alice@example.org", "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:\(Replies.me)", "END:VEVENT", "END:VCALENDAR",
        "--b--", "",
    ].joined(separator: "\n")

    static func mbox(_ messages: [String]) -> String {
        messages.map { "From someone@example.org Thu Jan  1 00:00:00 2026\n" + $0.replacingOccurrences(of: "\r\n", with: "\n") + "\n" }
            .joined()
    }

    @Test func everyMessageOfAnMboxIsTaken() throws {
        let b = try Replies().box()
        let text = Self.mbox([
            Replies.reply(from: "Bob <bob@example.org>", attendee: "bob@example.org", partstat: "ACCEPTED"),
            Self.invitation,
            Replies.reply(from: "carol@example.org", attendee: "carol@example.org", partstat: "DECLINED"),
        ])
        let file = try Binary.temp("inbox.mbox", Data(text.utf8))
        let run = try Binary.run(["merge", "--json", "--me", Replies.me, "--state", b.root + "/state", "--spool", file, b.calendar])
        #expect(run.status == 0, "\(run.stderr)")
        let outcomes = (try Binary.json(run.stdout)["outcomes"] as? [[String: Any]] ?? []).map {
            "\($0["name"] as? String ?? "") \($0["outcome"] as? String ?? "")"
        }
        #expect(outcomes == ["inbox.mbox#1 updated", "inbox.mbox#2 held", "inbox.mbox#3 updated"], "\(run.stdout)")
        let calendar = String(decoding: try b.bytes(), as: UTF8.self)
        #expect(calendar.contains("PARTSTAT=ACCEPTED;CN=Bob Example") && calendar.contains("PARTSTAT=DECLINED;CN=Carol"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data(text.utf8), "the mbox is never changed")
        let again = try Binary.run(["merge", "--me", Replies.me, "--state", b.root + "/state", "--spool", file, b.calendar])
        #expect(again.status == 0 && again.stdout.isEmpty, "a second run does nothing: \(again.stdout)\(again.stderr)")
    }

    @Test func anInviteIsOneMessage() throws {
        let two = try Binary.temp("two.mbox", Data(Self.mbox([Self.invitation, Self.invitation]).utf8))
        let refused = try Binary.run(["conflicts", two, "/dev/null"])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("is an mbox of 2 messages") && refused.stderr.contains("merge --spool"), "\(refused.stderr)")
        let one = try Binary.temp("one.mbox", Data(Self.mbox([Self.invitation]).utf8))
        let read = try Binary.run(["conflicts", "--json", one, Binary.sample("work.ics")])
        #expect(read.status == 0 || read.status == 1, "\(read.stderr)")
        #expect((try Binary.json(read.stdout)["invite"] as? [String: Any])?["title"] as? String == "Lunch", "\(read.stdout)")
    }
}
