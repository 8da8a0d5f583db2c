import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalSupport
@testable import CoolcalState
@testable import CoolcalOutput
@testable import CoolcalTestSupport

/// The state's part of issue 16: the inbox keeps mail headers, Maildir messages are
/// remembered once per real path.
@Suite struct MailStateTests {
    @Test func theInboxKeepsWhoSentAMailedInvitation() throws {
        let dir = stateDirectory("mail")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try StateStore(directory: dir)
        var mailed = stateInvite(.uid("m@x"), "Mailed")
        mailed.mail = MailHeaders(from: "Alice <alice@example.com>", subject: "Einladung", messageID: "id@x", date: "Tue, 1 Dec 2026")
        #expect(try store.inbox.record(mailed, payload: "BEGIN:VCALENDAR", at: Date(timeIntervalSince1970: 100)))
        #expect(try store.inbox.record(stateInvite(.number(7), "Pushed"), payload: "{}", at: Date(timeIntervalSince1970: 200)))
        // The date is not kept (the inbox has its own received time).
        #expect(try store.inbox.entry(id: "m@x")?.mail == MailHeaders(from: "Alice <alice@example.com>", subject: "Einladung", messageID: "id@x"))
        #expect(try store.inbox.entry(id: "7")?.mail == nil)
        // The same invitation seen again in a mail: the headers are added, it is not news.
        #expect(try store.inbox.markRead(id: "7"))
        var again = stateInvite(.number(7), "Pushed")
        again.mail = MailHeaders(from: "bob@example.com")
        #expect(try !store.inbox.record(again, payload: "{}", at: Date(timeIntervalSince1970: 300)))
        let entry = try #require(try store.inbox.entry(id: "7"))
        #expect(entry.mail?.from == "bob@example.com")
        #expect(entry.read)
        // The JSON rendering adds the fields only for a mailed one.
        let json = JSONWriter.string(InboxText.json(try store.inbox.entries()))
        #expect(json.contains(#""from": "Alice <alice@example.com>""#))
        #expect(json.components(separatedBy: #""message_id""#).count == 3)
    }

    @Test func aMaildirMessageIsRememberedOnce() throws {
        let dir = stateDirectory("maildir")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try StateStore(directory: dir)
        let now = Date(timeIntervalSince1970: 1000)
        #expect(try store.spools.maildirOutcome(maildir: "/m", key: "mid:a@x") == nil)
        #expect(try store.spools.recordMaildirMessage(maildir: "/m", key: "mid:a@x", outcome: .accepted, inviteID: "u", at: now))
        #expect(try !store.spools.recordMaildirMessage(maildir: "/m", key: "mid:a@x", outcome: .declined, inviteID: "u", at: now))
        #expect(try store.spools.maildirOutcome(maildir: "/m", key: "mid:a@x") == "accepted")
        // Another Maildir has its own record.
        #expect(try store.spools.maildirOutcome(maildir: "/other", key: "mid:a@x") == nil)
        #expect(try store.spools.maildirCount(maildir: "/m") == 1)
    }
}
