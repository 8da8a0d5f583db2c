import Foundation
import Testing

/// Issue #45: every fault a person fixes parks the message and exits 0 with
/// `error (REASON; parked, answered once fixed)` — through `process` as a delivery agent
/// runs it (standard input, exit status, the parked file, 0600) — and once the fault is
/// fixed, the next delivery answers the parked message exactly once; the MTA's copy of
/// it delivered again is then "already processed".
@Suite(.serialized) struct FaultParkingTests {
    typealias D = FaultDesk

    /// Checks the parked run, fixes the fault, then one more delivery answers both.
    private func parkedThenAnsweredOnce(_ d: FaultDesk, uid: String, message: String, run: Spawned, reason: String,
                                        inFallback: Bool = false, asNobody: Bool = false, fix: () throws -> Void) throws {
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasPrefix("error (") && run.stdout.contains(reason)
                && run.stdout.hasSuffix("; parked, answered once fixed)\n"), "\(run.stdout)\(run.stderr)")
        let parked = d.parked(fallback: inFallback)
        #expect(parked.count == 1, "not parked \(inFallback ? "in the fallback" : "in the state"): \(run.stdout)\(run.stderr)")
        if let name = parked.first { #expect(d.mode(name, fallback: inFallback) == 0o600) }
        try fix()
        let next = try d.deliver(D.invitation(uid + ".next", start: "20310310T100000Z"), asNobody: asNobody)
        #expect(next.status == 0 && next.stdout == "added (accepted)\n", "\(next.stdout)\(next.stderr)")
        #expect(try d.count(uid) == 1, "the parked message was not answered once")
        #expect(d.parked().isEmpty && d.parked(fallback: true).isEmpty, "a parked copy stayed")
        let again = try d.deliver(message, asNobody: asNobody)
        #expect(again.status == 0 && again.stdout == "no_action (already processed)\n", "\(again.stdout)\(again.stderr)")
        #expect(try d.count(uid) == 1)
    }

    /// The calendar's directory does not exist (a mount not there yet, a typo to fix).
    @Test func aMissingCalendarDirectory() throws {
        var d = try FaultDesk()
        let folder = d.root + "/calendars"
        d.calendar = folder + "/cal.ics"
        let message = D.invitation("nodir@example.org")
        let run = try d.deliver(message)
        try parkedThenAnsweredOnce(d, uid: "nodir@example.org", message: message, run: run, reason: "no such file (process never creates the calendar it writes") {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            try D.writeCalendar(d.calendar)
        }
    }

    /// The calendar not writable: read-only by its mode (refused even for root), or
    /// mode 000 for nobody who owns it.
    @Test(arguments: ["0444", "000 as nobody"])
    func aCalendarNotWritable(_ how: String) throws {
        let nobody = how.hasSuffix("nobody")
        if nobody && geteuid() != 0 { print("skipped: needs root to run as nobody"); return }
        let d = try FaultDesk()
        if nobody { chown(d.calendar, 65534, 65534) }
        chmod(d.calendar, nobody ? 0 : 0o444)
        let message = D.invitation("readonly@example.org")
        let run = try d.deliver(message, asNobody: nobody)
        try parkedThenAnsweredOnce(d, uid: "readonly@example.org", message: message, run: run,
                                   reason: "is read-only", asNobody: nobody) {
            chmod(d.calendar, 0o644)
        }
    }

    /// The state unusable: random bytes, a newer coolcal's schema, a file where its
    /// directory should be, a directory nobody may write. The last two park in the fallback.
    @Test(arguments: ["random bytes", "newer schema", "a file", "read-only directory"])
    func anUnusableState(_ how: String) throws {
        let nobody = how == "read-only directory"
        if nobody && geteuid() != 0 { print("skipped: needs root to run as nobody"); return }
        let d = try FaultDesk()
        let db = d.state + "/state.db"
        var reason = ""
        switch how {
        case "random bytes":
            try FileManager.default.createDirectory(atPath: d.state, withIntermediateDirectories: true)
            try Data((0..<8192).map { _ in UInt8.random(in: 0...255) }).write(to: URL(fileURLWithPath: db))
            reason = "state.db"
        case "newer schema":
            #expect(try d.deliver(D.invitation("first@example.org", start: "20310317T100000Z")).status == 0)
            let sql = try Spawn.run([], env: [:], shell: "/usr/bin/sqlite3 '\(db)' 'PRAGMA user_version = 999'")
            #expect(sql.status == 0, "\(sql.stderr)")
            reason = "newer coolcal"
        case "a file":
            try Data("not a directory\n".utf8).write(to: URL(fileURLWithPath: d.state))
            reason = d.state
        default:
            try FileManager.default.createDirectory(atPath: d.state, withIntermediateDirectories: true)
            chmod(d.state, 0o755)
            chown(d.calendar, 65534, 65534)
            reason = d.state
        }
        let uid = "state-\(how.replacingOccurrences(of: " ", with: "-"))@example.org"
        let message = D.invitation(uid)
        let run = try d.deliver(message, asNobody: nobody)
        let inFallback = how == "a file" || nobody
        try parkedThenAnsweredOnce(d, uid: uid, message: message, run: run, reason: reason, inFallback: inFallback, asNobody: nobody) {
            switch how {
            case "a file": unlink(d.state)
            case "read-only directory": chown(d.state, 65534, 65534)
            default: for file in [db, db + "-wal", db + "-shm"] { unlink(file) }
            }
        }
    }

    /// The state's disk full at delivery, a transient fault: 75 and parked in the fallback
    /// on another file system; with the fallback on the same full disk, 75 and `not parked:
    /// REASON` (the MTA's redelivery is then the safety net). Once the disk has room, the
    /// MTA's copies delivered again are answered once each, and the parked copy goes.
    @Test func theStatesDiskFull() throws {
        var d = try FaultDesk()
        guard let disk = FaultInjection.smallDisk(in: d.root) else {
            print("skipped: cannot mount a tmpfs here (needs root with CAP_SYS_ADMIN)")
            return
        }
        defer { FaultInjection.unmount(disk) }
        d.state = disk + "/state"
        let args: [String] = []
        let first = try d.deliver(D.invitation("made@example.org", start: "20310317T100000Z"), extra: args)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        FaultInjection.fill(disk)
        let parkedMessage = D.invitation("full-parked@example.org")
        let parked = try d.deliver(parkedMessage, extra: args)
        #expect(parked.status == 75 && parked.stdout.hasPrefix("error (") && parked.stdout.hasSuffix("; parked: the next run answers it)\n"),
                "\(parked.stdout)\(parked.stderr)")
        #expect(d.parked(fallback: true).count == 1, "not parked in the fallback")
        if let name = d.parked(fallback: true).first { #expect(d.mode(name, fallback: true) == 0o600) }
        let lostMessage = D.invitation("full-lost@example.org", start: "20310324T100000Z")
        let lost = try d.deliver(lostMessage, extra: args, env: ["XDG_STATE_HOME": disk + "/xdg-state"])
        #expect(lost.status == 75 && lost.stderr.contains("coolcal: process: not parked: ") && lost.stderr.contains("No space left on device"),
                "\(lost.stdout)\(lost.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: disk + "/xdg-state/coolcal/parked/new")) ?? []).isEmpty)
        FaultInjection.free(disk)
        // The MTA delivers both again (procmail, maildrop): each answered once, the parked copy with its redelivery.
        for (message, uid) in [(parkedMessage, "full-parked@example.org"), (lostMessage, "full-lost@example.org")] {
            let again = try d.deliver(message, extra: args)
            #expect(again.status == 0 && again.stdout == "added (accepted)\n", "\(again.stdout)\(again.stderr)")
            #expect(try d.count(uid) == 1)
        }
        #expect(d.parked(fallback: true).isEmpty, "the parked copy stayed")
    }

    /// What `process` parked in the fallback (the state's path a file) is answered by the
    /// next `merge` too, once the state is fixed, and the parked copy goes.
    @Test func mergeDrainsTheFallback() throws {
        let d = try FaultDesk()
        try Data("a file\n".utf8).write(to: URL(fileURLWithPath: d.state))
        let run = try d.deliver(D.invitation("fallback@example.org"))
        #expect(run.status == 0 && d.parked(fallback: true).count == 1, "\(run.stdout)\(run.stderr)")
        unlink(d.state)
        let spool = d.root + "/spool"
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
        let merge = try Binary.run(["merge", "--me", OrganizerBindingTests.me, "--state", d.state, "--spool", spool, d.calendar],
                                   env: ["HOME": d.root, "XDG_STATE_HOME": d.xdgState])
        #expect(merge.status == 0 && merge.stdout.contains("accepted"), "\(merge.stdout)\(merge.stderr)")
        #expect(try d.count("fallback@example.org") == 1 && d.parked(fallback: true).isEmpty)
    }
}
