import Foundation
import CoolcalMail
import CoolcalState
import CoolcalSupport

/// Sends what waits in a state's outbox to the server, in the order it was queued.
///
/// Only a 2xx (or a sendmail's exit 0) removes an entry, so nothing is lost; a 4xx keeps
/// it as failed with the reason; anything temporary leaves it queued for a later run. Only one drainer
/// per state directory runs at a time (a `FileLock` on `outbox.lock` beside the database), so two
/// overlapping coolcal processes never send the same entry twice.
package struct OutboxDrainer {
    /// What one `drain` did.
    package struct Summary: Equatable, Sendable {
        /// Entries the server acknowledged in this run.
        package var delivered = 0
        /// Entries the server refused (4xx) in this run; they stay in the outbox as failed.
        package var failed = 0
        /// Entries still queued after this run.
        package var queued = 0
        /// Why the run stopped before the end of the queue (server unreachable, timed
        /// out, rate-limited), credentials redacted; nil when every entry was tried.
        package var stopReason: String?
        /// True when the server answered 401 or 403: the credentials need fixing.
        package var denied = false
        /// True when another coolcal was already draining this outbox, so this run sent nothing.
        package var skipped = false
        /// Mail replies a sendmail took in this run.
        package var mailed = 0
        /// Mail replies whose sendmail failed for good in this run (kept as failed).
        package var mailFailed = 0
        /// Mail replies whose delivery a crash interrupted, sent again in this run.
        package var mailResent = 0
        /// Mail replies still queued after this run.
        package var mailQueued = 0
        /// Why mail stopped for this run (the sendmail's exit 75 and message).
        package var mailStopReason: String?

        /// All zero: nothing happened yet.
        package init() {}
    }

    /// The state whose outbox is sent.
    package let store: StateStore
    /// The server connection, with its timeouts; nil when no server is configured
    /// (server entries then wait).
    package let client: RSVPClient?
    /// The sendmail that delivers mail replies; nil leaves them queued.
    package var sendmail: Sendmail?

    /// - Parameters: see `RSVPClient` for the timeouts.
    package init(store: StateStore, server: URL, requestTimeout: TimeInterval = 5, resourceTimeout: TimeInterval = 15) {
        self.init(store: store, client: RSVPClient(server: server, requestTimeout: requestTimeout,
                                                   resourceTimeout: resourceTimeout))
    }

    /// A drainer with a client set up by the caller (tests use short timeouts), or
    /// none (mail only); `sendmail` delivers the mail replies.
    package init(store: StateStore, client: RSVPClient?, sendmail: Sendmail? = nil) {
        self.store = store
        self.client = client
        self.sendmail = sendmail
    }

    /// The lock file that keeps drainers of one state directory from overlapping.
    package var lockPath: String { store.directory + "/outbox.lock" }

    /// Sends every queued entry once.
    ///
    /// When the server cannot be reached (no HTTP answer, or 408/425/429), the run
    /// stops: every further request would wait out the same timeout. A 5xx is about
    /// one request, so the run goes on, but skips later entries for the same
    /// invitation, which must not overtake it (a decline must not arrive before the
    /// accept it replaces).
    /// - Parameters:
    ///   - lockTimeout: how long to wait for another drainer; 0 (cron) skips at once.
    ///   - now: the time of this run, for the mail replies' backoff.
    ///   - backoff: false sends mail replies waiting for their next attempt too (the
    ///     user asked: `outbox flush`, `reply --send`).
    /// - Throws: `SQLiteError`/`StateError` when the state cannot be read or updated.
    package func drain(lockTimeout: TimeInterval = 0, now: Date = Date(), backoff: Bool = true) throws -> Summary {
        var summary = Summary()
        let lock: FileLock
        do throws(FileLock.Failure) {
            lock = try FileLock(exclusive: lockPath, permissions: 0o600, timeout: lockTimeout)
        } catch .wouldBlock {
            summary.skipped = true
            return try summary.withQueued(from: store)
        } catch .cannotOpen(let error) {
            throw StateError(kind: .cannotCreate, path: lockPath, message: "cannot open the outbox lock: \(error)")
        } catch .cannotLock(let error) {
            throw StateError(kind: .io, path: lockPath, message: "cannot lock the outbox: \(error)")
        }
        // Held until the last entry is settled; released (also on a throw) on the way out.
        defer { lock.unlock() }

        // Read under the lock: entries another drainer delivered meanwhile are gone, and
        // one still `sending` was left so by a crash (a live drainer would hold the lock).
        let queue = try store.outbox.entries().filter { $0.state != .failed }
        var heldBack = Set<String>()
        var serverStopped = false
        for entry in queue {
            if entry.channel == .mail {
                try deliverMail(entry, now: now, backoff: backoff, &summary)
                continue
            }
            guard let client, !serverStopped else { continue }
            if heldBack.contains(entry.inviteID) { continue }
            switch client.send(entry) {
            case .delivered:
                try store.outbox.markDelivered(entry.key)
                summary.delivered += 1
            case .refused(let status, let reason):
                try store.outbox.markFailed(entry.key, reason: reason)
                summary.failed += 1
                if status == 401 || status == 403 { summary.denied = true }
            case .retryLater(let status, let reason):
                try store.outbox.recordAttempt(entry.key, error: reason)
                if status == nil || status == 408 || status == 425 || status == 429 {
                    summary.stopReason = reason
                    serverStopped = true
                    continue
                }
                heldBack.insert(entry.inviteID)
            }
        }
        return try summary.withQueued(from: store)
    }

    /// One mail reply through the sendmail, marked `sending` first: taken (leaves the
    /// outbox, remembered as sent); a temporary failure (stays queued until its next
    /// attempt, 5 minutes doubling to an hour, for 72 hours; no more mail this run); any
    /// other failure (kept as failed, never retried by itself).
    private func deliverMail(_ entry: OutboxEntry, now: Date, backoff: Bool, _ summary: inout Summary) throws {
        guard let sendmail, summary.mailStopReason == nil else { return }
        if backoff, entry.state == .queued, let next = entry.nextAttemptAt, next > now { return }
        if entry.state == .sending { summary.mailResent += 1 }
        try store.outbox.markSending(entry.key)
        switch sendmail.send(entry.body) {
        case .sent:
            try store.outbox.markDelivered(entry.key)
            summary.mailed += 1
        case .retryLater(let reason):
            summary.mailStopReason = reason
            if now.timeIntervalSince(entry.retryingSince ?? now) >= Self.retryWindow {
                try store.outbox.markFailed(entry.key, reason: reason + "; still failing after \(Int(Self.retryWindow / 3600)) hours")
                summary.mailFailed += 1
            } else {
                try store.outbox.recordAttempt(entry.key, error: reason, next: now + Self.delay(afterAttempts: entry.attempts), now: now)
            }
        case .failed(let reason):
            try store.outbox.markFailed(entry.key, reason: reason)
            summary.mailFailed += 1
        }
    }

    /// How long mail replies are retried after their first temporary failure.
    package static let retryWindow: TimeInterval = 72 * 3600

    /// The wait before the next attempt of a mail reply `attempts` attempts old:
    /// 5 minutes × 2ⁿ, at most an hour.
    package static func delay(afterAttempts attempts: Int) -> TimeInterval {
        min(300 * Double(1 << min(max(attempts, 0), 10)), 3600)
    }
}

extension OutboxDrainer.Summary {
    /// The summary with `queued` counted from the outbox itself, which also covers
    /// entries another coolcal queued while this run was sending.
    fileprivate func withQueued(from store: StateStore) throws -> Self {
        var copy = self
        let queued = try store.outbox.entries().filter { $0.state != .failed }
        copy.queued = queued.filter { $0.channel == .server }.count
        copy.mailQueued = queued.filter { $0.channel == .mail }.count
        return copy
    }
}
