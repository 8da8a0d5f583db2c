import Foundation
import Dispatch

/// `process --deadline`: a mail server waits a bounded time for its filter (Dovecot's
/// Sieve 10 s), so the run is cut at the deadline wherever it is — a calendar locked by
/// someone else, a state database busy, a stalled server — and then `expire` runs (it
/// parks the message and says so) and the process exits 75. Whoever finishes first wins:
/// the run's own last words are said under the same lock, so the two never mix.
final class ProcessDeadline: @unchecked Sendable {
    private let lock = NSLock()
    private var settled = false
    private var timer: DispatchSourceTimer?

    /// Starts the clock; `expire` runs on another thread if the run is not done by then.
    init(seconds: Double, expire: @escaping @Sendable () -> Void) {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        timer.schedule(deadline: .now() + seconds)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            self.lock.lock()
            guard !self.settled else { self.lock.unlock(); return }
            self.settled = true
            expire()
            _exit(75)
        }
        self.timer = timer
        timer.resume()
    }

    /// Runs the run's last words unless the deadline came first (then the process is
    /// about to exit 75, and this never returns).
    func finish<T>(_ words: () throws -> T) rethrows -> T {
        lock.lock()
        if settled {
            lock.unlock()
            while true { pause() }
        }
        settled = true
        timer?.cancel()
        defer { lock.unlock() }
        return try words()
    }
}
