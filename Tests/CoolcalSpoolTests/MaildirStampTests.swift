import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalSupport
@testable import CoolcalState
@testable import CoolcalSpool
import CoolcalMail

/// Issue #30: a cron run over a Maildir where nothing arrived opens neither the state nor
/// a message. A run that settled every message it listed and wrote nothing leaves a stamp
/// (the listing's digest, the state database's mark); the next run trusts it only while the
/// Maildir lists the same names, the state is unwritten since — and was last written at
/// least two seconds before the stamp, since file times are coarse — and no missing name is
/// due to be forgotten. Each `run` here is one process's: its own connection, closed at the end.
@Suite struct MaildirStampTests {
    struct Box {
        let root: String
        var maildir: String { root + "/Maildir" }
        var state: String { root + "/state" }

        init() throws {
            root = try RememberedMaildirTests.Box.temporary("coolcal-stamp")
        }

        static func invitation(_ i: Int) -> String {
            "From: o@example.org\nTo: me@example.com\nMessage-ID: <inv\(i)@example.org>\nContent-Type: text/calendar; method=REQUEST\n\n"
                + "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//t//EN\nMETHOD:REQUEST\nBEGIN:VEVENT\nUID:u\(i)@example.org\nDTSTAMP:20260101T000000Z\n"
                + "DTSTART:20310301T100000Z\nDTEND:20310301T110000Z\nSUMMARY:M\nORGANIZER:mailto:o@example.org\nATTENDEE:mailto:me@example.com\n"
                + "END:VEVENT\nEND:VCALENDAR\n"
        }

        static func name(_ i: Int) -> String { RememberedMaildirTests.Box.name(i) }

        /// Message `i`, a plain note (or an invitation of 2031), in `cur/` with `flags` (or in `new/`).
        func deliver(_ i: Int, folder: String = "cur", flags: String = "S", invitation: Bool = false) throws {
            let text = invitation ? Self.invitation(i)
                : "From: Person \(i) <p\(i)@example.org>\nTo: me@example.com\nSubject: m\(i)\nMessage-ID: <m\(i)@example.org>\n\nHello \(i)\n"
            try Data(text.utf8).write(to: URL(fileURLWithPath: maildir + "/\(folder)/" + Self.name(i) + (folder == "cur" ? ":2," + flags : "")))
        }

        /// One merge run over the Maildir: its items, finished as accepted when `finishing`
        /// (else left pending, as when the calendar could not be written), then `ended`.
        @discardableResult
        func run(at now: Date = Date(), finishing: Bool = true) throws -> [String] {
            let source = try MaildirSource(Maildir(directory: maildir), store: StateStore(directory: state), mark: false, now: now, lockTimeout: 5)
            defer { source.unlock() }
            let items = try source.items(floatingZone: TimeZone(identifier: "UTC") ?? .current, diagnostics: Diagnostics())
            if finishing { try source.finish(items.map { MergeFinished(name: $0.name, failed: false, outcome: .accepted, note: "") }) }
            try source.ended()
            return items.map(\.name)
        }

        /// `body` with a connection of another command's to the state, closed after it.
        func elsewhere(_ body: (StateStore) throws -> Void) throws {
            try body(StateStore(directory: state))
        }

        var stamp: String { MaildirStamp.path(stateDirectory: state, memory: Maildir(directory: maildir).realPath) }
        var stamped: Bool { FileManager.default.fileExists(atPath: stamp) }

        func unchanged(at now: Date = Date(), report: Bool = false) -> Bool {
            MaildirSource.unchanged(maildir, stateDirectory: state, report: report, now: now)
        }

        /// Moves the stamp's file time on by `seconds`: as if the state had been written that
        /// much longer before the stamp.
        func age(_ seconds: TimeInterval = 3) throws {
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(seconds)], ofItemAtPath: stamp)
        }

        /// A run that writes the state, one that does not (and stamps), and the stamp aged.
        func settle(at now: Date = Date()) throws {
            try run(at: now)
            #expect(try run(at: now).isEmpty)
            #expect(stamped, "a run that wrote nothing leaves a stamp")
            try age()
            #expect(unchanged(at: now))
        }
    }

    @Test func aRunThatWroteNothingLeavesAStampTrustedOnceTheStateIsOlder() throws {
        let box = try Box()
        defer { try? FileManager.default.removeItem(atPath: box.root) }
        for i in 0..<12 { try box.deliver(i) }
        // Answered in the mail client: never remembered, left again by every run; its flag is in its name.
        try box.deliver(12, flags: "RS")
        #expect(try box.run().isEmpty)
        #expect(!box.stamped, "the run remembered twelve messages: its log holds frames")
        #expect(!box.unchanged())
        #expect(try box.run().isEmpty)
        #expect(box.stamped)
        // The state was last written a moment ago (the first run's close): a write within the
        // same tick of the file system's clock could leave its mark as it is.
        #expect(!box.unchanged(), "trusted a state written less than two seconds before the stamp")
        try box.age()
        #expect(box.unchanged())
        #expect(!box.unchanged(report: true), "a report run's memory is its own")
    }

    @Test func aNewMessageOrNewFlagsMakeTheRunLookAgain() throws {
        let box = try Box()
        defer { try? FileManager.default.removeItem(atPath: box.root) }
        for i in 0..<12 { try box.deliver(i) }
        try box.settle()

        try box.deliver(20, folder: "new", invitation: true)
        #expect(!box.unchanged())
        #expect(try box.run() == ["new/" + Box.name(20)])
        try box.settle()

        // The mail client flags a message replied: the names differ, nothing is new.
        let old = box.maildir + "/cur/" + Box.name(3)
        try FileManager.default.moveItem(atPath: old + ":2,S", toPath: old + ":2,RS")
        #expect(!box.unchanged())
        #expect(try box.run().isEmpty)
        #expect(box.stamped, "the run wrote nothing and stamps the new names")
        try box.age()
        #expect(box.unchanged())
    }

    @Test func aStateWrittenSinceMakesTheRunLookAgain() throws {
        let box = try Box()
        defer { try? FileManager.default.removeItem(atPath: box.root) }
        for i in 0..<12 { try box.deliver(i) }
        try box.settle()
        try box.elsewhere { other in
            // Another command writes the state and is still connected: its log holds the frames.
            try other.spools.recordMaildirMessage(maildir: "/elsewhere", key: "name:x", outcome: .accepted, inviteID: nil, at: Date())
            #expect(!box.unchanged())
        }
        // Closed: its write is in the database file.
        try box.age(10)
        #expect(!box.unchanged())
    }

    @Test func aNameMissingIsForgottenWhenItIsDue() throws {
        let box = try Box()
        defer { try? FileManager.default.removeItem(atPath: box.root) }
        for i in 0..<12 { try box.deliver(i) }
        let now = Date()
        try box.settle(at: now)
        try FileManager.default.removeItem(atPath: box.maildir + "/cur/" + Box.name(5) + ":2,S")
        #expect(!box.unchanged(at: now))
        // Noted missing (a write), then a run that writes nothing stamps the day it is due.
        try box.settle(at: now)
        #expect(box.unchanged(at: now.addingTimeInterval(MaildirSource.forgetAfter - 60)))
        let later = now.addingTimeInterval(MaildirSource.forgetAfter + 1)
        #expect(!box.unchanged(at: later), "a missing name due to be forgotten needs the run")
        try box.run(at: later)
        let store = try StateStore(directory: box.state)
        #expect(try store.spools.maildirCount(maildir: Maildir(directory: box.maildir).realPath) == 11)
    }

    @Test func whatARunLeavesUnsettledLeavesNoStamp() throws {
        let box = try Box()
        defer { try? FileManager.default.removeItem(atPath: box.root) }
        for i in 0..<4 { try box.deliver(i) }
        try box.settle()

        // An answer waiting in the outbox: a run with nothing new still delivers it.
        try box.elsewhere { try $0.mailReplies.queue(version: "v1", responseKey: nil, inviteID: "i1", message: "To: a@example.org\n\nx\n", at: Date()) }
        try box.run()
        #expect(try box.run().isEmpty)
        #expect(!box.stamped, "stamped with an answer in the outbox")
        try FileManager.default.removeItem(atPath: box.state)
        try box.settle()

        // A message that cannot be read now (too large) is looked at again by every run.
        let large = box.maildir + "/cur/" + Box.name(30) + ":2,S"
        #expect(FileManager.default.createFile(atPath: large, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: large))
        try handle.truncate(atOffset: UInt64(MessageReader.maxBytes) + 1)
        try handle.close()
        try box.run()
        #expect(try box.run().isEmpty)
        #expect(!box.stamped, "stamped over an unreadable message")
        try FileManager.default.removeItem(atPath: large)
        try box.settle()

        // An invitation left pending (its calendar could not be written) is answered by the next run.
        try box.deliver(40, folder: "new", invitation: true)
        #expect(try box.run(finishing: false) == ["new/" + Box.name(40)])
        #expect(!box.stamped, "stamped over an invitation left pending")
        #expect(try box.run() == ["new/" + Box.name(40)])
    }

    @Test func theDigestIsOfTheNamesNotTheirOrder() {
        var forward = ListingDigest(), backward = ListingDigest(), other = ListingDigest()
        let names = (0..<500).map { Box.name($0) + ":2,S" }
        for name in names { forward.add(folder: "cur", name: name.utf8) }
        for name in names.reversed() { backward.add(folder: "cur", name: name.utf8) }
        for name in names { other.add(folder: name == names[250] ? "new" : "cur", name: name.utf8) }
        #expect(forward == backward)
        #expect(forward != other, "a message in another folder is another listing")
        #expect(ListingDigest(text: Substring(forward.text)) == forward)
    }
}
