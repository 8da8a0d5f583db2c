import Foundation
import Testing
@testable import CLITests

/// Crash and resource drills: a full disk, and processes killed while writing state.
@Suite(.serialized) struct DrillTests {
    /// `ulimit -f` stands in for a full disk: the temp file cannot grow, `write` fails
    /// with EFBIG, coolcal exits 74 and the calendar is the old one.
    @Test func fullDiskLeavesTheOldFile() throws {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
        for i in 0..<400 {
            text += "BEGIN:VEVENT\r\nUID:e\(i)\r\nDTSTART:20200101T100000Z\r\nSUMMARY:" + String(repeating: "x", count: 100) + "\r\nEND:VEVENT\r\n"
        }
        text += "END:VCALENDAR\r\n"
        let cal = try Binary.temp("big.ics", Data(text.utf8))
        let before = try Data(contentsOf: URL(fileURLWithPath: cal))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        // 40 blocks of 1 KiB: smaller than the calendar (~60 KB), so the rewrite cannot fit.
        p.arguments = ["-c", "ulimit -f 40; exec \"$0\" accept \"$1\" \"$2\"", Binary.path, Binary.sample("invite.json"), cal]
        p.environment = ["XDG_CONFIG_HOME": "/nonexistent", "COOLCAL_STATE": URL(fileURLWithPath: cal).deletingLastPathComponent().path + "/state"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(p.terminationReason == .exit)
        #expect(p.terminationStatus == 74)
        // (The sample reunion is in 2022: accept warns of that first.)
        #expect(message.hasPrefix("coolcal: warning: every instance ended before now\ncoolcal: error: \(cal): cannot write: File too large"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: cal)) == before)
        let dir = URL(fileURLWithPath: cal).deletingLastPathComponent().path
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    /// `kill -9` while many processes record answers: every answer that was recorded
    /// has its outbox row and the reverse (one transaction), and the state still opens.
    @Test func killedStateWritersLeaveConsistentState() throws {
        let dir = URL(fileURLWithPath: try Binary.temp("x", Data())).deletingLastPathComponent()
        let env = ["XDG_CONFIG_HOME": "/nonexistent", "COOLCAL_STATE": dir.appendingPathComponent("state").path,
                   "COOLCAL_SERVER": "http://127.0.0.1:9", "COOLCAL_SERVER_TIMEOUT": "0.2"]
        var generator = SystemRandomNumberGenerator()
        for round in 0..<6 {
            var processes: [Process] = []
            for i in 0..<6 {
                let id = round * 10 + i
                let json = "{\"title\": \"T\(id)\", \"start\": \"2030-01-01T10:00:00Z\", \"end\": \"2030-01-01T11:00:00Z\", \"id\": \(id)}"
                let invite = dir.appendingPathComponent("i\(id).json")
                try Data(json.utf8).write(to: invite)
                let p = Process()
                p.executableURL = URL(fileURLWithPath: Binary.path)
                p.arguments = [i % 2 == 0 ? "decline" : "comment", invite.path] + (i % 2 == 0 ? [] : ["note \(id)"])
                p.environment = env
                p.standardOutput = FileHandle.nullDevice
                p.standardError = FileHandle.nullDevice
                try p.run()
                processes.append(p)
            }
            usleep(UInt32.random(in: 0...60_000, using: &generator))
            for p in processes { kill(p.processIdentifier, SIGKILL) }
            for p in processes { p.waitUntilExit() }
        }
        let responses = try Binary.run(["responses", "--json"], env: env)
        #expect(responses.status == 0)
        let answers = try #require(try Binary.json(responses.stdout)["responses"] as? [[String: Any]])
        let outbox = try Binary.run(["outbox", "--json"], env: env)
        #expect(outbox.status == 0)
        let queued = try #require(try Binary.json(outbox.stdout)["outbox"] as? [[String: Any]])
        #expect(answers.count == queued.count)
        #expect(answers.allSatisfy { $0["delivery"] as? String == "queued" })
        // And the state still takes new answers.
        #expect(try Binary.run(["decline", Binary.sample("invite.json")], env: env).status == 0)
    }
}
