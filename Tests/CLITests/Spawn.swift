import Foundation

/// Runs the built binary with its standard input from a file (a device node, a FIFO),
/// measuring the CPU time it used (`wait4`'s rusage), under a CPU limit
/// (`RLIMIT_CPU`, through `prlimit`) and a generous wall-clock watchdog that only
/// catches a hang (it kills, and the run says so).
struct Spawned {
    var status: Int32
    var stdout: String
    var stderr: String
    /// User + system CPU seconds of the child.
    var cpuSeconds: Double
    /// The watchdog had to kill it.
    var hung: Bool
}

enum Spawn {
    /// `coolcal args` (or, with `asNobody`, the same through `setpriv` as uid/gid 65534;
    /// with `shell`, `bash -c SHELL coolcal args...`).
    static func run(_ args: [String], stdin: String = "/dev/null", env extra: [String: String] = [:],
                    asNobody: Bool = false, shell: String? = nil, cpuLimit: Int = 20, watchdog: TimeInterval = 30) throws -> Spawned {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-spawn-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var argv = ["/usr/bin/prlimit", "--cpu=\(cpuLimit)"]
        if asNobody { argv += ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] }
        if let shell { argv += ["/bin/bash", "-c", shell] }
        argv += [Binary.path] + args
        var env = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "en_US.UTF-8", "XDG_CONFIG_HOME": "/nonexistent"]
        env.merge(extra) { $1 }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // O_NONBLOCK only for the open: a FIFO with no writer would block the test itself.
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY | O_NONBLOCK, 0)
        posix_spawn_file_actions_addopen(&actions, 1, dir + "/out", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, dir + "/err", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        SpawnCloseFrom.add(&actions)
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in cArgs + cEnv { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArgs, cEnv)
        guard spawned == 0 else { throw CocoaError(.executableLoad) }
        let deadline = Date().addingTimeInterval(watchdog)
        var status: Int32 = 0
        var usage = rusage()
        var hung = false
        while true {
            let done = wait4(pid, &status, WNOHANG, &usage)
            if done == pid { break }
            if done < 0 && errno != EINTR { throw CocoaError(.executableLoad) }
            if Date() > deadline && !hung {
                hung = true
                kill(pid, SIGKILL)
            }
            usleep(5_000)
        }
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        // Exit status, or 128 + the signal, as a shell reports it.
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let out = (try? String(contentsOfFile: dir + "/out", encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: dir + "/err", encoding: .utf8)) ?? ""
        return Spawned(status: code, stdout: out, stderr: err, cpuSeconds: cpu, hung: hung)
    }

    /// A fresh directory, world-writable when `open` (for runs as nobody).
    static func directory(open: Bool = false) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-special-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        if open { chmod(dir, 0o777) }
        return dir
    }

    /// Makes a character device node `major:minor` at `path`; nil, or the reason it cannot.
    static func mknodCharacter(_ path: String, major: UInt32, minor: UInt32) -> String? {
        if mknod(path, S_IFCHR | 0o666, dev_t((major << 8) | minor)) == 0 { return nil }
        return "mknod \(path) c \(major) \(minor) is not allowed here: \(String(cString: strerror(errno)))"
    }

    static func mkfifo(_ path: String) throws {
        guard Glibc.mkfifo(path, 0o644) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    static func kind(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }
}

extension Spawn {
    /// Starts the built binary with `COOLCAL_TEST_PAUSE_AT=point` and returns once its
    /// hook says it paused there (or it exited first), with what it said on stderr:
    /// the kill drills kill it at that point, mid-write.
    static func pausedAt(_ point: String, _ args: [String], env: [String: String]) throws -> (process: Process, said: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Binary.path)
        p.arguments = args
        p.environment = env.merging(["COOLCAL_TEST_PAUSE_AT": point]) { $1 }
        p.standardOutput = FileHandle.nullDevice
        let err = Pipe()
        p.standardError = err
        try p.run()
        var said = ""
        while !said.contains("coolcal: test hook: paused at \(point)\n") {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }  // it exited without reaching the point
            said += String(decoding: chunk, as: UTF8.self)
        }
        return (p, said)
    }
}
