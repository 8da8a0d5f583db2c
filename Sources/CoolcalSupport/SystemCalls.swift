#if canImport(Glibc)
internal import CLinux
import Glibc
#endif

/// The one place coolcal makes its file and descriptor system calls (after
/// swift-system's `Internals/Syscalls.swift`): each wrapper makes the call, retries
/// `EINTR` (never for `close`), turns -1 into a `SystemCallError` naming the call and
/// the path, and, while a test records (`recording`), notes the call in the trace.
///
/// Calls on a descriptor take the file's path for their error and the trace (`path`;
/// nil: the trace uses the path the descriptor was opened with, if it was opened
/// while recording). Left outside: terminal control (`tcsetattr`, `ioctl`), signals,
/// processes, anonymous memory, and the `write` a signal handler makes
/// (`TerminalSignals.restore`), which must not take the trace's lock.
package enum SystemCalls {
    /// Makes `body`'s call: the trace, the `EINTR` retry, the typed error.
    @inline(__always) @discardableResult
    private static func make<I: FixedWidthInteger>(_ name: String, _ path: String?, fd: Int32? = nil, target: String? = nil,
                                                   retryingInterrupts: Bool = true,
                                                   _ body: () -> I) throws(SystemCallError) -> I {
        note(name, path, fd: fd, target: target)
        do {
            return try valueOrErrno(retryOnInterrupt: retryingInterrupts, body)
        } catch {
            throw SystemCallError(call: name, path: path, errno: error)
        }
    }

    // MARK: Descriptors

    /// `open(2)`: the new descriptor.
    package static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) throws(SystemCallError) -> Int32 {
        let fd = try make("open", path) { Glibc.open(path, flags, mode) }
        remember(fd, as: path)
        return fd
    }

    /// `close(2)`, never retried: Linux has released the number even when it says
    /// `EINTR` (or anything else), so the caller must not use it again either way.
    package static func close(_ fd: Int32, path: String? = nil) throws(SystemCallError) {
        defer { remember(fd, as: nil) }
        try make("close", path, fd: fd, retryingInterrupts: false) { Glibc.close(fd) }
    }

    /// `dup(2)`.
    package static func dup(_ fd: Int32) throws(SystemCallError) -> Int32 {
        try make("dup", nil, fd: fd) { Glibc.dup(fd) }
    }

    /// `dup2(2)`: `fd` is now also `target`.
    package static func dup2(_ fd: Int32, _ target: Int32) throws(SystemCallError) {
        try make("dup2", nil, fd: fd) { Glibc.dup2(fd, target) }
    }

    /// `fcntl(2)` without an argument (`F_GETFL`...).
    package static func fcntl(_ fd: Int32, _ command: Int32, path: String? = nil) throws(SystemCallError) -> Int32 {
        try make("fcntl", path, fd: fd) { Glibc.fcntl(fd, command) }
    }

    /// `fcntl(2)` with an integer argument (`F_SETFL`...).
    @discardableResult
    package static func fcntl(_ fd: Int32, _ command: Int32, _ argument: Int32,
                              path: String? = nil) throws(SystemCallError) -> Int32 {
        try make("fcntl", path, fd: fd) { Glibc.fcntl(fd, command, argument) }
    }

    /// `poll(2)` of one descriptor for `events`: how many are ready (0: the timeout).
    package static func poll(_ fd: Int32, events: Int16, timeout milliseconds: Int32,
                             path: String? = nil) throws(SystemCallError) -> Int32 {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        return try make("poll", path, fd: fd) { Glibc.poll(&entry, 1, milliseconds) }
    }

    // MARK: Reading and writing

    /// One `read(2)` into `buffer`: how many bytes, 0 at the end. `retryingInterrupts`
    /// false hands `EINTR` to the caller (a terminal that must notice a signal).
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String? = nil,
                             retryingInterrupts: Bool = true) throws(SystemCallError) -> Int {
        try make("read", path, fd: fd, retryingInterrupts: retryingInterrupts) {
            Glibc.read(fd, buffer.baseAddress, buffer.count)
        }
    }

    /// One `pread(2)` into `buffer` from `offset`, the file offset left alone.
    package static func pread(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64,
                              path: String? = nil) throws(SystemCallError) -> Int {
        try make("pread", path, fd: fd) { Glibc.pread(fd, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// One `write(2)` of `bytes`: how many were written.
    package static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String? = nil) throws(SystemCallError) -> Int {
        try make("write", path, fd: fd) { Glibc.write(fd, bytes.baseAddress, bytes.count) }
    }

    /// All of `bytes`, in `write(2)` calls of at most `piece` bytes each.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, piece: Int = .max,
                                 path: String? = nil) throws(SystemCallError) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let n = min(bytes.count - offset, piece)
            offset += try write(fd, UnsafeRawBufferPointer(start: base + offset, count: n), path: path)
        }
    }

    /// One `copy_file_range(2)`: up to `count` bytes of `source` from `offset` appended
    /// to `target` at its file offset, in the kernel (the source's offset left alone):
    /// how many were copied, 0 at the source's end. Traced on the source's path (`path`),
    /// with the target's (`targetPath`). `copy` falls back to `pread`/`write` when the
    /// call cannot copy between these files.
    package static func copyFileRange(from source: Int32, at offset: Int64, to target: Int32, count: Int, path: String? = nil,
                                      targetPath: String? = nil) throws(SystemCallError) -> Int {
        if refusingCopyFileRange.load(ordering: .relaxed) {
            note("copy_file_range", path, fd: source, target: targetPath)
            throw SystemCallError(call: "copy_file_range", path: path, errno: Errno(rawValue: ENOSYS))
        }
        var from = offset
        return try make("copy_file_range", path, fd: source, target: targetPath) {
            CLinux.copy_file_range(source, &from, target, nil, count, 0)
        }
    }

    /// `sync_file_range(2)` with `SYNC_FILE_RANGE_WRITE`: starts writing that range of
    /// the file's dirty pages to the device and returns (no durability: `fsync` still
    /// must follow; a large file's fsync then waits for less).
    package static func startWriteback(_ fd: Int32, offset: Int, count: Int, path: String? = nil) throws(SystemCallError) {
        try make("sync_file_range", path, fd: fd) {
            CLinux.sync_file_range(fd, Int64(offset), Int64(count), coolcal_sync_file_range_write)
        }
    }

    /// `fsync(2)`.
    package static func fsync(_ fd: Int32, path: String? = nil) throws(SystemCallError) {
        try make("fsync", path, fd: fd) { Glibc.fsync(fd) }
    }

    // MARK: Names

    /// `rename(2)`: `from` replaces `to`, atomically.
    package static func rename(_ from: String, _ to: String) throws(SystemCallError) {
        try make("rename", from, target: to) { Glibc.rename(from, to) }
        TestHook.traceRename(from, to)
    }

    /// `link(2)`: `to` is a new name of `from`.
    package static func link(_ from: String, _ to: String) throws(SystemCallError) {
        try make("link", from, target: to) { Glibc.link(from, to) }
    }

    /// `unlink(2)`.
    package static func unlink(_ path: String) throws(SystemCallError) {
        try make("unlink", path) { Glibc.unlink(path) }
    }

    /// `mkdir(2)`.
    package static func mkdir(_ path: String, _ mode: mode_t) throws(SystemCallError) {
        try make("mkdir", path) { Glibc.mkdir(path, mode) }
    }

    /// `access(2)`: throws when `path` is missing or lacks `mode` (`F_OK`, `X_OK`...).
    package static func access(_ path: String, _ mode: Int32) throws(SystemCallError) {
        try make("access", path) { Glibc.access(path, mode) }
    }

    /// `realpath(3)`: `path` with every symbolic link, `.` and `..` resolved.
    package static func realpath(_ path: String) throws(SystemCallError) -> String {
        note("realpath", path)
        guard let resolved = Glibc.realpath(path, nil) else {
            throw SystemCallError(call: "realpath", path: path, errno: .current)
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    // MARK: Modes, owners, locks, status

    /// `chmod(2)`.
    package static func chmod(_ path: String, _ mode: mode_t) throws(SystemCallError) {
        try make("chmod", path) { Glibc.chmod(path, mode) }
    }

    /// `fchmod(2)`.
    package static func fchmod(_ fd: Int32, _ mode: mode_t, path: String? = nil) throws(SystemCallError) {
        try make("fchmod", path, fd: fd) { Glibc.fchmod(fd, mode) }
    }

    /// `fchown(2)`.
    package static func fchown(_ fd: Int32, owner: uid_t, group: gid_t, path: String? = nil) throws(SystemCallError) {
        try make("fchown", path, fd: fd) { Glibc.fchown(fd, owner, group) }
    }

    /// `flock(2)`: `LOCK_EX | LOCK_NB`, `LOCK_UN`...
    package static func flock(_ fd: Int32, _ operation: Int32, path: String? = nil) throws(SystemCallError) {
        try make("flock", path, fd: fd) { lockFile(fd, operation) }
    }

    /// `stat(2)`, or `lstat(2)` when `followSymlinks` is false.
    package static func stat(_ path: String, followSymlinks: Bool = true) throws(SystemCallError) -> Glibc.stat {
        var info = Glibc.stat()
        if followSymlinks {
            try make("stat", path) { status(path, &info) }
        } else {
            try make("lstat", path) { Glibc.lstat(path, &info) }
        }
        return info
    }

    /// `fstat(2)`.
    package static func fstat(_ fd: Int32, path: String? = nil) throws(SystemCallError) -> Glibc.stat {
        var info = Glibc.stat()
        try make("fstat", path, fd: fd) { Glibc.fstat(fd, &info) }
        return info
    }
}

// `flock` and `stat` name C structs too: at file scope, outside `SystemCalls` (whose
// own methods would be found first), the functions are picked by their arguments.

/// `flock(2)`.
private func lockFile(_ fd: Int32, _ operation: Int32) -> Int32 { flock(fd, operation) }

/// `stat(2)`.
private func status(_ path: String, _ info: inout stat) -> Int32 { stat(path, &info) }
