import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalSupport
@testable import CoolcalState
@testable import CoolcalSpool

/// Issue #30: a Maildir spool costs nothing when nothing arrived. A message an earlier
/// run remembered is known by its file name (flags may change) and never opened — the
/// funnel's trace (`SystemCalls.recording`) shows no `open` of any message; messages missing
/// from the Maildir for a day are forgotten in the state, not before (one moved from `new/`
/// to `cur/` between two directory reads is not gone); a Maildir that lists empty forgets nothing.
@Suite struct RememberedMaildirTests {
    struct Box {
        let root: String
        var maildir: String { root + "/Maildir" }
        let store: StateStore

        init() throws {
            root = try Self.temporary("coolcal-remembered")
            store = try StateStore(directory: root + "/state")
        }

        /// A new directory named `prefix-UUID` in the temporary directory, with an empty
        /// Maildir in it (`Maildir/cur`, `new`, `tmp`).
        static func temporary(_ prefix: String) throws -> String {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
            for folder in ["cur", "new", "tmp"] {
                try FileManager.default.createDirectory(atPath: root + "/Maildir/" + folder, withIntermediateDirectories: true)
            }
            return root
        }

        /// Message `i`: a plain note, or (every fourth) an invitation of 2031 from its organizer.
        func deliver(_ i: Int, folder: String = "cur") throws {
            let invitation = i % 4 == 0
            var text = "From: Person \(i) <p\(i)@example.org>\nTo: me@example.com\nSubject: m\(i)\nMessage-ID: <m\(i)@example.org>\n"
            if invitation {
                text += "Content-Type: text/calendar; method=REQUEST\n\nBEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//t//EN\nMETHOD:REQUEST\n"
                    + "BEGIN:VEVENT\nUID:u\(i)@example.org\nDTSTAMP:20260101T000000Z\nDTSTART:20310301T100000Z\nDTEND:20310301T110000Z\n"
                    + "SUMMARY:Meeting \(i)\nORGANIZER:mailto:p\(i)@example.org\nATTENDEE:mailto:me@example.com\nEND:VEVENT\nEND:VCALENDAR\n"
            } else {
                text += "Content-Type: text/plain\n\nHello \(i)\n"
            }
            try Data(text.utf8).write(to: URL(fileURLWithPath: maildir + "/\(folder)/" + Self.name(i) + (folder == "cur" ? ":2,S" : "")))
        }

        static func name(_ i: Int) -> String { "17000000\(String(format: "%02d", i)).M\(i)P1.host" }

        /// One run as merge makes it: the items, each finished as accepted.
        func run(at now: Date = Date()) throws -> [String] {
            let source = try MaildirSource(Maildir(directory: maildir), store: store, mark: false, now: now, lockTimeout: 5)
            defer { source.unlock() }
            let items = try source.items(floatingZone: TimeZone(identifier: "UTC") ?? .current, diagnostics: Diagnostics())
            try source.finish(items.map { MergeFinished(name: $0.name, failed: false, outcome: .accepted, note: "") })
            return items.map(\.name)
        }

        /// The state's rows for file name `i`.
        func rows(_ i: Int) throws -> Int {
            try Int(store.database.prepare("SELECT count(*) FROM maildir_messages WHERE name = ?1 OR key = 'name:' || ?1")
                .row([.text(Self.name(i))]) { $0.int(0) } ?? 0)
        }
    }

    @Test func rememberedMessagesAreNotOpenedAndGoneOnesAreForgotten() throws {
        let box = try Box()
        defer { try? FileManager.default.removeItem(atPath: box.root) }
        for i in 0..<40 { try box.deliver(i) }
        let first = try box.run()
        #expect(first.count == 10)
        // Each remembered message has a row by name; an invitation one by Message-ID too
        // (a note is told from its bytes without GMime, and its name is enough).
        let expected = { (i: Int) in i % 4 == 0 ? 2 : 1 }
        for i in 0..<40 { #expect(try box.rows(i) == expected(i), "message \(i)") }

        // Flags changed by the mail client (`:2,S` → `:2,RS` keeps the name); a new message arrives.
        let renamed = box.maildir + "/cur/" + Box.name(3)
        try FileManager.default.moveItem(atPath: renamed + ":2,S", toPath: renamed + ":2,RS")
        try box.deliver(40, folder: "new")
        var second: [String] = []
        let calls = try SystemCalls.recording { second = try box.run() }
        #expect(second == ["new/" + Box.name(40)])
        let opened = calls.filter { $0.name == "open" && ($0.path ?? "").hasPrefix(box.maildir) }.compactMap(\.path)
        #expect(opened == [box.maildir + "/new/" + Box.name(40)], "opened: \(opened)")

        // Ten messages deleted: their rows stay for a day, then go; the others' stay.
        for i in 10..<20 { try FileManager.default.removeItem(atPath: box.maildir + "/cur/" + Box.name(i) + ":2,S") }
        let now = Date()
        #expect(try box.run(at: now).isEmpty)
        for i in 10..<20 { #expect(try box.rows(i) == expected(i), "message \(i) was forgotten at once") }
        #expect(try box.run(at: now + 23 * 3600).isEmpty)
        for i in 10..<20 { #expect(try box.rows(i) == expected(i), "message \(i) was forgotten before a day") }
        #expect(try box.run(at: now + 24 * 3600).isEmpty)
        for i in 10..<20 { #expect(try box.rows(i) == 0, "message \(i) was not forgotten after a day") }
        for i in [0, 3, 9, 20, 39, 40] { #expect(try box.rows(i) == expected(i), "message \(i) was forgotten") }
        #expect(try box.store.database.prepare("SELECT count(*) FROM maildir_missing").row { $0.int(0) } == 0)

        // A Maildir that lists empty (not mounted, say) forgets nothing.
        let before = try box.store.spools.maildirCount(maildir: try SystemCalls.realpath(box.maildir))
        try FileManager.default.moveItem(atPath: box.maildir + "/cur", toPath: box.root + "/cur-away")
        try FileManager.default.moveItem(atPath: box.maildir + "/new", toPath: box.root + "/new-away")
        for folder in ["cur", "new"] { try FileManager.default.createDirectory(atPath: box.maildir + "/" + folder, withIntermediateDirectories: true) }
        #expect(try box.run().isEmpty)
        #expect(try box.store.spools.maildirCount(maildir: try SystemCalls.realpath(box.maildir)) == before)
        // Nor a day later: an empty listing does not even note names as missing.
        #expect(try box.run(at: Date() + 25 * 3600).isEmpty)
        #expect(try box.store.spools.maildirCount(maildir: try SystemCalls.realpath(box.maildir)) == before)
        #expect(before == 9 * 2 + 22)
    }

    /// A message that is missing from one directory read and back in the next (moved from
    /// `new/` to `cur/` in between) is not forgotten, however long ago it was first missed,
    /// and is not processed again.
    @Test func aMessageMissingForOneReadIsNotForgotten() throws {
        let box = try Box()
        defer { try? FileManager.default.removeItem(atPath: box.root) }
        for i in 0..<8 { try box.deliver(i, folder: "new") }
        try box.deliver(8)
        #expect(try box.run().count == 3)
        let now = Date()
        // Message 4 is between its two places while the run reads the directories.
        let away = box.root + "/moving"
        try FileManager.default.moveItem(atPath: box.maildir + "/new/" + Box.name(4), toPath: away)
        #expect(try box.run(at: now).isEmpty)
        #expect(try box.store.database.prepare("SELECT count(*) FROM maildir_missing").row { $0.int(0) } == 1)
        try FileManager.default.moveItem(atPath: away, toPath: box.maildir + "/cur/" + Box.name(4) + ":2,S")
        #expect(try box.run(at: now + 3600).isEmpty, "a message back under its name was processed again")
        #expect(try box.store.database.prepare("SELECT count(*) FROM maildir_missing").row { $0.int(0) } == 0)
        // Missing again two days later: a new day starts, not the old one.
        try FileManager.default.moveItem(atPath: box.maildir + "/cur/" + Box.name(4) + ":2,S", toPath: away)
        #expect(try box.run(at: now + 48 * 3600).isEmpty)
        #expect(try box.rows(4) == 2, "forgotten though missing for only one read")
        #expect(try box.run(at: now + 71 * 3600).isEmpty)
        #expect(try box.rows(4) == 2, "forgotten before a day")
    }

    /// Among 10,000 remembered messages a new one is processed, and it alone is opened.
    @Test func aNewMessageAmongTenThousandRememberedIsProcessed() throws {
        let box = try Box()
        defer { try? FileManager.default.removeItem(atPath: box.root) }
        for i in 0..<10_000 {
            try Data("From: p\(i)@example.org\nSubject: note \(i)\nMessage-ID: <n\(i)@example.org>\n\nHello\n".utf8)
                .write(to: URL(fileURLWithPath: box.maildir + "/cur/\(1_800_000_000 + i).M\(i)P2.host:2,S"))
        }
        #expect(try box.run().isEmpty)
        #expect(try box.store.spools.maildirCount(maildir: try SystemCalls.realpath(box.maildir)) == 10_000)
        // One message's flags change; an invitation arrives.
        let flagged = box.maildir + "/cur/1800000042.M42P2.host"
        try FileManager.default.moveItem(atPath: flagged + ":2,S", toPath: flagged + ":2,RS")
        try box.deliver(40, folder: "new")
        var items: [String] = []
        let calls = try SystemCalls.recording { items = try box.run() }
        #expect(items == ["new/" + Box.name(40)])
        let opened = calls.filter { $0.name == "open" && ($0.path ?? "").hasPrefix(box.maildir) }.compactMap(\.path)
        #expect(opened == [box.maildir + "/new/" + Box.name(40)], "opened: \(opened.prefix(5))")
        #expect(try box.store.spools.maildirCount(maildir: try SystemCalls.realpath(box.maildir)) == 10_002)
    }
}
