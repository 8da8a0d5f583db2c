import Foundation

/// An exclusive `flock` on a lock file, held until `unlock()` or deinit. The lock
/// file is opened without following symlinks and never deleted (deleting lock
/// files reintroduces the race they prevent).
public final class FileLock {
    private var fd: Int32

    /// Waits up to `timeout` seconds; `WriteError.busy` when another holder keeps it.
    public init(path: String, timeout: TimeInterval) throws {
        fd = open(path, O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        if fd < 0 {
            throw WriteError.errno(.current, path: path, doing: "cannot open lock file")
        }
        let deadline = Date().addingTimeInterval(timeout)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                // -1 first: deinit runs after a throw from init and must not close the
                // number again (another thread may own it by then).
                close(fd)
                fd = -1
                throw WriteError.errno(Errno(rawValue: code), path: path, doing: "cannot lock")
            }
            if Date() >= deadline {
                close(fd)
                fd = -1
                throw WriteError(kind: .busy, path: path,
                                 message: "locked by another coolcal for more than \(String(format: "%g", timeout)) s; try again later")
            }
            usleep(20_000)
        }
    }

    public func unlock() {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
    }

    deinit {
        unlock()
    }

    /// The lock file that guards `path`: `.NAME.coolcal-lock` in the same directory.
    public static func path(guarding path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).coolcal-lock").path
    }

    /// Seconds to wait for a lock: `COOLCAL_LOCK_TIMEOUT`, default 10.
    public static func timeout(environment: [String: String]) -> TimeInterval {
        environment["COOLCAL_LOCK_TIMEOUT"].flatMap(TimeInterval.init).map { max(0, $0) } ?? 10
    }
}
