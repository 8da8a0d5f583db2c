internal import CLibical
import Glibc
import Synchronization

/// One-time libical set-up: errors must never abort the process.
package enum ICalRuntime {
    private static let configured: Bool = {
        icalerror_set_errors_are_fatal(0)
        return true
    }()

    package static func ensureConfigured() {
        _ = configured
    }

    /// How many threads are inside `withQuietStderr`, and the real stderr meanwhile.
    private static let quiet = Mutex<(depth: Int, saved: Int32)>((0, -1))

    /// Runs `body` with file descriptor 2 pointing at /dev/null. Nested and concurrent
    /// callers share one redirection: the first one in makes it, the last one out undoes it.
    package static func withQuietStderr<T>(_ body: () -> T) -> T {
        quiet.withLock { state in
            if state.depth == 0 {
                state.saved = dup(STDERR_FILENO)
                let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
                if state.saved >= 0 && null >= 0 { dup2(null, STDERR_FILENO) }
                if null >= 0 { close(null) }
            }
            state.depth += 1
        }
        defer {
            quiet.withLock { state in
                state.depth -= 1
                if state.depth == 0 && state.saved >= 0 {
                    dup2(state.saved, STDERR_FILENO)
                    close(state.saved)
                    state.saved = -1
                }
            }
        }
        return body()
    }
}
