import Foundation

/// How long a run waits, in all, for the output of programs that exited while a process
/// they left behind (a daemon, `( sleep 60 ) &`) still holds it open: one grace for the
/// whole run, not one per program — 50 mails through a sendmail that leaves a grandchild
/// cost 2 s, not 100. A program whose output ends as it exits costs nothing of it.
package final class OutputGrace: @unchecked Sendable {
    private let lock = NSLock()
    private var remaining: TimeInterval
    private var cutCount = 0
    private var spent: TimeInterval = 0

    package init(seconds: TimeInterval) { remaining = seconds }

    /// Runs `wait` with what is left of the grace (0 once it is spent) and takes from it
    /// the time the wait took; nil, counted, when the output had not ended by then.
    package func wait<T>(_ wait: (TimeInterval) -> T?) -> T? {
        let budget = lock.withLock { remaining }
        let start = Date()
        let result = wait(budget)
        let took = Date().timeIntervalSince(start)
        lock.withLock {
            remaining = max(0, remaining - took)
            spent += took
            if result == nil { cutCount += 1 }
        }
        return result
    }

    /// How many outputs were not read to their end (a process left behind held them).
    package var cut: Int { lock.withLock { cutCount } }

    /// The seconds waited in all.
    package var waited: TimeInterval { lock.withLock { spent } }
}
