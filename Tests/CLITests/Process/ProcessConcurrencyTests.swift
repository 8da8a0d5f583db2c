import Foundation
import Testing

/// A mail server delivers many messages at once (issue #32): 16 `process` runs of 16
/// different invitations into one calendar and one state all add their event, once each,
/// and the calendar stays whole. The overlap is made, not hoped for: the test holds the
/// calendar's lock until all 16 are running, so they all wait at once, then lets go.
@Suite struct ProcessConcurrencyTests {
    typealias T = OrganizerBindingTests

    @Test func sixteenDeliveriesAtOnceAddSixteenEventsOnce() throws {
        let d = try ProcessDesk()
        let lockPath = d.root + "/.cal.ics.coolcal-lock"
        let fd = open(lockPath, O_RDONLY | O_CREAT, 0o644)
        #expect(fd >= 0 && flock(fd, LOCK_EX) == 0)
        var processes: [(Process, Pipe)] = []
        for i in 0..<16 {
            let message = T.mail(T.message(start: "203104\(String(format: "%02d", i + 1))T100000Z", summary: "Meeting \(i)",
                                           uid: "burst-\(i)@example.org"), from: "Alice <alice@example.org>")
            let file = try Binary.temp("burst-\(i).eml", Data(message.utf8))
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Binary.path)
            p.arguments = ["process", "--deadline", "60"] + d.args
            p.environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "HOME": Binary.home, "COOLCAL_LOCK_TIMEOUT": "60",
                             "XDG_CONFIG_HOME": d.root + "/no-config"]
            let out = Pipe()
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            p.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: file))
            try p.run()
            processes.append((p, out))
        }
        // All 16 are alive while the lock is held: each is waiting, none has answered.
        usleep(500_000)
        #expect(processes.allSatisfy { $0.0.isRunning }, "a run finished while the calendar was locked")
        #expect(try d.text() == HeldMergeTests.calendarKnowingAlice)
        flock(fd, LOCK_UN)
        close(fd)
        var outcomes: [String] = []
        for (p, out) in processes {
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            #expect(p.terminationStatus == 0)
            outcomes.append(text)
        }
        #expect(outcomes.allSatisfy { $0 == "added (accepted)\n" }, "\(outcomes)")
        for i in 0..<16 { #expect(try d.count("burst-\(i)@example.org") == 1, "burst-\(i)") }
        // Whole: it parses, with the old event and the 16 new ones.
        let events = try Binary.run(["events", "--json", "--from", "2020-01-01T00:00:00Z", "--to", "2032-01-01T00:00:00Z", d.calendar])
        #expect(events.status == 0, "\(events.stderr)")
        #expect((try Binary.json(events.stdout)["events"] as? [[String: Any]])?.count == 17, "\(events.stdout.prefix(300))")
        #expect(d.parked.isEmpty)
    }
}
