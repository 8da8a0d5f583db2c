import Foundation
import CoolcalModel

/// Replaces a file's contents so that readers and crashes only ever see the old
/// file or the new one: a temp file in the same directory (`O_EXCL`, `O_NOFOLLOW`),
/// write, `fsync` (the caller's read-back meanwhile), `rename`, `fsync` the directory.
/// Mode and owner are kept.
public enum AtomicFile {
    /// The most one write(2) of the temp file is handed.
    package static let writePiece = 1 << 20
    /// How far behind the bytes written the device is asked to start writing them.
    package static let writebackLag = 8 << 20

    /// Where a path really lives: a symlinked calendar is written at its target.
    /// A dangling link is followed too: the file is created where the link points.
    /// A link loop (or a chain of more than 40 links) is 73, and the links stay.
    public static func resolve(_ path: String) throws -> String {
        let loop = WriteError(kind: .cannotCreate, path: path,
                              message: "is a symbolic link loop (or a chain of more than 40 links); not modified")
        do throws(SystemCallError) {
            return try SystemCalls.realpath(path)
        } catch where error.errno == .tooManySymbolicLinks {
            throw loop
        } catch {}
        var current = path
        for _ in 0..<40 {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return current }
            current = target.hasPrefix("/") ? target
                : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(target).path
        }
        throw loop
    }

    /// The file at `path` (resolved) as something coolcal may replace, or nil when it
    /// does not exist. Anything but a regular file, a file whose mode gives its owner
    /// no write bit (even for root), and, for a writer that is not root, a file
    /// another user owns (its owner could not be kept) is 73, before any lock file is
    /// made beside it.
    public static func replaceable(_ path: String) throws -> FileStatus? {
        let status: FileStatus
        do throws(SystemCallError) {
            status = try FileStatus(path: path, followSymlinks: false)
        } catch where error.errno == .noSuchFileOrDirectory {
            return nil
        } catch {
            throw WriteError.errno(error, path: path, doing: "cannot examine")
        }
        try check(status, path: path)
        return status
    }

    /// `replaceable`'s rules for a status already taken (of the descriptor read).
    public static func check(_ status: FileStatus, path: String) throws {
        guard status.kind == .regular else {
            throw WriteError(kind: .cannotCreate, path: path, message: "not a regular file (\(status.kind.described)); not modified")
        }
        guard status.permissions & 0o200 != 0 else {
            throw WriteError(kind: .cannotCreate, path: path,
                             message: "is read-only (mode \(String(status.permissions, radix: 8))); not modified")
        }
        let me = geteuid()
        guard me == 0 || status.owner == me else {
            throw WriteError(kind: .cannotCreate, path: path,
                             message: "belongs to another user (uid \(status.owner)), whose ownership coolcal could not keep; not modified")
        }
    }

    /// Thrown by `write` when its `unchanged` check fails: nothing was replaced.
    public struct Changed: StatusError {
        /// 74; the writers catch it (`CalendarWriter`, `CalendarBatch`).
        public var exitStatus: ExitStatus { .ioError }

        public init() {}
    }

    /// Writes `data` to `path` (which must already be resolved). `existing` gives the
    /// mode and owner to keep (an owner that cannot be kept is 73); new files get 0644
    /// less the umask. `unchanged` is asked last, after the temporary file is fsynced,
    /// right before the rename: false removes the temporary file and throws `Changed`.
    /// `syncingDirectory` false leaves the rename's durability to the caller, who syncs
    /// the directory once for several files (`Spool.finish`). Every system call goes
    /// through `SystemCalls`: `WriteOrderTests` checks their order in its trace.
    /// `newMode`: a new file's exact mode (a state file's 0600) instead of 0644.
    public static func write(_ data: Data, to path: String, keeping existing: FileStatus?, newMode: mode_t? = nil,
                             unchanged: () throws -> Bool = { true }, syncingDirectory: Bool = true) throws {
        try Self.write(to: path, keeping: existing, newMode: newMode, unchanged: unchanged, syncingDirectory: syncingDirectory) { emit in
            try data.withUnsafeBytes { try emit($0) }
        }
    }

    /// `write(_:to:keeping:unchanged:)` of the bytes `contents` hands to `emit`, piece
    /// by piece (an edit of a large file is never copied whole first). `readBack` is
    /// given the temporary file's path once it is written, and runs while another
    /// thread fsyncs and closes it; both are done before `unchanged` is asked: what
    /// either throws removes the temporary file and is thrown (the fsync's first).
    /// `newMode`: a new file's exact mode (a vdir's event file takes its siblings'),
    /// instead of 0644 through the umask.
    package static func write(to path: String, keeping existing: FileStatus?, newMode: mode_t? = nil,
                      readBack: (String) throws -> Void = { _ in }, unchanged: () throws -> Bool, syncingDirectory: Bool = true,
                      contents: (_ emit: (UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        try Self.write(to: path, keeping: existing, newMode: newMode, readBack: readBack, unchanged: unchanged,
                  syncingDirectory: syncingDirectory, streaming: { output in try contents { try output.write($0) } })
    }

    /// `write(to:keeping:...contents:)` of what `fill` puts into the temporary file
    /// through its `Output`: bytes from memory, and ranges copied from another open file
    /// (a streamed edit: the unchanged bytes of the file it replaces, in the kernel).
    package static func write(to path: String, keeping existing: FileStatus?, newMode: mode_t? = nil,
                      readBack: (String) throws -> Void = { _ in }, unchanged: () throws -> Bool, syncingDirectory: Bool = true,
                      streaming fill: (Output) throws -> Void) throws {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        let mode = existing.map { mode_t($0.permissions) } ?? newMode ?? 0o644
        var fd: Int32 = -1
        var temp = ""
        var failure = Errno.fileExists
        for attempt in 0..<100 {
            temp = dir + "/.\(url.lastPathComponent).coolcal-\(getpid())-\(attempt).tmp"
            do throws(SystemCallError) {
                fd = try SystemCalls.open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
                break
            } catch {
                failure = error.errno
                if error.errno != .fileExists { break }
            }
        }
        guard fd >= 0 else { throw WriteError.errno(failure, path: path, doing: "cannot create a temporary file beside it") }
        var ok = false
        defer {
            if !ok {
                if fd >= 0 { try? SystemCalls.close(fd, path: temp) }
                try? SystemCalls.unlink(temp)
            }
        }
        if existing != nil || newMode != nil {
            // open's mode went through the umask: the mode kept is set exactly.
            do throws(SystemCallError) { try SystemCalls.fchmod(fd, mode, path: temp) } catch {
                throw WriteError.errno(error, path: path, doing: "cannot keep its mode (\(String(mode, radix: 8)))")
            }
        }
        if let existing {
            if existing.owner != geteuid() || existing.group != getegid() {
                do throws(SystemCallError) { try SystemCalls.fchown(fd, owner: existing.owner, group: existing.group, path: temp) } catch {
                    throw WriteError(kind: .cannotCreate, path: path,
                                     message: "cannot keep its owner and group (\(existing.owner):\(existing.group)): \(error); not modified")
                }
            }
        }
        try fill(Output(fd: fd, temp: temp, path: path))
        TestHook.pause(at: "after-temp-write")
        // The fsync (the device's time) and the read-back (the page cache's bytes, the
        // same before and after it) overlap: fsync, then close, on another thread, which
        // is waited for before anything else; the descriptor is its from here on.
        let syncing = fd
        fd = -1
        let synced = BackgroundTask { [temp] () -> WriteError? in
            do throws(SystemCallError) { try SystemCalls.fsync(syncing, path: temp) } catch {
                try? SystemCalls.close(syncing, path: temp)
                return WriteError.errno(error, path: path, doing: "cannot fsync")
            }
            do throws(SystemCallError) { try SystemCalls.close(syncing, path: temp) } catch {
                return WriteError.errno(error, path: path, doing: "cannot close")
            }
            return nil
        }
        let checked = Result { try readBack(temp) }
        if let failed = synced.wait() ?? nil { throw failed }
        try checked.get()
        guard try unchanged() else { throw Changed() }
        do throws(SystemCallError) { try SystemCalls.rename(temp, path) } catch {
            throw WriteError.errno(error, path: path, doing: "cannot rename into place")
        }
        ok = true
        if syncingDirectory { try syncDirectory(dir) }
    }

    /// Removes `path` (a vdir's event file whose only event was removed): `unchanged`
    /// is asked right before the unlink, false throws `Changed`; the directory is
    /// synced after.
    public static func remove(_ path: String, unchanged: () throws -> Bool) throws {
        guard try unchanged() else { throw Changed() }
        do throws(SystemCallError) { try SystemCalls.unlink(path) } catch {
            throw WriteError.errno(error, path: path, doing: "cannot remove")
        }
        try syncDirectory(URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }

    /// Deletes temp files a killed writer left beside `path`. Only call this while
    /// holding the lock: then no live writer owns one.
    public static func removeStaleTemporaries(of path: String) {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        let prefix = ".\(url.lastPathComponent).coolcal-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            try? SystemCalls.unlink(dir + "/" + name)
        }
    }

    /// Makes a rename (or an unlink) in `dir` durable: `fsync` of the directory. A
    /// directory that cannot be opened or synced is a `WriteError` on `dir` (74 for a
    /// failing device, else 73), as a file that cannot be synced is. One failure is
    /// tolerated, as before the funnel (which ignored them all): `EINVAL`, what `fsync`
    /// of a directory says on file systems that cannot sync one (some FUSE and network
    /// file systems); there the rename is as durable as that file system makes it.
    public static func syncDirectory(_ dir: String) throws {
        let dfd: Int32
        do throws(SystemCallError) { dfd = try SystemCalls.open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } catch {
            throw WriteError.errno(error, path: dir, doing: "cannot open the directory to fsync it")
        }
        defer { try? SystemCalls.close(dfd, path: dir) }
        do throws(SystemCallError) {
            try SystemCalls.fsync(dfd, path: dir)
        } catch where error.errno == .invalidArgument {
            return
        } catch {
            throw WriteError.errno(error, path: dir, doing: "cannot fsync the directory")
        }
    }
}
