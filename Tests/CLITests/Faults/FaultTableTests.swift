import Foundation
import Testing

/// Issue #45: the man page's table of faults (EXIT STATUS), walked: each row's fault is
/// made for real, in a fresh directory for each command, and `process` (the message on
/// standard input), `merge` (the message in a spool) and `accept` (the message as a file)
/// must exit as the row says — `process` with the message parked when the row says so.
@Suite(.serialized) struct FaultTableTests {
    typealias T = OrganizerBindingTests

    /// A row of the table: the fault and the three cells.
    struct Row: CustomStringConvertible {
        var fault: String
        var process: String
        var merge: String
        var accept: String
        var description: String { "\(fault): process \(process), merge \(merge), accept \(accept)" }
    }

    /// The rows, read from man/coolcal.1 (the `.Bl -column` after "Each fault").
    static func rows() throws -> [Row] {
        let man = try String(contentsOf: Binary.root.appendingPathComponent("man/coolcal.1"), encoding: .utf8)
        let lines = man.components(separatedBy: "\n")
        guard let header = lines.firstIndex(where: { $0.hasPrefix(".It Em fault Ta Em process Ta Em merge Ta Em accept") }) else { return [] }
        var rows: [Row] = []
        for line in lines[(header + 1)...] {
            if line == ".El" { break }
            let cells = line.dropFirst(".It ".count).components(separatedBy: " Ta ")
            guard line.hasPrefix(".It "), cells.count == 4 else { continue }
            rows.append(Row(fault: cells[0], process: cells[1], merge: cells[2], accept: cells[3]))
        }
        return rows
    }

    /// One command's world: a calendar operand, a state, a fallback parking place, an
    /// environment, and what undoes the fault's hold (a lock, a mount).
    struct Scene {
        var root: String
        var calendar: String
        var state: String
        var env: [String: String]
        var message: String
        var cleanup: [() -> Void] = []
        /// The fault made while coolcal is held after its calendar write (test hook).
        var afterWrite: (() -> Void)?
        var parked: Int {
            [state + "/parked/new", root + "/xdg-state/coolcal/parked/new"]
                .reduce(0) { $0 + (((try? FileManager.default.contentsOfDirectory(atPath: $1)) ?? []).count) }
        }
    }

    /// A fresh scene with `fault` made; nil when it cannot be made here (said).
    func scene(_ fault: String) throws -> Scene? {
        let root = try Spawn.directory(open: true)
        var s = Scene(root: root, calendar: root + "/cal.ics", state: root + "/state",
                      env: ["HOME": root, "XDG_STATE_HOME": root + "/xdg-state", "COOLCAL_LOCK_TIMEOUT": "0.3"],
                      message: FaultDesk.invitation("table@example.org"))
        try FaultDesk.writeCalendar(s.calendar)
        func makeState() throws {
            let made = try Binary.run(["process", "--recipient", T.me, "--state", s.state, s.calendar],
                                      stdin: FaultDesk.invitation("first@example.org", start: "20310317T100000Z"), env: s.env)
            #expect(made.status == 0, "\(made.stderr)")
        }
        switch fault {
        case "a calendar locked past the wait":
            let fd = open(root + "/.cal.ics.coolcal-lock", O_RDONLY | O_CREAT, 0o644)
            guard fd >= 0, flock(fd, LOCK_EX) == 0 else { return nil }
            s.cleanup.append { close(fd) }
        case "a CalDAV server down":
            s.calendar = "http://127.0.0.1:9/dav/cal/"
        case "the state's disk full", "written, the answer not recorded":
            guard let disk = FaultInjection.smallDisk(in: root) else {
                print("skipped '\(fault)': cannot mount a tmpfs here (needs root with CAP_SYS_ADMIN)")
                return nil
            }
            s.cleanup.append { FaultInjection.unmount(disk) }
            s.state = disk + "/state"
            try makeState()
            // Written, not recorded: the disk fills after the calendar write, before the record.
            if fault.hasPrefix("written") { s.afterWrite = { FaultInjection.fill(disk) } } else { FaultInjection.fill(disk) }
        case "the calendar not writable":
            chmod(s.calendar, 0o444)
        case "the calendar's directory missing":
            s.calendar = root + "/missing/cal.ics"
        case "the calendar file missing":
            try? FileManager.default.removeItem(atPath: s.calendar)
        case "the state not a database":
            try FileManager.default.createDirectory(atPath: s.state, withIntermediateDirectories: true)
            try Data((0..<8192).map { _ in UInt8.random(in: 0...255) }).write(to: URL(fileURLWithPath: s.state + "/state.db"))
        case "the state of a newer coolcal":
            try makeState()
            let sql = try Spawn.run([], shell: "/usr/bin/sqlite3 '\(s.state)/state.db' 'PRAGMA user_version = 999'")
            #expect(sql.status == 0, "\(sql.stderr)")
        case "the state's path a file":
            try Data("a file\n".utf8).write(to: URL(fileURLWithPath: s.state))
        case "the configuration file unusable":
            let config = try Binary.configHome("this line has no equals sign\n")
            s.env["XDG_CONFIG_HOME"] = config
        case "no place to park":
            // The state's path a file, and the fallback's parent a file too.
            try Data("a file\n".utf8).write(to: URL(fileURLWithPath: s.state))
            try Data("a file\n".utf8).write(to: URL(fileURLWithPath: root + "/xdg-state"))
        case "bad data in the message":
            s.message = T.mail("BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:bad@example.org\r\n", from: FaultDesk.alice)
        default:
            Issue.record("no way to make the fault '\(fault)': add one here")
            return nil
        }
        return s
    }

    /// `75, parked` → (75, true); `0` → (0, false); nil for `—` (not this command's).
    static func cell(_ text: String) -> (status: Int32, parked: Bool)? {
        guard let number = Int32(text.prefix { $0.isNumber }) else { return nil }
        return (number, text.contains("parked"))
    }

    /// Runs `args`; with `s.afterWrite`, held at `point` until the calendar holds the
    /// message's event and the fault is made.
    func run(_ args: [String], _ s: Scene, stdin: String? = nil, point: String) throws -> Run {
        guard let fault = s.afterWrite else { return try Binary.run(args, stdin: stdin, env: s.env) }
        let calendar = s.calendar
        let (run, held) = try FaultInjection.breaking(args, at: point, stdin: stdin, env: s.env, written: {
            ((try? String(contentsOfFile: calendar, encoding: .utf8)) ?? "").contains("UID:table@example.org")
        }) { fault() }
        #expect(held, "the fault did not land after the write: \(run.stderr)")
        return run
    }

    @Test func theManPagesTableIsWhatRunsDo() throws {
        let rows = try Self.rows()
        #expect(rows.count >= 10, "the table was not found in man/coolcal.1")
        for row in rows {
            if let want = Self.cell(row.process), let s = try scene(row.fault) {
                defer { s.cleanup.forEach { $0() } }
                let run = try run(["process", "--recipient", T.me, "--state", s.state, s.calendar], s, stdin: s.message, point: "merge-after-write")
                #expect(run.status == want.status && (s.parked > 0) == want.parked,
                        "\(row): process exited \(run.status), \(s.parked) parked: \(run.stdout)\(run.stderr)")
            }
            if let want = Self.cell(row.merge), let s = try scene(row.fault) {
                defer { s.cleanup.forEach { $0() } }
                let spool = s.root + "/spool"
                try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
                try Data(s.message.utf8).write(to: URL(fileURLWithPath: spool + "/message.eml"))
                let run = try run(["merge", "--me", T.me, "--state", s.state, "--spool", spool, s.calendar], s, point: "merge-after-write")
                #expect(run.status == want.status, "\(row): merge exited \(run.status): \(run.stdout)\(run.stderr)")
            }
            if let want = Self.cell(row.accept), let s = try scene(row.fault) {
                defer { s.cleanup.forEach { $0() } }
                let file = s.root + "/message.eml"
                try Data(s.message.utf8).write(to: URL(fileURLWithPath: file))
                let run = try run(["accept", "--me", T.me, "--state", s.state, file, s.calendar], s, point: "accept-after-write")
                #expect(run.status == want.status, "\(row): accept exited \(run.status): \(run.stdout)\(run.stderr)")
            }
        }
    }
}
