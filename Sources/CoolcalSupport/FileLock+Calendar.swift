import Foundation

/// Locks for calendars, vdirs and the merge spool, with the errors and exit statuses
/// of a write: another holder is `WriteError.busy` (75).
extension FileLock {
    /// Waits up to `timeout` seconds; `WriteError.busy` when another holder keeps it.
    /// A calendar's lock is 0644 (beside the calendar); one in the state directory
    /// (`inState`) is 0600 like the rest of the state, an existing one made so.
    public convenience init(path: String, inState: Bool = false, timeout: TimeInterval) throws {
        do throws(FileLock.Failure) {
            try self.init(exclusive: path, permissions: inState ? 0o600 : 0o644, enforcing: inState, timeout: timeout)
        } catch .wouldBlock {
            throw WriteError(kind: .busy, path: path,
                             message: "locked by another coolcal for more than \(String(format: "%g", timeout)) s; try again later")
        } catch .cannotOpen(let error) {
            throw WriteError.errno(error, path: path, doing: "cannot open lock file")
        } catch .cannotLock(let error) {
            throw WriteError.errno(error, path: path, doing: "cannot lock")
        }
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
