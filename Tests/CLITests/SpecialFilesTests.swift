import Foundation
import Testing

/// Inputs and targets that are not regular files, and files not coolcal's to
/// replace (hardening II, classes 1 and 4). Every run is bounded in CPU time
/// (`prlimit --cpu`); FIFO and /dev/zero runs have a 30 s watchdog that only catches a hang.
@Suite struct SpecialFilesTests {
    static let cpuBound = 10.0

    func copy(_ sample: String, to path: String) throws {
        try FileManager.default.copyItem(atPath: Binary.sample(sample), toPath: path)
    }

    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    // MARK: class 1: special files

    /// `accept` into a character device (our own node, never /dev/null): 73, the node
    /// stays a device, and no lock file appears beside it.
    @Test func acceptIntoACharacterDeviceLeavesItAndMakesNoLockFile() throws {
        let dir = try Spawn.directory()
        let node = dir + "/null"
        if let reason = Spawn.mknodCharacter(node, major: 1, minor: 3) { print("skipped: \(reason)"); return }
        let run = try Spawn.run(["accept", Binary.sample("invite.json"), node], env: ["COOLCAL_STATE": dir + "/state"])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("not a regular file (a character device)"), "\(run.stderr)")
        #expect(Spawn.kind(node) == S_IFCHR, "the device node was replaced")
        #expect(Spawn.kind(dir + "/.null.coolcal-lock") == nil, "a lock file was made beside the device")
        #expect(!run.hung && run.cpuSeconds < Self.cpuBound)
    }

    /// Our own /dev/zero as a calendar (streamed and whole), as an invitation and on
    /// standard input: refused at once (66, "not a regular file"), not read until memory runs out.
    @Test func anEndlessDeviceIsRefusedAsCalendarInvitationAndStdin() throws {
        let dir = try Spawn.directory()
        let zero = dir + "/zero.ics"
        if let reason = Spawn.mknodCharacter(zero, major: 1, minor: 5) { print("skipped: \(reason)"); return }
        let cal = dir + "/work.ics"
        try copy("work.ics", to: cal)
        let runs = [
            try Spawn.run(["conflicts", Binary.sample("invite.json"), zero]),
            try Spawn.run(["events", "--from", "2022-08-20", "--to", "2022-08-21", zero]),
            try Spawn.run(["conflicts", zero, cal]),
            try Spawn.run(["conflicts", "-", cal], stdin: zero),
            try Spawn.run(["notify", "-"], stdin: zero, env: ["COOLCAL_STATE": dir + "/state"]),
        ]
        for run in runs {
            #expect(run.status == 66, "\(run.stderr)")
            #expect(run.stderr.contains("not a regular file (a character device)"), "\(run.stderr)")
            #expect(!run.hung && run.cpuSeconds < Self.cpuBound, "cpu \(run.cpuSeconds) s")
        }
        #expect(runs[3].stderr.hasPrefix("coolcal: error: <stdin>: "))
        // Accepting into it: 73 (a target, not an input), the node untouched.
        let accept = try Spawn.run(["accept", Binary.sample("invite.json"), zero], env: ["COOLCAL_STATE": dir + "/state"])
        #expect(accept.status == 73 && Spawn.kind(zero) == S_IFCHR, "\(accept.stderr)")
    }

    /// A FIFO nobody writes to, as a calendar (66 at once), as an invitation (66 when
    /// COOLCAL_INPUT_TIMEOUT runs out) and as the target of accept (73, left a FIFO).
    @Test func aFIFOWithoutAWriterIsAnsweredNotHung() throws {
        let dir = try Spawn.directory()
        let fifo = dir + "/pipe.ics"
        try Spawn.mkfifo(fifo)
        let cal = dir + "/work.ics"
        try copy("work.ics", to: cal)
        let asCalendar = try Spawn.run(["conflicts", Binary.sample("invite.json"), fifo])
        #expect(asCalendar.status == 66 && asCalendar.stderr.contains("not a regular file (a FIFO)"), "\(asCalendar.stderr)")
        let started = Date()
        let asInvite = try Spawn.run(["conflicts", fifo, cal], env: ["COOLCAL_INPUT_TIMEOUT": "1"])
        #expect(asInvite.status == 66, "\(asInvite.stderr)")
        #expect(asInvite.stderr.contains("a FIFO that did not end within 1 s (COOLCAL_INPUT_TIMEOUT)"), "\(asInvite.stderr)")
        #expect(Date().timeIntervalSince(started) < 25, "the deadline did not stop the wait")
        let accept = try Spawn.run(["accept", Binary.sample("invite.json"), fifo], env: ["COOLCAL_STATE": dir + "/state"])
        #expect(accept.status == 73 && Spawn.kind(fifo) == S_IFIFO, "\(accept.stderr)")
        #expect(Spawn.kind(dir + "/.pipe.ics.coolcal-lock") == nil)
        for run in [asCalendar, asInvite, accept] { #expect(!run.hung && run.cpuSeconds < Self.cpuBound) }
    }

    /// Pipes still work as INVITE: a process substitution, and a FIFO whose writer comes late.
    @Test func aPipeOrAFIFOWithAWriterIsAnInvitation() throws {
        let dir = try Spawn.directory()
        let cal = dir + "/work.ics"
        try copy("work.ics", to: cal)
        let script = "exec \"$0\" conflicts <(cat \"$1\") \"$2\""
        let substituted = try Spawn.run([Binary.sample("invite.json"), cal], shell: script)
        #expect(substituted.status == 1 && substituted.stdout.contains("Busy: "), "\(substituted.stderr)")
        let fifo = dir + "/invite.fifo"
        try Spawn.mkfifo(fifo)
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "sleep 1; cat \"$0\" > \"$1\"", Binary.sample("invite.json"), fifo]
        try writer.run()
        let late = try Spawn.run(["conflicts", fifo, cal], env: ["COOLCAL_INPUT_TIMEOUT": "20"])
        writer.waitUntilExit()
        #expect(late.status == 1 && late.stdout.contains("Family Reunion"), "\(late.stderr)")
    }

    /// A vdir with a FIFO and a subdirectory named `*.ics`: both skipped (with a -v note), the rest read.
    @Test func aVdirSkipsFIFOsAndSubdirectories() throws {
        let dir = try Spawn.directory()
        let vdir = dir + "/cal"
        try FileManager.default.copyItem(atPath: Binary.sample("vdir"), toPath: vdir)
        let plain = try Spawn.run(["conflicts", "--json", Binary.sample("invite.json"), vdir])
        try FileManager.default.createDirectory(atPath: vdir + "/x.ics", withIntermediateDirectories: false)
        try Spawn.mkfifo(vdir + "/y.ics")
        let run = try Spawn.run(["conflicts", "-v", "--json", Binary.sample("invite.json"), vdir])
        #expect(run.status == plain.status && run.stdout == plain.stdout, "\(run.stderr)")
        #expect(run.stderr.contains("\(vdir)/x.ics: skipped: not a regular file (a directory)"), "\(run.stderr)")
        #expect(run.stderr.contains("\(vdir)/y.ics: skipped: not a regular file (a FIFO)"), "\(run.stderr)")
        #expect(!run.hung && run.cpuSeconds < Self.cpuBound)
        // accept into that vdir is not blocked by them either.
        let accept = try Spawn.run(["accept", Binary.sample("invite.json"), vdir], env: ["COOLCAL_STATE": dir + "/state"])
        #expect(accept.status == 0 && !accept.hung, "\(accept.stderr)")
        #expect(Spawn.kind(vdir + "/y.ics") == S_IFIFO && Spawn.kind(vdir + "/x.ics") == S_IFDIR)
    }

    /// A FIFO in the merge spool: skipped and left in place, the invitation beside it answered.
    @Test func mergeMovesOnPastAFIFOInTheSpool() throws {
        let dir = try Spawn.directory()
        let spool = dir + "/spool", cal = dir + "/work.ics"
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: false)
        try copy("work.ics", to: cal)
        try Spawn.mkfifo(spool + "/a-stuck.json")
        try copy("invite-free.json", to: spool + "/b-dentist.json")
        let run = try Spawn.run(["merge", "-v", "--me", "me@example.com", "--spool", spool, cal], env: ["COOLCAL_STATE": dir + "/state"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("accepted  b-dentist.json"), "\(run.stdout)")
        #expect(run.stderr.contains("a-stuck.json: skipped: not a regular file (a FIFO)"), "\(run.stderr)")
        #expect(Spawn.kind(spool + "/a-stuck.json") == S_IFIFO, "the FIFO was moved or replaced")
        #expect(FileManager.default.fileExists(atPath: spool + "/done/b-dentist.json"))
        #expect(!run.hung && run.cpuSeconds < Self.cpuBound)
    }

    // MARK: class 4: files not ours to replace

    /// A 0444 calendar is not replaced, even by root (these tests run as root): 73, bytes and mode unchanged.
    @Test func aReadOnlyCalendarIsNotReplaced() throws {
        let dir = try Spawn.directory()
        let cal = dir + "/work.ics"
        try copy("work.ics", to: cal)
        chmod(cal, 0o444)
        let before = try bytes(cal)
        let run = try Spawn.run(["accept", Binary.sample("invite.json"), cal], env: ["COOLCAL_STATE": dir + "/state"])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("is read-only (mode 444); not modified"), "\(run.stderr)")
        #expect(try bytes(cal) == before)
        #expect((try FileManager.default.attributesOfItem(atPath: cal)[.posixPermissions] as? Int) == 0o444)
        // The same file with its write bit is accepted into: the refusal is the mode's.
        chmod(cal, 0o644)
        #expect(try Spawn.run(["accept", Binary.sample("invite.json"), cal], env: ["COOLCAL_STATE": dir + "/state"]).status == 0)
    }

    /// A root-owned calendar (mode 0666) in a directory nobody may write: accept as
    /// nobody is 73 and the file keeps its owner and bytes; nobody's own file beside it is written.
    @Test func aNonRootWriterDoesNotTakeAnotherUsersFile() throws {
        guard geteuid() == 0 else { print("skipped: needs root to run as nobody"); return }
        let dir = try Spawn.directory(open: true)
        let theirs = dir + "/theirs.ics", mine = dir + "/mine.ics", invite = dir + "/invite.json"
        try copy("work.ics", to: theirs)
        try copy("work.ics", to: mine)
        try copy("invite.json", to: invite)
        chmod(theirs, 0o666)
        chmod(invite, 0o644)
        chown(mine, 65534, 65534)
        let before = try bytes(theirs)
        let env = ["COOLCAL_STATE": dir + "/state"]
        let run = try Spawn.run(["accept", invite, theirs], env: env, asNobody: true)
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("belongs to another user (uid 0)"), "\(run.stderr)")
        #expect(try bytes(theirs) == before)
        #expect((try FileManager.default.attributesOfItem(atPath: theirs)[.ownerAccountID] as? Int) == 0)
        let control = try Spawn.run(["accept", invite, mine], env: env, asNobody: true)
        #expect(control.status == 0, "nobody cannot write even its own file here: \(control.stderr)")
    }

    /// A symbolic link loop: 73 naming it, both links stay links.
    @Test func aSymlinkLoopIsRefusedAndStaysALink() throws {
        let dir = try Spawn.directory()
        let a = dir + "/a.ics", b = dir + "/b.ics"
        try FileManager.default.createSymbolicLink(atPath: a, withDestinationPath: "b.ics")
        try FileManager.default.createSymbolicLink(atPath: b, withDestinationPath: "a.ics")
        let run = try Spawn.run(["accept", Binary.sample("invite.json"), a], env: ["COOLCAL_STATE": dir + "/state"])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("\(a): is a symbolic link loop"), "\(run.stderr)")
        #expect(Spawn.kind(a) == S_IFLNK && Spawn.kind(b) == S_IFLNK)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: a) == "b.ics")
    }
}
