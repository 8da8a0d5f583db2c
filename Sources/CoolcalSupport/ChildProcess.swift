import Foundation
import Glibc

/// A program run without a shell, in a process group of its own, `input` on its
/// standard input and its standard output and error read together. Waited for with
/// `waitpid` on its own pid: a process it leaves behind (`( sleep 60 ) &`) neither keeps
/// it "running" nor holds the caller, whose wait for its output ends when what is left
/// of the run's `outputGrace` is spent. At `timeout` its whole process group is killed. (Foundation's
/// `Process` waits until every process that inherited its descriptors is gone.)
package enum ChildProcess {
    package struct Finished: Sendable {
        /// Its exit status; nil when a signal ended it.
        package var status: Int32?
        package var signal: Int32?
        /// What it wrote, as far as it was read.
        package var output: Data
        /// Killed at the timeout.
        package var timedOut: Bool
    }

    package static func run(_ executable: String, arguments: [String], environment: [String: String], input: Data,
                            timeout: TimeInterval, outputGrace: OutputGrace) throws(Errno) -> Finished {
        var inPipe: [Int32] = [-1, -1], outPipe: [Int32] = [-1, -1]
        guard pipe(&inPipe) == 0 else { throw Errno.current }
        guard pipe(&outPipe) == 0 else {
            let failure = Errno.current
            inPipe.forEach { _ = Glibc.close($0) }
            throw failure
        }
        // Not inherited by the program (it gets its ends as 0, 1 and 2) nor by any other.
        for fd in inPipe + outPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let pid: pid_t
        do throws(Errno) {
            pid = try spawn(executable, arguments, environment, stdin: inPipe[0], stdout: outPipe[1])
        } catch {
            (inPipe + outPipe).forEach { _ = Glibc.close($0) }
            throw error
        }
        _ = Glibc.close(inPipe[0])
        _ = Glibc.close(outPipe[1])
        // Its output is read while the input is written: a chatty program must not block.
        let output = OutputBox()
        let reader = Thread { [fd = outPipe[0]] in
            var data = Data()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = buffer.withUnsafeMutableBytes { raw in (try? SystemCalls.read(fd, into: raw)) ?? 0 }
                if n <= 0 { break }
                if data.count < 1 << 20 { data.append(contentsOf: buffer[0..<n]) }
            }
            _ = Glibc.close(fd)
            output.set(data)
        }
        reader.start()
        let killed = Flag()
        // SIGKILL to the whole group: a program may block SIGTERM, and what it started goes too.
        let timer = DispatchWorkItem { killed.set(); kill(-pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
        input.withUnsafeBytes { ChildProcess.writeWithoutSIGPIPE(inPipe[1], $0) }
        _ = Glibc.close(inPipe[1])
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        timer.cancel()
        let exited = raw & 0x7F == 0
        return Finished(status: exited ? (raw >> 8) & 0xFF : nil, signal: exited ? nil : raw & 0x7F,
                        output: outputGrace.wait { output.wait(upTo: $0) } ?? Data(), timedOut: killed.isSet)
    }

    /// `posix_spawn` of the program in a new process group, the signal mask cleared and
    /// SIGPIPE at its default, its standard input and output (and error) the given ends,
    /// no other descriptor open.
    private static func spawn(_ executable: String, _ arguments: [String], _ environment: [String: String],
                              stdin: Int32, stdout: Int32) throws(Errno) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stdout, 2)
        // Nothing else of coolcal's: a lock's descriptor held by a process the program
        // leaves behind would hold the lock (and one its own caller watches would hold it).
        closeOnExec(from: 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw Errno(rawValue: rc) }
        return pid
    }

    /// Marks every open descriptor from `first` on close-on-exec (glibc's `closefrom`
    /// action is not exported to Swift).
    package static func closeOnExec(from first: Int32) {
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap(Int32.init) where fd >= first {
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 && flags & FD_CLOEXEC == 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    /// Writes all of `bytes`, stopping at the first error. SIGPIPE is blocked for this
    /// thread meanwhile and a pending one consumed before the mask is restored: in a
    /// process that does not ignore it (a test runner, a host app) a program that
    /// closes its input early must not kill the caller.
    package static func writeWithoutSIGPIPE(_ fd: Int32, _ raw: UnsafeRawBufferPointer) {
        guard let base = raw.baseAddress else { return }
        withoutSIGPIPE {
            var offset = 0
            while offset < raw.count {
                // EINTR is retried inside; any other error, or nothing written, stops.
                guard let n = try? SystemCalls.write(fd, UnsafeRawBufferPointer(start: base + offset, count: raw.count - offset)),
                      n > 0 else { return }
                offset += n
            }
        }
    }

    /// Runs `body` with SIGPIPE blocked for this thread, a pending one consumed before the
    /// mask is restored (see `writeWithoutSIGPIPE`).
    package static func withoutSIGPIPE<T>(_ body: () -> T) -> T {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 && sigismember(&previous, SIGPIPE) != 1 {
                var now = timespec()
                _ = sigtimedwait(&pipeSignal, nil, &now)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        return body()
    }
}

/// What the reading thread hands to the waiting one.
private final class OutputBox: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var data = Data()

    func set(_ value: Data) {
        lock.withLock { data = value }
        done.signal()
    }

    /// The output, once its end was read within `seconds`; nil when it was not.
    func wait(upTo seconds: TimeInterval) -> Data? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return lock.withLock { data }
    }
}

private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
