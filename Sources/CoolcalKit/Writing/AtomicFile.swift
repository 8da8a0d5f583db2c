import Foundation

/// Replaces a file's contents so that readers and crashes only ever see the old
/// file or the new one: a temp file in the same directory (`O_EXCL`, `O_NOFOLLOW`),
/// write, `fsync`, `rename`, `fsync` the directory. Mode and owner are kept.
public enum AtomicFile {
    /// Where a path really lives: a symlinked calendar is written at its target.
    /// A dangling link is followed too: the file is created where the link points.
    public static func resolve(_ path: String) -> String {
        if let real = realpath(path, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        var current = path
        for _ in 0..<40 {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return current }
            current = target.hasPrefix("/") ? target
                : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(target).path
        }
        return current
    }

    /// Writes `data` to `path` (which must already be resolved). `existing` gives the
    /// mode and owner to keep; new files get 0644 less the umask.
    public static func write(_ data: Data, to path: String, keeping existing: stat?) throws {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        let mode = existing.map { mode_t($0.st_mode & 0o7777) } ?? 0o644
        var fd: Int32 = -1
        var temp = ""
        for attempt in 0..<100 {
            temp = dir + "/.\(url.lastPathComponent).coolcal-\(getpid())-\(attempt).tmp"
            fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw WriteError.errno(errno, path: path, doing: "cannot create a temporary file beside it") }
        var ok = false
        defer {
            if !ok {
                close(fd)
                unlink(temp)
            }
        }
        if let existing {
            fchmod(fd, mode)
            if existing.st_uid != geteuid() || existing.st_gid != getegid() {
                _ = fchown(fd, existing.st_uid, existing.st_gid)
            }
        }
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw WriteError.errno(errno, path: path, doing: "cannot write")
                }
                offset += n
            }
        }
        if fsync(fd) != 0 { throw WriteError.errno(errno, path: path, doing: "cannot fsync") }
        if close(fd) != 0 {
            fd = -1
            throw WriteError.errno(errno, path: path, doing: "cannot close")
        }
        fd = -1
        if rename(temp, path) != 0 { throw WriteError.errno(errno, path: path, doing: "cannot rename into place") }
        ok = true
        syncDirectory(dir)
    }

    /// Deletes temp files a killed writer left beside `path`. Only call this while
    /// holding the lock: then no live writer owns one.
    public static func removeStaleTemporaries(of path: String) {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        let prefix = ".\(url.lastPathComponent).coolcal-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            unlink(dir + "/" + name)
        }
    }

    /// Makes a rename durable.
    public static func syncDirectory(_ dir: String) {
        let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 {
            fsync(dfd)
            close(dfd)
        }
    }

    /// `stat` of a path, or nil when it does not exist.
    public static func status(_ path: String) -> stat? {
        var st = stat()
        return stat(path, &st) == 0 ? st : nil
    }
}
