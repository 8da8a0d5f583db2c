import Foundation
import Testing
@testable import CLITests

/// Concurrent writers and killed processes: the calendar is always whole.
@Suite(.serialized) struct DurabilityTests {
    /// The DTSTAMP of every event of the big calendar.
    static let fixtureStamp = "DTSTAMP:20240101T000000Z"

    /// A 10,000-event calendar (CRLF), the size of a few years of a work calendar.
    static func bigCalendar() throws -> (path: String, bytes: Data) {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n"
        for i in 0..<10_000 {
            let day = 1 + i % 28, month = 1 + (i / 28) % 12, year = 2015 + i / 336
            let stamp = String(format: "%04d%02d%02dT%02d0000Z", year, month, day, 8 + i % 9)
            text += "BEGIN:VEVENT\r\nUID:event-\(i)@test\r\n\(fixtureStamp)\r\nDTSTART:\(stamp)\r\n"
            text += "DURATION:PT45M\r\nSUMMARY:Meeting \(i) — Überprüfung\r\nDESCRIPTION:"
            text += String(repeating: "agenda item; ", count: 5) + "\r\nEND:VEVENT\r\n"
        }
        text += "END:VCALENDAR\r\n"
        let data = Data(text.utf8)
        return (try Binary.temp("big.ics", data), data)
    }

    /// Invitation `id`: "Invite id", an hour on January (1 + id % 28), 2030 (the drills' payloads).
    static func inviteJSON(_ id: Int) -> String {
        "{\"title\": \"Invite \(id)\", \"start\": \"2030-01-\(String(format: "%02d", 1 + id % 28))T10:00:00Z\", \"end\": \"2030-01-\(String(format: "%02d", 1 + id % 28))T11:00:00Z\", \"id\": \(id)}"
    }

    func invite(_ id: Int) throws -> String {
        try Binary.temp("invite-\(id).json", Data(Self.inviteJSON(id).utf8))
    }

    @Test func sixteenConcurrentAcceptsAllLand() throws {
        let cal = try Binary.temp("shared.ics", try Data(contentsOf: URL(fileURLWithPath: Binary.sample("work.ics"))))
        let before = try Data(contentsOf: URL(fileURLWithPath: cal))
        var processes: [Process] = []
        for id in 1...16 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Binary.path)
            p.arguments = ["accept", try invite(id), cal]
            p.environment = ["XDG_CONFIG_HOME": "/nonexistent", "HOME": Binary.home, "COOLCAL_LOCK_TIMEOUT": "60"]
            p.standardOutput = FileHandle.nullDevice
            processes.append(p)
        }
        for p in processes { try p.run() }
        for p in processes { p.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })
        let after = String(decoding: try Data(contentsOf: URL(fileURLWithPath: cal)), as: UTF8.self)
        for id in 1...16 {
            #expect(after.contains("X-COOLCAL-INVITE-ID:\(id)\r\n"), "invite \(id) missing")
        }
        let kept = String(decoding: before.dropLast("END:VCALENDAR\r\n".utf8.count), as: UTF8.self)
        #expect(after.hasPrefix(kept), "the original bytes come first, unchanged")
        let events = try Binary.run(["events", "--json", "--from", "2030-01-01", "--to", "2030-02-01", cal])
        let list = try #require(try Binary.json(events.stdout)["events"] as? [[String: Any]])
        #expect(list.filter { ($0["summary"] as? String)?.hasPrefix("Invite ") == true }.count == 16)
    }

    /// One accept of invite 99 into a fresh copy of `original`: what it writes, and how long it takes here.
    func cleanAccept(_ cal: String, _ original: Data, _ invite: String) throws -> (bytes: Data, seconds: Double) {
        try original.write(to: URL(fileURLWithPath: cal))
        let started = Date()
        #expect(try Binary.run(["accept", invite, cal]).status == 0)
        let seconds = Date().timeIntervalSince(started)
        return (try Data(contentsOf: URL(fileURLWithPath: cal)), seconds)
    }

    /// The deterministic crash point: the writer stops (test hook `COOLCAL_TEST_PAUSE_AT`)
    /// once the new calendar is complete in its temporary file, before fsync and rename,
    /// and is killed there. The calendar must be the old one, byte for byte.
    @Test func killedBeforeTheRenameLeavesTheOldCalendar() throws {
        let (cal, original) = try Self.bigCalendar()
        let dir = URL(fileURLWithPath: cal).deletingLastPathComponent().path
        let path = try invite(99)
        let expected = try cleanAccept(cal, original, path).bytes
        try original.write(to: URL(fileURLWithPath: cal))

        let (p, said) = try Spawn.pausedAt("after-temp-write", ["accept", path, cal],
                                           env: ["XDG_CONFIG_HOME": "/nonexistent", "HOME": Binary.home])
        #expect(said == "coolcal: test hook: paused at after-temp-write\n", "the writer never reached the crash point")
        // The kill lands mid-write: the temporary file holds the whole new calendar, not yet renamed.
        let temps = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".tmp") }
        #expect(temps.count == 1 && temps.first?.hasPrefix(".big.ics.coolcal-") == true, "temporary files: \(temps)")
        let pending = try temps.first.map { try Data(contentsOf: URL(fileURLWithPath: dir + "/" + $0)) }
        #expect(pending.map(stripStamp) == stripStamp(expected), "the temporary file is not the complete new calendar")
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal && p.terminationStatus == SIGKILL)

        #expect(try Data(contentsOf: URL(fileURLWithPath: cal)) == original, "the calendar is not the old one, byte for byte")
        // What readers list: no new event, and nothing but the calendar outside dot files.
        let events = try Binary.run(["events", "--json", "--from", "2030-01-01", "--to", "2030-02-01", cal])
        let listed = try #require(try Binary.json(events.stdout)["events"] as? [[String: Any]])
        #expect(!listed.isEmpty && listed.allSatisfy { ($0["summary"] as? String)?.hasPrefix("Invite ") == false })
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { !$0.hasPrefix(".") } == ["big.ics"])
        // The next accept removes the dead writer's temporary file and lands.
        #expect(try Binary.run(["accept", path, cal]).status == 0)
        #expect(stripStamp(try Data(contentsOf: URL(fileURLWithPath: cal))) == stripStamp(expected))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    /// Kills at random moments of an accept: whenever they land, the calendar is the old
    /// one or the old one plus the event. (Which of the two each kill saw depends on the
    /// machine's timing, so it is not asserted; the crash point above is deterministic.)
    @Test func killedAtRandomLeavesOldOrNew() throws {
        let (cal, original) = try Self.bigCalendar()
        let dir = URL(fileURLWithPath: cal).deletingLastPathComponent().path
        let path = try invite(99)
        // How long one accept takes here, to spread the kills over it.
        let (expected, duration) = try cleanAccept(cal, original, path)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<25 {
            try original.write(to: URL(fileURLWithPath: cal))
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Binary.path)
            p.arguments = ["accept", path, cal]
            p.environment = ["XDG_CONFIG_HOME": "/nonexistent", "HOME": Binary.home]
            p.standardOutput = FileHandle.nullDevice
            try p.run()
            usleep(useconds_t(Double.random(in: 0...(duration * 1.2), using: &generator) * 1_000_000))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            let now = try Data(contentsOf: URL(fileURLWithPath: cal))
            // DTSTAMP differs from run to run; compare everything else.
            #expect(now == original || stripStamp(now) == stripStamp(expected), "calendar is neither old nor old+event")
        }
        // A later accept cleans up what killed writers left behind and succeeds.
        #expect(try Binary.run(["accept", path, cal]).status == 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    /// The calendar without the DTSTAMP lines stamped at run time (in whatever year the
    /// test runs); the big calendar's own fixed stamps are kept and compared.
    private func stripStamp(_ data: Data) -> String {
        String(decoding: data, as: UTF8.self).split(separator: "\r\n")
            .filter { !$0.hasPrefix("DTSTAMP:") || $0 == Self.fixtureStamp }
            .joined(separator: "\r\n")
    }
}
