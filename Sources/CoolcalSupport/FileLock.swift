import Foundation
import CoolcalModel

/// An exclusive `flock` on a lock file, held until `unlock()`, deinit, or the death of
/// the process (so a crashed holder never blocks the next one). Calendars, the merge
/// spool and the RSVP outbox all lock through this one wait loop; each caller turns a
/// `Failure` into its own error (see `FileLock+Calendar.swift`, `OutboxDrainer`).
///
/// The lock file is opened with `O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC` (a FIFO planted
/// there cannot block the open) and never deleted (deleting
/// lock files reintroduces the race they prevent).
public final class FileLock {
    /// Why the lock was not taken.
    public enum Failure: StatusError, Equatable {
        /// Another holder kept it for the whole timeout.
        case wouldBlock
        /// The lock file could not be opened or created.
        case cannotOpen(SystemCallError)
        /// `flock` failed for another reason than another holder.
        case cannotLock(SystemCallError)

        /// 74 for each; its callers say it as their own error (a calendar's lock as a
        /// `WriteError`).
        public var exitStatus: ExitStatus {
            switch self {
            case .wouldBlock: return .ioError
            case .cannotOpen: return .ioError
            case .cannotLock: return .ioError
            }
        }
    }

    /// The open lock file, or -1 once released. Set only once the lock is held: a
    /// failed attempt closes its own descriptor before throwing, so `deinit` can
    /// never close that number a second time (in a threaded process it may by then
    /// belong to someone else, such as a SQLite file).
    private var descriptor: Int32
    /// The lock file.
    private let path: String

    /// Takes the lock on `path` (created with `permissions` if missing), polling with
    /// `LOCK_NB` every 20 ms for up to `timeout` seconds; 0 tries once. `enforcing`: an
    /// existing file of another mode (one an older coolcal made 0644) is given
    /// `permissions` — only then, so a lock file's ctime moves only when its mode did.
    public init(exclusive path: String, permissions: UInt32, enforcing: Bool = false, timeout: TimeInterval) throws(Failure) {
        let fd: Int32
        do throws(SystemCallError) {
            fd = try SystemCalls.open(path, O_RDONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode_t(permissions))
            if enforcing, let status = try? FileStatus(descriptor: fd, path: path), status.permissions != permissions {
                try? SystemCalls.fchmod(fd, mode_t(permissions), path: path)
            }
        } catch {
            throw .cannotOpen(error)
        }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            do throws(SystemCallError) {
                try SystemCalls.flock(fd, LOCK_EX | LOCK_NB, path: path)
                break
            } catch where error.errno == .wouldBlock && Date() < deadline {
                usleep(20_000)
            } catch {
                try? SystemCalls.close(fd, path: path)
                throw error.errno == .wouldBlock ? .wouldBlock : .cannotLock(error)
            }
        }
        descriptor = fd
        self.path = path
    }

    /// Releases the lock (closing the descriptor); a second call does nothing. A failed
    /// close released it all the same (the number is gone): nothing to report.
    public func unlock() {
        if descriptor >= 0 {
            try? SystemCalls.close(descriptor, path: path)
            descriptor = -1
        }
    }

    deinit {
        unlock()
    }
}
