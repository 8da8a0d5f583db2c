import Foundation

/// Faults made for real, for the tests of issue #45: a small file system (tmpfs) that
/// the test fills (a full disk), and a run that coolcal's test hook holds right after
/// its calendar write while the test breaks the state (`COOLCAL_TEST_PAUSE_AT`,
/// `COOLCAL_TEST_RESUME`: inert unless set, never documented for users).
enum FaultInjection {
    /// A tmpfs of `size` mounted at a fresh directory under `root`; nil (the test then
    /// skips, saying so) when mounting is not permitted (not root, or a container
    /// without CAP_SYS_ADMIN).
    static func smallDisk(in root: String, size: String = "2m") -> String? {
        let path = root + "/disk"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard command(["/bin/mount", "-t", "tmpfs", "-o", "size=\(size),mode=0777", "tmpfs", path]) == 0 else { return nil }
        return path
    }

    /// Fills the file system of `disk` to the last block (4 KiB writes until ENOSPC).
    static func fill(_ disk: String) {
        _ = command(["/bin/dd", "if=/dev/zero", "of=\(disk)/filler", "bs=4k"])
    }

    /// Frees what `fill` took.
    static func free(_ disk: String) { unlink(disk + "/filler") }

    static func unmount(_ disk: String) { _ = command(["/bin/umount", "-l", disk]) }

    /// Runs coolcal held at `point` by the test hook; as soon as `written()` says the
    /// calendar holds the write, `fault()` breaks the state, and the run goes on.
    /// Returns the run, and whether the fault was made while coolcal was held
    /// (its stderr says it paused there: the fault landed after the write, before the record).
    static func breaking(_ args: [String], at point: String, stdin: String? = nil, env: [String: String],
                         written: @escaping () -> Bool, fault: () throws -> Void) throws -> (run: Run, held: Bool) {
        let resume = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-resume-\(UUID().uuidString)").path
        defer { unlink(resume) }
        var hooked = env
        hooked["COOLCAL_TEST_PAUSE_AT"] = point
        hooked["COOLCAL_TEST_RESUME"] = resume
        let environment = hooked
        let finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<Run, Error> = .failure(CocoaError(.executableLoad))
        DispatchQueue.global().async {
            result = Result { try Binary.run(args, stdin: stdin, env: environment) }
            finished.signal()
        }
        // Until coolcal says it is paused at the point (`RESUME.paused`) with the write done.
        defer { unlink(resume + ".paused") }
        var waited = 0.0
        while !(FileManager.default.fileExists(atPath: resume + ".paused") && written()) && waited < 30 {
            usleep(20_000)
            waited += 0.02
        }
        try fault()
        _ = FileManager.default.createFile(atPath: resume, contents: nil)
        finished.wait()
        let run = try result.get()
        return (run, run.stderr.contains("coolcal: test hook: paused at \(point)\n"))
    }

    @discardableResult
    private static func command(_ argv: [String]) -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: argv[0])
        p.arguments = Array(argv.dropFirst())
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return -1 }
        p.waitUntilExit()
        return p.terminationStatus
    }
}

/// A sendmail that keeps what it is handed: one file of all the mails, each ended by a
/// marker line, so a test counts the mails sent.
struct CountingSendmail {
    let log: String
    let command: String

    init(in root: String) throws {
        log = root + "/mailed"
        command = root + "/sendmail"
        try Data("#!/bin/sh\ncat >> '\(log)'\necho '=== end of mail' >> '\(log)'\n".utf8).write(to: URL(fileURLWithPath: command))
        chmod(command, 0o755)
    }

    var count: Int {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").components(separatedBy: "=== end of mail\n").count - 1
    }
}
