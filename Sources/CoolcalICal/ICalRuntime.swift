internal import CLibical
import Glibc
import CoolcalSupport
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
                state.saved = (try? SystemCalls.dup(STDERR_FILENO)) ?? -1
                let null = (try? SystemCalls.open("/dev/null", O_WRONLY | O_CLOEXEC)) ?? -1
                if state.saved >= 0 && null >= 0 { try? SystemCalls.dup2(null, STDERR_FILENO) }
                if null >= 0 { try? SystemCalls.close(null, path: "/dev/null") }
            }
            state.depth += 1
        }
        defer {
            quiet.withLock { state in
                state.depth -= 1
                if state.depth == 0 && state.saved >= 0 {
                    try? SystemCalls.dup2(state.saved, STDERR_FILENO)
                    try? SystemCalls.close(state.saved)
                    state.saved = -1
                }
            }
        }
        return body()
    }
}
