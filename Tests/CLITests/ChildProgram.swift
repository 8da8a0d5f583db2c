import Foundation

/// A program the tests start in the background and wait for: ReviewTerminalTests' tmux,
/// DesktopNotifyTests' bus, display and notification server (from DesktopNotifyTests,
/// where they were, when the slow tier took it to CLISlowTests, #47).
enum ChildProgram {
    /// posix_spawn with stdout to a file, stdin and stderr /dev/null, no signal
    /// blocked (a blocked SIGTERM would outlive the test).
    static func start(_ argv: [String], stdout: String, env: [String: String] = [:]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        SpawnCloseFrom.add(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"].merging(env) { $1 }
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in cArgs + cEnv { free(p) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, argv[0], &actions, &attributes, cArgs, cEnv) == 0 else { throw CocoaError(.executableLoad) }
        return pid
    }

    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    static func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
}
