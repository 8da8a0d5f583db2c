import Foundation
import Testing

/// `merge --spool MAILDIR`: left alone by default (remembered in the state), `--mark`
/// the Maildir way, and each message answered once under concurrent runs and deliveries.
@Suite struct MaildirTests {
    static let empty = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Corpus//Empty//EN\r\nEND:VCALENDAR\r\n"

    struct Box {
        let root: String
        var maildir: String { root + "/Maildir" }
        var calendar: String { root + "/cal.ics" }
        var state: String { root + "/state" }

        /// Delivers as a delivery agent does: written in tmp/, renamed into new/ (or cur/).
        func deliver(_ name: String, _ data: Data, folder: String = "new") throws {
            let tmp = maildir + "/tmp/" + name
            try data.write(to: URL(fileURLWithPath: tmp))
            guard rename(tmp, maildir + "/\(folder)/" + name) == 0 else { throw CocoaError(.fileWriteUnknown) }
        }

        /// Every file under the Maildir, by relative path, with its bytes.
        func snapshot() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for folder in ["cur", "new", "tmp"] {
                for name in try FileManager.default.contentsOfDirectory(atPath: maildir + "/" + folder) {
                    files[folder + "/" + name] = try Data(contentsOf: URL(fileURLWithPath: maildir + "/\(folder)/" + name))
                }
            }
            return files
        }

        /// `merge --json` of this Maildir into the calendar, answering as me@example.com.
        func arguments(_ extra: [String] = [], spool: String? = nil) -> [String] {
            ["merge", "--json", "--me", "me@example.com", "--accept-from", "anyone", "--state", state, "--spool", spool ?? maildir] + extra + [calendar]
        }

        /// Runs merge to its end; `env` over a lock timeout of 600 s.
        func merge(_ extra: [String] = [], spool: String? = nil, env: [String: String] = [:]) throws -> Run {
            try Binary.run(arguments(extra, spool: spool), env: ["COOLCAL_LOCK_TIMEOUT": "600"].merging(env) { $1 })
        }

        /// Starts merge with the test hook set to `point` and returns once it says it is
        /// paused there (or exited first), with what it said on stderr; `Binary.run`'s
        /// environment, with `env` over it.
        func pausedMerge(at point: String, _ extra: [String] = [], env: [String: String] = [:]) throws
            -> (process: Process, said: String) {
            let base = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "en_US.UTF-8", "HOME": Binary.home,
                        "XDG_CONFIG_HOME": root + "/no-config", "COOLCAL_LOCK_TIMEOUT": "600"]
            return try Spawn.pausedAt(point, arguments(extra), env: base.merging(env) { $1 })
        }
    }

    func box() throws -> Box {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-maildir-\(UUID().uuidString)").path
        for folder in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(atPath: root + "/Maildir/" + folder, withIntermediateDirectories: true)
        }
        try Data(Self.empty.utf8).write(to: URL(fileURLWithPath: root + "/cal.ics"))
        return Box(root: root)
    }

    /// Invitation `i`: its own UID and Message-ID, a free half hour on its own day in 2031.
    static func invitation(_ i: Int) -> Data {
        let day = String(format: "203105%02d", 1 + i % 28)
        let hour = String(format: "%02d", 8 + i / 28)
        return MailCorpus.gmail(MailCorpus.calendar(uid: "drill-\(i)@example.com", summary: "Drill \(i)",
                                                    start: "\(day)T\(hour)0000Z", end: "\(day)T\(hour)3000Z"),
                                id: "drill-\(i)@mail.example.com")
    }

    func names(_ run: Run) throws -> [String] {
        ((try Binary.json(run.stdout)["outcomes"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
    }

    func outcomes(_ run: Run) throws -> [String] {
        ((try Binary.json(run.stdout)["outcomes"] as? [[String: Any]]) ?? []).compactMap { $0["outcome"] as? String }
    }

    /// How often each UID is in the calendar file.
    func uidCounts(_ b: Box) throws -> [String: Int] {
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: b.calendar)), as: UTF8.self)
        var counts: [String: Int] = [:]
        for line in text.components(separatedBy: "\r\n") where line.hasPrefix("UID:") { counts[String(line.dropFirst(4)), default: 0] += 1 }
        return counts
    }

    /// A mailbox as it is: invitations among other mail, one past, one answered (R).
    func mixedMailbox(_ b: Box) throws {
        try b.deliver("1700000001.M1P1.host", Self.invitation(1))
        try b.deliver("1700000002.M2P1.host", MailCorpus.noInvitation())
        try b.deliver("1700000003.M3P1.host", MailCorpus.gmail(MailCorpus.calendar(uid: "past@example.com",
            start: "20200101T100000Z", end: "20200101T110000Z"), id: "past@mail.example.com"))
        try b.deliver("1700000004.M4P1.host:2,RS", Self.invitation(4), folder: "cur")
        try b.deliver("1700000005.M5P1.host:2,S", Self.invitation(5), folder: "cur")
        try b.deliver("1700000006.M6P1.host", Self.invitation(6))
    }

    @Test func byDefaultNothingInTheMaildirChanges() throws {
        let b = try box()
        try mixedMailbox(b)
        let before = try b.snapshot()
        let first = try b.merge()
        #expect(first.status == 0)
        // The mail without an invitation and the past one are skipped silently.
        #expect(first.stderr == "")
        #expect(try names(first) == ["new/1700000001.M1P1.host", "new/1700000006.M6P1.host", "cur/1700000005.M5P1.host:2,S"])
        #expect(try outcomes(first) == ["accepted", "accepted", "accepted"])
        #expect(try b.snapshot() == before)
        #expect(try uidCounts(b) == ["drill-1@example.com": 1, "drill-5@example.com": 1, "drill-6@example.com": 1])
        let calendar = try Data(contentsOf: URL(fileURLWithPath: b.calendar))
        // Remembered: a second run does nothing, also by another path to the same Maildir.
        let link = b.root + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: b.maildir)
        for spool in [b.maildir, link, b.maildir + "/"] {
            let again = try b.merge(spool: spool)
            #expect(again.status == 0)
            #expect(try names(again) == [])
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: b.calendar)) == calendar)
        #expect(try b.snapshot() == before)
        // Nothing of coolcal's was written into the Maildir: its lock lives in the state.
        #expect(try FileManager.default.contentsOfDirectory(atPath: b.maildir).sorted() == ["cur", "new", "tmp"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: b.state).contains { $0.hasPrefix("maildir-") && $0.hasSuffix(".lock") })
        // The inbox has the mailed invitations with their sender (not the past one: skipped unseen).
        let inbox = try Binary.json(try Binary.run(["inbox", "--json", "--state", b.state]).stdout)
        let entries = inbox["invitations"] as? [[String: Any]] ?? []
        #expect(Set(entries.compactMap { $0["id"] as? String })
                == ["drill-1@example.com", "drill-5@example.com", "drill-6@example.com"])
        #expect(entries.allSatisfy { $0["from"] as? String == MailCorpus.from })
    }

    @Test func markMovesProcessedMessagesToCurFlaggedSeen() throws {
        let b = try box()
        try mixedMailbox(b)
        let before = try b.snapshot()
        let run = try b.merge(["--mark"])
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(try outcomes(run) == ["accepted", "accepted", "accepted"])
        let after = try b.snapshot()
        #expect(after.keys.sorted() == [
            "cur/1700000001.M1P1.host:2,S", "cur/1700000003.M3P1.host:2,S", "cur/1700000004.M4P1.host:2,RS",
            "cur/1700000005.M5P1.host:2,S", "cur/1700000006.M6P1.host:2,S", "new/1700000002.M2P1.host",
        ])
        // Renamed, never rewritten.
        #expect(after["cur/1700000001.M1P1.host:2,S"] == before["new/1700000001.M1P1.host"])
        #expect(after["new/1700000002.M2P1.host"] == before["new/1700000002.M2P1.host"])
        let again = try b.merge(["--mark"])
        #expect(try names(again) == [])
        #expect(try b.snapshot() == after)
    }

    /// Two merges at once, made to overlap: the first is paused by the test hook with its
    /// 20 messages listed and the run lock held; 5 more are delivered meanwhile; the
    /// second, told not to wait for the lock, must give up (75) having answered nothing.
    /// The first is then killed there; the next run answers each of the 25 exactly once,
    /// and a later run nothing.
    @Test(arguments: [false, true])
    func concurrentMergesAndADeliveryAnswerEachMessageOnce(mark: Bool) throws {
        let b = try box()
        for i in 0..<20 { try b.deliver("17000001\(String(format: "%02d", i)).M\(i)P9.host", Self.invitation(i)) }
        let flags = mark ? ["--mark"] : []
        let (first, said) = try b.pausedMerge(at: "merge-after-listing", flags)
        defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
        // The pause line proves the first run holds the lock, its listing done, for the whole of what follows.
        #expect(said == "coolcal: test hook: paused at merge-after-listing\n", "the first merge never paused: \(said)")
        for i in 20..<25 { try b.deliver("17000002\(String(format: "%02d", i)).M\(i)P8.host", Self.invitation(i)) }
        let before = try b.snapshot()
        let calendarBefore = try Data(contentsOf: URL(fileURLWithPath: b.calendar))

        // The shortest wait the tool allows: 0 tries the lock once.
        let second = try b.merge(flags, env: ["COOLCAL_LOCK_TIMEOUT": "0"])
        #expect(second.status == 75, "the second merge did not stop at the lock: \(second.status) \(second.stdout)")
        #expect(second.stdout == "")
        #expect(second.stderr.hasPrefix("coolcal: error: \(b.state)/maildir-"), "\(second.stderr)")
        #expect(second.stderr.hasSuffix(".lock: locked by another coolcal for more than 0 s; try again later\n"), "\(second.stderr)")
        #expect(try b.snapshot() == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: b.calendar)) == calendarBefore)
        #expect(try responseIDs(b).isEmpty)
        #expect(first.isRunning, "the first merge ended before the second was done")

        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        #expect(first.terminationReason == .uncaughtSignal && first.terminationStatus == SIGKILL)
        // The killed run held the lock and answered nothing: the next one answers all 25, once.
        let next = try b.merge(flags)
        #expect(next.status == 0)
        #expect(next.stderr == "")
        let answered = try names(next)
        #expect(answered.count == 25)
        #expect(Set(answered).count == 25)
        #expect(try outcomes(next).allSatisfy { $0 == "accepted" })
        let counts = try uidCounts(b)
        #expect(counts.count == 25)
        #expect(counts.values.allSatisfy { $0 == 1 })
        let ids = try responseIDs(b)
        #expect(ids.count == 25)
        #expect(Set(ids).count == 25)
        let files = try b.snapshot().keys.sorted()
        #expect(files.count == 25)
        #expect(files.allSatisfy { mark ? $0.hasPrefix("cur/") && $0.hasSuffix(":2,S") : $0.hasPrefix("new/") })
        let again = try b.merge(flags)
        #expect(again.status == 0)
        #expect(try names(again) == [])
    }

    /// The invitation ids of the answers in the state (`responses --json`), one per answer.
    func responseIDs(_ b: Box) throws -> [String] {
        let run = try Binary.run(["responses", "--json", "--state", b.state])
        #expect(run.status == 0, "\(run.stderr)")
        return (try Binary.json(run.stdout)["responses"] as? [[String: Any]] ?? []).compactMap { $0["invite_id"] as? String }
    }
}
