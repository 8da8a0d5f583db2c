import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

// MARK: - Running a row

struct CorpusRun {
    var status: Int32
    var signal: Int32?
    var killed: Bool
    /// CPU time of the child (user + system, from `wait4`): unlike wall time it does
    /// not grow when other jobs share the machine.
    var cpuSeconds: Double
    var stdout: String
    var stderr: String
}

enum CorpusRunner {
    /// The bound on one row's CPU time (user + system), in seconds: twice the heaviest
    /// row in a debug build (accept into 20 MB, ~4.7 s), so the documented limits (input
    /// sizes, nesting, recurrence steps and occurrences) must keep every input within
    /// twice today's cost. CPU time does not grow with the machine's load; a release
    /// build is faster and has the same bound.
    static let cpuBound = 10.0
    /// A hang guard, in wall time: a process still running this long after its start
    /// is killed. Loose on purpose (a loaded machine slows wall time, not CPU time).
    static let killAfter = 60.0

    static func check(_ row: CorpusCase) throws {
        let root = URL(fileURLWithPath: NSTemporaryDirectory()).resolvingSymlinksInPath()
            .appendingPathComponent("coolcal-corpus-\(UUID().uuidString)")
        let dir = root.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }

        // The directory: work.ics and invite.json from samples/, the input, the state setup.
        let samples = Binary.root.appendingPathComponent("samples")
        try FileManager.default.copyItem(at: samples.appendingPathComponent("work.ics"), to: dir.appendingPathComponent("work.ics"))
        try FileManager.default.copyItem(at: samples.appendingPathComponent("invite.json"), to: dir.appendingPathComponent("invite.json"))
        let corpus = Binary.root.appendingPathComponent("Tests/Corpus")
        switch row.input {
        case .none: break
        case .corpus(let path):
            try FileManager.default.copyItem(at: corpus.appendingPathComponent(path), to: dir.appendingPathComponent(row.input.name))
        case .generated(let name, let make):
            try make().write(to: dir.appendingPathComponent(name))
        }
        let stateDir = dir.appendingPathComponent("state")
        switch row.setup {
        case .none: break
        case .stateFile(let path):
            try FileManager.default.copyItem(at: corpus.appendingPathComponent(path), to: stateDir)
        case .stateDB(let path):
            try FileManager.default.createDirectory(at: stateDir, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: corpus.appendingPathComponent(path), to: stateDir.appendingPathComponent("state.db"))
        case .stateDBDirectory:
            try FileManager.default.createDirectory(at: stateDir.appendingPathComponent("state.db"), withIntermediateDirectories: true)
        }

        let fill = { (s: String) in
            s.replacingOccurrences(of: "{dir}", with: dir.path).replacingOccurrences(of: "{file}", with: row.input.name)
        }
        let args = row.command.arguments(row.input.name).map(fill)
        let before = snapshot(dir)
        let run = try execute(args, in: dir, root: root)
        let after = snapshot(dir)
        let what = "coolcal \(args.joined(separator: " "))"

        // Crash, hang.
        #expect(run.signal == nil, "\(what): killed by signal \(run.signal ?? 0)\(run.killed ? " (after \(killAfter) s)" : "")")
        #expect(run.cpuSeconds <= cpuBound,
                "\(what): used \(String(format: "%.2f", run.cpuSeconds)) s of CPU (bound \(cpuBound) s)")
        // Status and messages.
        #expect(run.status == row.status, "\(what): exit status \(run.status), expected \(row.status); stderr: \(run.stderr.prefix(500).debugDescription)")
        // The corpus's invitations are in 2022: `accept`'s warning that every instance
        // ended (MissingCalendarTests checks it) is not what its rows are about.
        let stderr = args.first == "accept" ? run.stderr.replacingOccurrences(of: "coolcal: warning: every instance ended before now\n", with: "")
            : run.stderr
        #expect(row.stderr.matches(stderr, fill),
                "\(what): stderr \(run.stderr.prefix(1000).debugDescription), expected \(row.stderr)")
        #expect(row.stdout.matches(run.stdout, fill),
                "\(what): stdout \(run.stdout.prefix(500).debugDescription), expected \(row.stdout)")
        let stray = run.stderr.split(separator: "\n").filter {
            !($0.hasPrefix("coolcal: error: ") || $0.hasPrefix("coolcal: warning: ") || $0.hasPrefix("Usage: coolcal ")
              || $0.hasPrefix("See 'coolcal help"))
        }
        #expect(stray.isEmpty, "\(what): stderr lines not in coolcal's form: \(stray.prefix(3))")
        #expect(controls(run.stdout).isEmpty, "\(what): control characters on stdout: \(controls(run.stdout))")
        #expect(controls(run.stderr).isEmpty, "\(what): control characters on stderr: \(controls(run.stderr))")
        // Nothing modified but what the row allows.
        checkWrites(row.writes, before: before, after: after, fill: fill, what: what)
    }

    /// Runs coolcal in `dir`, output into files beside it; kills it after `killAfter` seconds.
    ///
    /// Spawned by hand, not with `Process`, to reap it with `wait4`, which gives this
    /// one child's CPU time (`getrusage(RUSAGE_CHILDREN)` would add other suites' children).
    static func execute(_ args: [String], in dir: URL, root: URL) throws -> CorpusRun {
        let environment = [
            "PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "en_US.UTF-8",
            "HOME": root.appendingPathComponent("home").path,
            "XDG_CONFIG_HOME": root.appendingPathComponent("no-config").path,
            "COOLCAL_STATE": dir.appendingPathComponent("state").path,
        ]
        let outURL = root.appendingPathComponent("stdout"), errURL = root.appendingPathComponent("stderr")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        SpawnCloseFrom.add(&actions)
        // glibc's posix_spawn_file_actions_addchdir_np is not visible to Swift: `env -C`
        // changes directory and execs coolcal in the same process.
        let argv = (["/usr/bin/env", "-C", dir.path, Binary.path] + args).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/env", &actions, nil, argv, envp)
        guard spawned == 0 else { throw CocoaError(.executableLoad, userInfo: ["errno": spawned]) }

        let start = DispatchTime.now()
        var status: Int32 = 0
        var usage = rusage()
        var killed = false
        while true {
            let reaped = wait4(pid, &status, killed ? 0 : WNOHANG, &usage)
            if reaped == pid { break }
            if reaped == -1 && errno != EINTR { throw CocoaError(.executableLoad, userInfo: ["errno": errno]) }
            if !killed && DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds > UInt64(killAfter * 1e9) {
                kill(pid, SIGKILL)
                killed = true
            } else if !killed {
                usleep(2_000)
            }
        }
        let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        // The <sys/wait.h> macros by hand: low 7 bits the signal, the next byte the exit status.
        let signal = status & 0x7F
        return CorpusRun(status: signal == 0 ? (status >> 8) & 0xFF : -1, signal: signal == 0 ? nil : signal,
                         killed: killed, cpuSeconds: cpu,
                         stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                         stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// Every file and directory under `dir` with its bytes; lock files are left out.
    static func snapshot(_ dir: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        guard let paths = FileManager.default.enumerator(atPath: dir.path) else { return result }
        for case let path as String in paths where !path.hasSuffix(".coolcal-lock") {
            let full = dir.appendingPathComponent(path).path
            result[path] = FileManager.default.isDirectory(full)
                ? Data("<directory>".utf8)
                : (FileManager.default.contents(atPath: full) ?? Data("<unreadable>".utf8))
        }
        return result
    }

    static func checkWrites(_ writes: CorpusWrites, before: [String: Data], after: [String: Data],
                            fill: (String) -> String, what: String) {
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        let inState = { (path: String) in path == "state" || path.hasPrefix("state/") }
        switch writes {
        case .nothing:
            #expect(changed.isEmpty, "\(what): modified \(changed)")
        case .state:
            #expect(changed.filter { !inState($0) }.isEmpty, "\(what): modified \(changed)")
        case .acceptedInto(let name):
            let target = fill(name)
            #expect(changed.filter { !inState($0) && $0 != target }.isEmpty, "\(what): modified \(changed)")
            guard let old = before[target], let new = after[target] else {
                Issue.record("\(what): \(target) is missing")
                return
            }
            guard old != new else { return }
            guard let block = insertedEvent(in: new) else {
                Issue.record("\(what): \(target) changed but holds no coolcal-invite VEVENT")
                return
            }
            let blank = old.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
            if !blank {
                var rest = new
                rest.removeSubrange(block)
                #expect(rest == old, "\(what): \(target) changed beyond the one added VEVENT")
            }
            let bad = new[block].filter { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D) || $0 == 0x7F }
            #expect(bad.isEmpty, "\(what): the written VEVENT holds control characters \(bad.map { String(format: "0x%02X", $0) })")
        }
    }

    /// The range of `BEGIN:VEVENT` … `END:VEVENT` and its line end around `UID:coolcal-invite-`.
    static func insertedEvent(in data: Data) -> Range<Int>? {
        guard let uid = data.range(of: Data("UID:coolcal-invite-".utf8)),
              let begin = data.range(of: Data("BEGIN:VEVENT".utf8), options: .backwards, in: data.startIndex..<uid.lowerBound),
              let end = data.range(of: Data("END:VEVENT".utf8), in: uid.upperBound..<data.endIndex) else { return nil }
        var upper = end.upperBound
        if upper < data.endIndex, data[upper] == 0x0D { upper += 1 }
        if upper < data.endIndex, data[upper] == 0x0A { upper += 1 }
        return begin.lowerBound..<upper
    }

    /// C0 controls other than line feed and tab, and DEL, as U+XXXX.
    static func controls(_ text: String) -> [String] {
        var seen: [String] = []
        for scalar in text.unicodeScalars where (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || scalar.value == 0x7F {
            let name = String(format: "U+%04X", scalar.value)
            if !seen.contains(name) { seen.append(name) }
        }
        return seen
    }
}
