import Foundation
import Glibc
import Synchronization

/// `coolcal-http`, the program that sends coolcal's HTTP requests (Foundation's URLSession
/// over libcurl), as git's remote helpers send git's: `coolcal` itself links neither,
/// and so loads 26 fewer libraries (TLS, Kerberos, LDAP, SSH…) on every start, most of
/// which never use the network. The helper is started at a run's first request and
/// kept for the next, one request at a time over two pipes (`HTTPWire`'s frames); it
/// ends at its input's end, when coolcal closes it or ends itself.
package enum HTTPHelper {
    package static let name = "coolcal-http"
    /// Seconds past a request's resource timeout before the helper is given up on and
    /// killed: its own start, and its session's moment to report.
    static let grace: TimeInterval = 5

    private static let running = Mutex<Running?>(nil)

    private struct Running: Sendable {
        var pid: pid_t
        var input: Int32
        var output: Int32
        var reader = HTTPFrameReader()
    }

    /// Where the helper is looked for: beside the running program (a build tree: both
    /// are in `.build/debug`), then in `libexec/coolcal` beside its `bin` (an install).
    package static func candidates(executable: String) -> [String] {
        let folder = (executable as NSString).deletingLastPathComponent
        let prefix = (folder as NSString).deletingLastPathComponent
        return [folder + "/" + name, prefix + "/libexec/coolcal/" + name]
    }

    /// Sends `request` through the running helper (starting it first); a reply with
    /// `helperProblem` when it could not be started or gave no well-formed answer in
    /// time (it is then killed, and the next request starts another).
    static func exchange(_ request: HTTPRequest) -> HTTPExchange.Reply {
        running.withLock { helper in
            if helper == nil {
                switch start() {
                case .running(let started): helper = started
                case .problem(let problem): return failed(problem)
                }
            }
            guard var current = helper else { return failed("\(name) did not start") }
            let deadline = ContinuousClock.now + .seconds(request.resourceTimeout + grace)
            // A helper that stopped reading fails the write, or makes it wait out the deadline.
            let sent = HTTPWire.encode(request).withUnsafeBytes { send($0, to: current.input, until: deadline) }
            let answer = sent == .frame(Data()) ? current.reader.next(from: current.output, until: deadline) : sent
            helper = current
            switch answer {
            case .frame(let fields):
                if let reply = HTTPWire.reply(fields) { return reply }
                stop(&helper)
                return failed("\(name) answered what is not a reply")
            case .timedOut:
                stop(&helper)
                var reply = HTTPExchange.Reply()
                reply.timedOut = true
                return reply
            case .ended:
                let how = stop(&helper)
                return failed("\(name) ended without an answer (\(how))")
            }
        }
    }

    /// Writes `bytes` to the helper's input (non-blocking) by `deadline`: `.frame` when
    /// all went, `.timedOut`, or `.ended` when the pipe is closed or broken.
    private static func send(_ bytes: UnsafeRawBufferPointer, to fd: Int32, until deadline: ContinuousClock.Instant)
        -> HTTPFrameReader.Next {
        guard let base = bytes.baseAddress else { return .frame(Data()) }
        var offset = 0
        while offset < bytes.count {
            // How many bytes went, or minus the errno.
            let wrote = ChildProcess.withoutSIGPIPE { () -> Int in
                do throws(SystemCallError) {
                    return try SystemCalls.write(fd, UnsafeRawBufferPointer(start: base + offset, count: bytes.count - offset))
                } catch {
                    return -Int(error.errno.rawValue)
                }
            }
            if wrote > 0 {
                offset += wrote
                continue
            }
            guard wrote == -Int(Errno.wouldBlock.rawValue) else { return .ended }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return .timedOut }
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + 1)
            guard let ready = try? SystemCalls.poll(fd, events: Int16(POLLOUT), timeout: milliseconds) else { return .ended }
            if ready == 0 { return .timedOut }
        }
        return .frame(Data())
    }

    private static func failed(_ problem: String) -> HTTPExchange.Reply {
        var reply = HTTPExchange.Reply()
        reply.helperProblem = problem
        return reply
    }

    private static func start() -> Started {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let places = candidates(executable: executable)
        guard let path = places.first(where: { access($0, X_OK) == 0 }) else {
            return .problem("\(name), coolcal's HTTP helper, is not installed (looked for \(places.joined(separator: " and ")))")
        }
        var toHelper: [Int32] = [-1, -1], fromHelper: [Int32] = [-1, -1]
        guard pipe(&toHelper) == 0 else { return .problem("cannot start \(name): \(Errno.current)") }
        guard pipe(&fromHelper) == 0 else {
            let failure = Errno.current
            toHelper.forEach { _ = Glibc.close($0) }
            return .problem("cannot start \(name): \(failure)")
        }
        // Not inherited by the helper (it gets its ends as 0 and 1) nor by any other program.
        for fd in toHelper + fromHelper { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toHelper[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromHelper[1], 1)
        // Its standard error is coolcal's; no other descriptor of coolcal's (a lock's) goes with it.
        ChildProcess.closeOnExec(from: 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = [strdup(path), nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let rc = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        _ = Glibc.close(toHelper[0])
        _ = Glibc.close(fromHelper[1])
        guard rc == 0 else {
            _ = Glibc.close(toHelper[1])
            _ = Glibc.close(fromHelper[0])
            return .problem("cannot start \(path): \(Errno(rawValue: rc))")
        }
        // Written without blocking (`send`): a helper that stops reading cannot hold coolcal.
        _ = fcntl(toHelper[1], F_SETFL, fcntl(toHelper[1], F_GETFL) | O_NONBLOCK)
        return .running(Running(pid: pid, input: toHelper[1], output: fromHelper[0]))
    }

    /// Kills and reaps the helper: how it ended, in words.
    @discardableResult
    private static func stop(_ helper: inout Running?) -> String {
        guard let current = helper else { return "not running" }
        helper = nil
        _ = Glibc.close(current.input)
        _ = Glibc.close(current.output)
        kill(current.pid, SIGKILL)
        var raw: Int32 = 0
        while waitpid(current.pid, &raw, 0) < 0 && errno == EINTR {}
        let signal = raw & 0x7F
        return signal == 0 ? "exit status \((raw >> 8) & 0xFF)" : "signal \(signal)"
    }

    private enum Started {
        case running(Running)
        /// Why it could not be started.
        case problem(String)
    }
}
