import Foundation
import Testing

/// One write for a burst of deliveries (issue #48): a `process` that finds the run lock
/// held hands its message to the holder, which answers what was handed over in one more
/// calendar write before letting go. The bursts are made, not hoped for: the test holds
/// the calendar's lock while the deliveries start, so the first holds the run lock and
/// waits on the calendar, the others hand over. Calendar writes are counted from the
/// funnel's renames (`COOLCAL_TEST_TRACE`), across the processes.
@Suite struct BurstTests {
    typealias T = OrganizerBindingTests

    /// A delivery started in the background; its stdout and stderr go to files.
    struct Delivery {
        let process: Process
        let out: String
        let err: String

        init(_ desk: ProcessDesk, _ i: Int, deadline: String = "60", extra: [String] = [], env: [String: String] = [:],
             directory: String? = nil) throws {
            let message = T.mail(T.message(start: "203104\(String(format: "%02d", i + 1))T100000Z", summary: "Meeting \(i)",
                                           uid: "burst-\(i)@example.org"), from: "Alice <alice@example.org>")
            let input = try Binary.temp("burst-\(i).eml", Data(message.utf8))
            out = desk.root + "/out-\(i)"
            err = desk.root + "/err-\(i)"
            #expect(FileManager.default.createFile(atPath: out, contents: nil) && FileManager.default.createFile(atPath: err, contents: nil))
            process = Process()
            process.executableURL = URL(fileURLWithPath: Binary.path)
            process.arguments = ["process", "--deadline", deadline] + extra + desk.args
            process.environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "HOME": Binary.home, "COOLCAL_LOCK_TIMEOUT": "60",
                                   "XDG_CONFIG_HOME": desk.root + "/no-config", "XDG_STATE_HOME": desk.root + "/xdg-state",
                                   "COOLCAL_TEST_TRACE": desk.root + "/trace"].merging(env) { $1 }
            if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
            process.standardOutput = FileHandle(forWritingAtPath: out)
            process.standardError = FileHandle(forWritingAtPath: err)
            process.standardInput = FileHandle(forReadingAtPath: input)
            try process.run()
        }

        /// Waits for the end: exit status, stdout, stderr.
        func finish() -> (status: Int32, out: String, err: String) {
            process.waitUntilExit()
            let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
            return (process.terminationStatus, read(out), read(err))
        }
    }

    /// Holds `PATH`'s lock file as coolcal's locks do (`flock`), until `release`.
    final class HeldLock {
        let fd: Int32
        init(_ path: String) {
            fd = open(path, O_RDONLY | O_CREAT, 0o644)
            #expect(fd >= 0 && flock(fd, LOCK_EX) == 0)
        }
        func release() {
            flock(fd, LOCK_UN)
            close(fd)
        }
    }

    /// Files in every `STATE/handover/*/SUB` folder (dot names, being written, left out).
    static func handedOver(_ d: ProcessDesk, _ sub: String = "new") -> [String] {
        let fm = FileManager.default
        let keys = (try? fm.contentsOfDirectory(atPath: d.state + "/handover")) ?? []
        return keys.flatMap { key in
            ((try? fm.contentsOfDirectory(atPath: d.state + "/handover/\(key)/\(sub)")) ?? []).filter { !$0.hasPrefix(".") }
        }
    }

    /// Polls `condition` every 20 ms for up to 30 s.
    static func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<1500 {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// Whether someone holds the run lock (`STATE/process.lock`).
    static func runLockHeld(_ d: ProcessDesk) -> Bool {
        let fd = open(d.state + "/process.lock", O_RDONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { flock(fd, LOCK_UN); return false }
        return true
    }

    /// The renames the deliveries made onto the calendar: its writes.
    static func calendarWrites(_ d: ProcessDesk) -> Int {
        let trace = (try? String(contentsOfFile: d.root + "/trace", encoding: .utf8)) ?? ""
        return trace.split(separator: "\n").filter { $0.hasSuffix(" -> " + d.calendar) }.count
    }

    @Test func sixteenDeliveriesAreWrittenInAtMostFourWritesEachAnsweredOnce() throws {
        let d = try ProcessDesk()
        let calendarLock = HeldLock(d.root + "/.cal.ics.coolcal-lock")
        let mailer = ["COOLCAL_SENDMAIL": "/bin/true"]
        var deliveries = [try Delivery(d, 0, extra: ["--json", "--reply"], env: mailer)]
        #expect(Self.eventually { Self.runLockHeld(d) }, "the first delivery never took the run lock")
        for i in 1..<16 { deliveries.append(try Delivery(d, i, extra: ["--json", "--reply"], env: mailer)) }
        // The 15 others handed their messages over (none waits to write the calendar itself).
        #expect(Self.eventually { Self.handedOver(d).count == 15 }, "\(Self.handedOver(d))")
        #expect(deliveries.allSatisfy { $0.process.isRunning })
        calendarLock.release()
        for (i, delivery) in deliveries.enumerated() {
            let (status, out, err) = delivery.finish()
            #expect(status == 0, "\(i): \(err)")
            // Each says its own message's outcome: its own title, not another's.
            let json = try Binary.json(out)
            #expect(json["outcome"] as? String == "added" && json["title"] as? String == "Meeting \(i)", "\(i): \(out) \(err)")
        }
        let writes = Self.calendarWrites(d)
        #expect(writes >= 1 && writes <= 4, "\(writes) calendar writes for 16 deliveries")
        for i in 0..<16 { #expect(try d.count("burst-\(i)@example.org") == 1, "burst-\(i)") }
        // One answer queued for each, none twice.
        let outbox = try Binary.run(["outbox", "--json", "--state", d.state])
        let queued = (try Binary.json(outbox.stdout)["outbox"] as? [[String: Any]]) ?? []
        let uids = queued.compactMap { $0["invite_id"] as? String }.sorted()
        #expect(uids == (0..<16).map { "burst-\($0)@example.org" }.sorted(), "\(outbox.stdout.prefix(400))")
        #expect(Self.handedOver(d).isEmpty && Self.handedOver(d, "claimed").isEmpty && Self.handedOver(d, "outcomes").isEmpty)
        #expect(d.parked.isEmpty)
    }

    /// How a delivery's settings differ from the holder's: what a flag says, what the
    /// environment says (the inviting server), where it runs (a relative calendar path).
    enum OtherSettings: CaseIterable { case policy, server, directory }

    @Test(arguments: OtherSettings.allCases) func aDeliveryOfOtherSettingsWaitsItsTurnInsteadOfHandingOver(_ way: OtherSettings) throws {
        let d = try ProcessDesk()
        let calendarLock = HeldLock(d.root + "/.cal.ics.coolcal-lock")
        let holder = try Delivery(d, 0)
        #expect(Self.eventually { Self.runLockHeld(d) })
        let other = switch way {
        case .policy: try Delivery(d, 1, extra: ["--policy", "accept-all"])
        case .server: try Delivery(d, 1, env: ["COOLCAL_SERVER": "http://127.0.0.1:9/inbox"])
        case .directory: try Delivery(d, 1, directory: "/")
        }
        let same = try Delivery(d, 2)
        // The one of the same settings hands over; the other's settings differ: it waits.
        #expect(Self.eventually { Self.handedOver(d).count == 1 })
        usleep(300_000)
        #expect(Self.handedOver(d).count == 1 && other.process.isRunning)
        calendarLock.release()
        for delivery in [holder, other, same] {
            let (status, out, err) = delivery.finish()
            #expect(status == 0 && out == "added (accepted)\n", "\(out) \(err)")
        }
        // The holder's write, the one for what was handed over, the other's own.
        #expect(Self.calendarWrites(d) == 3)
        for i in 0..<3 { #expect(try d.count("burst-\(i)@example.org") == 1, "burst-\(i)") }
    }

    @Test func aHolderKilledAfterClaimingLeavesTheMessageToItsDelivery() throws {
        let d = try ProcessDesk()
        let calendarLock = HeldLock(d.root + "/.cal.ics.coolcal-lock")
        let holder = try Delivery(d, 0, env: ["COOLCAL_TEST_PAUSE_AT": "process-after-claim"])
        #expect(Self.eventually { Self.runLockHeld(d) })
        let waiter = try Delivery(d, 1)
        #expect(Self.eventually { Self.handedOver(d).count == 1 })
        calendarLock.release()
        // The holder wrote its own, claimed the waiter's message and stopped there: killed.
        #expect(Self.eventually { Self.handedOver(d, "claimed").count == 1 })
        #expect(Self.eventually { (try? String(contentsOfFile: holder.err, encoding: .utf8))?.contains("paused at process-after-claim") == true })
        kill(holder.process.processIdentifier, SIGKILL)
        let (status, out, err) = waiter.finish()
        #expect(status == 0 && out == "added (accepted)\n", "\(out) \(err)")
        #expect(holder.finish().status != 0)
        // The waiter's once; the holder's once, or not at all when it had claimed the waiter's
        // message before its own write (then its MTA delivers it again).
        #expect(try d.count("burst-1@example.org") == 1)
        #expect(try d.count("burst-0@example.org") <= 1)
        #expect(Self.handedOver(d).isEmpty && Self.handedOver(d, "claimed").isEmpty)
    }

    @Test func aDeliveryWithNoOutcomeByItsDeadlineEndsParked() throws {
        let d = try ProcessDesk()
        let calendarLock = HeldLock(d.root + "/.cal.ics.coolcal-lock")
        let holder = try Delivery(d, 0)
        #expect(Self.eventually { Self.runLockHeld(d) })
        let waiter = try Delivery(d, 1, deadline: "1")
        let (status, out, err) = waiter.finish()
        #expect(status == 75 && out.isEmpty, "\(status) \(out)")
        #expect(err == "coolcal: error: process: no outcome within the deadline; the message is parked: the next run answers it\n", "\(err)")
        // Parked, not waiting to be handed over as well.
        #expect(d.parked.count == 1 && Self.handedOver(d).isEmpty, "\(d.parked)")
        calendarLock.release()
        #expect(holder.finish().status == 0)
        // The next run answers it: once.
        let next = try Delivery(d, 2).finish()
        #expect(next.status == 0)
        for i in 0..<3 { #expect(try d.count("burst-\(i)@example.org") == 1, "burst-\(i)") }
        #expect(d.parked.isEmpty)
    }
}
