import Foundation
import Testing

/// Issue #45: the calendar written but the answer not recorded is said so — exit 2 and
/// `written to CAL; the answer is not recorded: REASON; run again to record and mail it`
/// for accept, decline and merge; `process` parks and exits 75 — and the next run records
/// the answer once and mails it once. The state is broken for real while coolcal is held
/// right after its calendar write (the test hook): a file where the state directory was
/// (accept, decline), the state's file system filled (merge, process).
@Suite(.serialized) struct UnrecordedTests {
    let mail = MailAnswerTests()

    func responses(_ state: String, _ env: [String: String]) throws -> [String] {
        let run = try Binary.run(["responses", "--json", "--state", state], env: env)
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try #require(try Binary.json(run.stdout)["responses"] as? [[String: Any]])
        return rows.compactMap { $0["answer"] as? String }
    }

    func holds(_ calendar: String, _ text: String) -> Bool {
        ((try? String(contentsOfFile: calendar, encoding: .utf8)) ?? "").contains(text)
    }

    /// A file where the state directory is (the state directory moved aside when there is one).
    func breakState(_ state: String) throws {
        if FileManager.default.fileExists(atPath: state) { try FileManager.default.moveItem(atPath: state, toPath: state + ".aside") }
        try Data("not a directory\n".utf8).write(to: URL(fileURLWithPath: state))
    }

    func mendState(_ state: String) throws {
        unlink(state)
        if FileManager.default.fileExists(atPath: state + ".aside") { try FileManager.default.moveItem(atPath: state + ".aside", toPath: state) }
    }

    @Test func acceptWrittenButNotRecordedIs2ThenTheRerunRecordsAndMailsOnce() throws {
        let f = try mail.files(MailAnswerTests.invitation())
        let sendmail = try CountingSendmail(in: f.home.path)
        var env = f.env
        env["COOLCAL_SENDMAIL"] = sendmail.command
        let args = ["accept", "--reply", "--state", f.state, f.invite, f.calendar]
        let (run, held) = try FaultInjection.breaking(args, at: "accept-after-write", env: env,
                                                      written: { holds(f.calendar, "BEGIN:VEVENT") }) { try breakState(f.state) }
        #expect(held, "the fault did not land after the write: \(run.stderr)")
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("written to \(f.calendar); the answer is not recorded: \(f.state): ")
                && run.stderr.contains("; run again to record and mail it\n"), "\(run.stderr)")
        #expect(holds(f.calendar, "BEGIN:VEVENT") && sendmail.count == 0)
        try mendState(f.state)
        let again = try Binary.run(args, env: env)
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(try responses(f.state, env) == ["accepted"], "recorded once")
        #expect(sendmail.count == 1, "mailed once")
        #expect(try String(contentsOfFile: f.calendar, encoding: .utf8).components(separatedBy: "BEGIN:VEVENT").count == 2)
    }

    @Test func declineWrittenButNotRecordedIs2ThenTheRerunRecordsOnce() throws {
        let f = try mail.files(MailAnswerTests.invitation())
        let accept = try Binary.run(["accept", "--state", f.state, f.invite, f.calendar], env: f.env)
        #expect(accept.status == 0, "\(accept.stderr)")
        let args = ["decline", "--state", f.state, f.invite]
        let before = try String(contentsOfFile: f.calendar, encoding: .utf8)
        let (run, held) = try FaultInjection.breaking(args, at: "decline-after-write", env: f.env,
                                                      written: { (try? String(contentsOfFile: f.calendar, encoding: .utf8)) != before }) { try breakState(f.state) }
        #expect(held, "the fault did not land after the write: \(run.stderr)")
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("written to \(f.calendar); the answer is not recorded: ")
                && run.stderr.contains("; run again to record and mail it\n"), "\(run.stderr)")
        try mendState(f.state)
        let again = try Binary.run(args + [f.calendar], env: f.env)
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(try responses(f.state, f.env).filter { $0 == "declined" }.count == 1, "recorded once")
    }

    /// merge and process with the state on a small file system, filled while coolcal
    /// holds after the calendar write: SQLite's "database or disk is full" at the record.
    @Test(arguments: ["merge", "process"])
    func writtenButNotRecordedWhenTheStatesDiskFills(_ command: String) throws {
        let root = try Spawn.directory(open: true)
        guard let disk = FaultInjection.smallDisk(in: root) else {
            print("skipped: cannot mount a tmpfs here (needs root with CAP_SYS_ADMIN)")
            return
        }
        defer { FaultInjection.unmount(disk) }
        let calendar = root + "/cal.ics", state = disk + "/state", spool = root + "/spool"
        try FaultDesk.writeCalendar(calendar)
        let sendmail = try CountingSendmail(in: root)
        let env = ["COOLCAL_SENDMAIL": sendmail.command, "XDG_STATE_HOME": root + "/xdg-state", "HOME": root]
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
        let message = FaultDesk.invitation("full@example.org")
        let args = command == "merge"
            ? ["merge", "--me", OrganizerBindingTests.me, "--reply", "--state", state, "--spool", spool, calendar]
            : ["process", "--recipient", OrganizerBindingTests.me, "--reply", "--state", state, calendar]
        // A first answer makes the state (and its WAL) before the disk fills.
        let first = FaultDesk.invitation("first@example.org", start: "20310317T100000Z")
        if command == "merge" { try Data(first.utf8).write(to: URL(fileURLWithPath: spool + "/first.eml")) }
        let made = try Binary.run(args, stdin: command == "process" ? first : nil, env: env)
        #expect(made.status == 0, "\(made.stdout)\(made.stderr)")
        if command == "merge" { try Data(message.utf8).write(to: URL(fileURLWithPath: spool + "/full.eml")) }
        let (run, held) = try FaultInjection.breaking(args, at: "merge-after-write", stdin: command == "process" ? message : nil, env: env,
                                                      written: { holds(calendar, "UID:full@example.org") }) { FaultInjection.fill(disk) }
        #expect(held, "the fault did not land after the write: \(run.stderr)")
        let said = "written to \(calendar); the answer is not recorded: \(state)/state.db: database or disk is full; run again to record and mail it"
        if command == "merge" {
            #expect(run.status == 2 && run.stderr.contains(said), "\(run.stdout)\(run.stderr)")
        } else {
            #expect(run.status == 75 && run.stdout == "error (\(said); parked: the next run answers it)\n", "\(run.stdout)\(run.stderr)")
            // In the state's parked/ when SQLite's failure gave back the pages it took, else in the fallback.
            let parked = [state + "/parked/new", root + "/xdg-state/coolcal/parked/new"]
                .flatMap { (try? FileManager.default.contentsOfDirectory(atPath: $0)) ?? [] }
            #expect(parked.count == 1, "not parked")
        }
        // (process queues its answers; merge mails them.)
        #expect(sendmail.count == (command == "merge" ? 1 : 0), "only the first answer is mailed")
        FaultInjection.free(disk)
        // The next run (process: the MTA's copy delivered again) records and mails it once.
        let again = try Binary.run(args, stdin: command == "process" ? message : nil, env: env)
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(try responses(state, env).filter { $0 == "accepted" }.count == 2, "recorded once")
        if command == "process" {
            let flush = try Binary.run(["outbox", "flush", "--state", state], env: env)
            #expect(flush.status == 0, "\(flush.stdout)\(flush.stderr)")
        }
        #expect(sendmail.count == 2, "mailed once")
        #expect(try String(contentsOfFile: calendar, encoding: .utf8).components(separatedBy: "UID:full@example.org").count == 2)
        let parked = [state + "/parked/new", root + "/xdg-state/coolcal/parked/new"]
            .flatMap { (try? FileManager.default.contentsOfDirectory(atPath: $0)) ?? [] }
        #expect(parked.isEmpty, "a parked copy stayed")
    }
}
