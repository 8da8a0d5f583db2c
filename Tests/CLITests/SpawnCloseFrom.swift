import Foundation

/// The descriptors a test's `posix_spawn` must not pass on: every one from 3 on. Tests run
/// in parallel in one process, and Foundation's `Data.write(to:)` opens without
/// `O_CLOEXEC`: a coolcal spawned while another test was writing its sendmail script held
/// that script open for writing for its whole run, and the other test's coolcal could not
/// execute it (`ETXTBSY`: "mail failed", twice in CI). glibc's
/// `posix_spawn_file_actions_addclosefrom_np` (2.34) closes them in the child; Swift's Glibc
/// module does not declare it, so it is looked up by name.
enum SpawnCloseFrom {
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    private static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    /// Adds to `actions`: close every descriptor from 3 on in the child. Without the glibc
    /// call, marks this process's descriptors close-on-exec instead (narrower: one opened
    /// meanwhile by another thread still goes through).
    static func add(_ actions: inout posix_spawn_file_actions_t) {
        if let addCloseFrom, addCloseFrom(&actions, 3) == 0 { return }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap(Int32.init) where fd >= 3 {
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 && flags & FD_CLOEXEC == 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
    }
}
