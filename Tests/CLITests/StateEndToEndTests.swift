import Foundation
import Testing

/// The app's memory through the binary: notify (text and badge), inbox, responses,
/// state file modes, and many coolcal processes writing one state at once.
@Suite struct StateEndToEndTests {
    func fresh() throws -> [String: String] {
        let dir = URL(fileURLWithPath: try Binary.temp("x", Data())).deletingLastPathComponent().appendingPathComponent("state")
        return ["COOLCAL_STATE": dir.path]
    }

    func payload(_ id: Int, _ title: String, badge: Int?, category: String? = "INVITATION") -> String {
        var aps: [String: Any] = [:]
        if let badge { aps["badge"] = badge }
        if let category { aps["category"] = category }
        let object: [String: Any] = ["aps": aps, "title": title, "start": "2022-08-20T08:00:00-08:00",
                                     "end": "2022-08-20T12:00:00-08:00", "id": id]
        return String(decoding: (try? JSONSerialization.data(withJSONObject: object)) ?? Data(), as: UTF8.self)
    }

    func aps(_ run: Run) throws -> [String: Any] {
        try #require(try Binary.json(run.stdout)["aps"] as? [String: Any])
    }

    @Test func notifyWritesTheBodyAndDoesBadgeArithmetic() throws {
        let env = try fresh()
        let first = try Binary.run(["notify", "-"], stdin: payload(12, "Family Reunion", badge: 1), env: env)
        #expect(first.status == 0)
        #expect(first.stderr == "")
        let alert = try #require(try aps(first)["alert"] as? [String: Any])
        #expect(alert["body"] as? String == "Family Reunion\n8/20/22, 4:00\u{2009}–\u{2009}8:00\u{202F}PM\ntimes in UTC")
        #expect(try aps(first)["badge"] as? Int == 1)
        #expect(try aps(first)["category"] as? String == "INVITATION")
        let second = try Binary.run(["notify", "-"], stdin: payload(13, "Dentist", badge: 2), env: env)
        #expect(try aps(second)["badge"] as? Int == 3)
        let reset = try Binary.run(["notify", "-"], stdin: payload(14, "Lunch", badge: 0), env: env)
        #expect(try aps(reset)["badge"] as? Int == 0)
        let after = try Binary.run(["notify", "-"], stdin: payload(15, "Tea", badge: 1), env: env)
        #expect(try aps(after)["badge"] as? Int == 1)
    }

    @Test func invalidInvitationsBecomePlainNotifications() throws {
        let env = try fresh()
        let run = try Binary.run(["notify", "-"], stdin: payload(12, "  ", badge: nil), env: env)
        #expect(run.status == 0)
        #expect(try aps(run)["category"] as? String == "")
        #expect(run.stderr == "coolcal: warning: <stdin>: \"title\" is empty; shown as a plain notification\n")
        let calendar = try Binary.temp("bad.ics", Data("garbage".utf8))
        let unreadable = try Binary.run(["notify", "-", calendar], stdin: payload(12, "Reunion", badge: nil), env: env)
        #expect(try aps(unreadable)["category"] as? String == "")
        #expect(try Binary.run(["inbox", "--json"], env: env).stdout.contains("\"unread\": 1"))
        let notJSON = try Binary.run(["notify", "-"], stdin: "hello", env: env)
        #expect(notJSON.status == 65)
    }

    @Test func inboxListsNewestFirstAndOpeningMarksRead() throws {
        let env = try fresh()
        _ = try Binary.run(["notify", "-"], stdin: payload(12, "Family Reunion", badge: 1), env: env)
        _ = try Binary.run(["notify", "-"], stdin: payload(13, "Dentist", badge: 1), env: env)
        let inbox = try Binary.run(["inbox"], env: env.merging(["LANG": "C"]) { $1 })
        let lines = inbox.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("2 * . Dentist  Aug 20, 2022, 4:00 - 8:00 PM  "))
        #expect(lines[0].hasSuffix("  [13]"))
        #expect(lines[1].hasPrefix("1 * . Family Reunion  "))
        #expect(lines[2] == "times in UTC")
        #expect(lines[3] == "You have 2 unread invitations")
        #expect(!inbox.stdout.contains("\u{1B}["))
        // Viewing the inbox cleared the badge: the next notification counts from zero.
        #expect(try aps(try Binary.run(["notify", "-"], stdin: payload(14, "Tea", badge: 1), env: env))["badge"] as? Int == 1)
        let open = try Binary.run(["inbox", "open", "12"], env: env)
        #expect(open.stdout.hasPrefix("Family Reunion\n"))
        let json = try Binary.json(try Binary.run(["inbox", "--json"], env: env).stdout)
        #expect(json["unread"] as? Int == 2)
        let entries = try #require(json["invitations"] as? [[String: Any]])
        #expect(entries.map { $0["id"] as? String } == ["14", "13", "12"])
        #expect(entries.first { $0["id"] as? String == "12" }?["read"] as? Bool == true)
        #expect(entries.map { $0["number"] as? Int } == [3, 2, 1])
        // --unread leaves out what was opened (12, number 1).
        let unread = try Binary.run(["inbox", "--unread"], env: env.merging(["LANG": "C"]) { $1 }).stdout
        #expect(unread.split(separator: "\n").map { String($0.prefix(2)) } == ["3 ", "2 ", "ti", "Yo"])
        // An INVITE operand that is no file names an inbox entry: by number, or by id.
        let byNumber = try Binary.run(["conflicts", "--json", "2", Binary.sample("work.ics")], env: env)
        #expect(try Binary.json(byNumber.stdout)["invite"].flatMap { ($0 as? [String: Any])?["title"] as? String } == "Dentist")
        let byID = try Binary.run(["conflicts", "--json", "14", Binary.sample("work.ics")], env: env)
        #expect(try Binary.json(byID.stdout)["invite"].flatMap { ($0 as? [String: Any])?["title"] as? String } == "Tea")
        let unknown = try Binary.run(["conflicts", "nope", Binary.sample("work.ics")], env: env)
        #expect(unknown.status == 66)
        #expect(unknown.stderr.contains("nope: no such file or directory, nor an invitation in the inbox with this number, id or UID"))
        let missing = try Binary.run(["inbox", "open", "99"], env: env)
        #expect(missing.status == 66)
        #expect(try Binary.run(["inbox"], env: try fresh()).stdout == "You have no invitations\n")
    }

    @Test func responsesAreSortedByStartWithMarks() throws {
        let env = try fresh()
        let cal = try Binary.temp("w.ics", try Data(contentsOf: URL(fileURLWithPath: Binary.sample("work.ics"))))
        #expect(try Binary.run(["decline", Binary.sample("invite-free.json")], env: env).status == 0)
        #expect(try Binary.run(["accept", Binary.sample("invite.json"), cal], env: env).status == 0)
        #expect(try Binary.run(["comment", Binary.sample("invite.json"), "Bringing \"cake\"\nand ✓ Grüße"], env: env).status == 0)
        let text = try Binary.run(["responses"], env: env).stdout
        #expect(text == """
        ✓ Family Reunion  Aug 20, 2022, 4:00\u{2009}–\u{2009}8:00\u{202F}PM
        ✎ Family Reunion  Aug 20, 2022, 4:00\u{2009}–\u{2009}8:00\u{202F}PM
            Bringing "cake"
            and ✓ Grüße
        ✗ Dentist  Aug 23, 2022, 4:00\u{2009}–\u{2009}5:00\u{202F}PM
        times in UTC

        """)
        let ascii = try Binary.run(["responses"], env: env.merging(["LANG": "C"]) { $1 }).stdout
        #expect(ascii.hasPrefix("+ Family Reunion  "))
        #expect(ascii.contains("\nx Dentist  "))
        let json = try Binary.json(try Binary.run(["responses", "--json"], env: env).stdout)
        let list = try #require(json["responses"] as? [[String: Any]])
        #expect(list.map { $0["answer"] as? String } == ["accepted", "comment", "declined"])
        #expect(list[1]["comment"] as? String == "Bringing \"cake\"\nand ✓ Grüße")
        #expect(list.allSatisfy { $0["delivery"] as? String == "local" })
    }

    @Test func stateFilesArePrivate() throws {
        let env = try fresh()
        _ = try Binary.run(["decline", Binary.sample("invite.json")], env: env)
        let dir = try #require(env["COOLCAL_STATE"])
        func mode(_ path: String) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
        #expect(try mode(dir) == 0o700)
        for file in try FileManager.default.contentsOfDirectory(atPath: dir) {
            #expect(try mode(dir + "/" + file) == 0o600, "\(file)")
        }
    }

    @Test func manyProcessesLoseNoRow() throws {
        let env = try fresh()
        var processes: [(Process, Pipe)] = []
        for id in 1...12 {
            let invite = try Binary.temp("i\(id).json", Data(payload(id, "Invite \(id)", badge: 1).utf8))
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Binary.path)
            p.arguments = id % 2 == 0 ? ["decline", invite] : ["notify", invite]
            p.environment = env.merging(["XDG_CONFIG_HOME": "/nonexistent"]) { $1 }
            let err = Pipe()
            p.standardError = err
            p.standardOutput = FileHandle.nullDevice
            processes.append((p, err))
        }
        for (p, _) in processes { try p.run() }
        for (p, err) in processes {
            p.waitUntilExit()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(p.terminationStatus == 0)
            #expect(!message.contains("locked"), "\(message)")
        }
        let responses = try #require(try Binary.json(try Binary.run(["responses", "--json"], env: env).stdout)["responses"] as? [Any])
        #expect(responses.count == 6)
        let inbox = try #require(try Binary.json(try Binary.run(["inbox", "--json"], env: env).stdout)["invitations"] as? [Any])
        #expect(inbox.count == 6)
    }
}
