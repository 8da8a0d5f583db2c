#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A range of one file appended to another: in the kernel (`copy_file_range(2)`: on
/// ext4 page cache to page cache, on a file system that shares extents no data moved),
/// else read and written here.
extension SystemCalls {
    /// Test switch: while true, `copyFileRange` fails with `ENOSYS` without asking the
    /// kernel (the trace still notes it), so that `copy` takes its read/write fallback
    /// (`StreamedWriteTests`). Process-wide; only ever makes a copy slower.
    package static let refusingCopyFileRange = Atomic<Bool>(false)

    /// What `copy_file_range` says when it cannot copy between these two files: another
    /// file system (`EXDEV`, before Linux 5.19 and between types since), a file system
    /// or file that does not take it (`EOPNOTSUPP`, `EINVAL`), a kernel without it
    /// (`ENOSYS`). `copy` reads and writes instead.
    static let copyFallbacks: Set<Int32> = [EXDEV, EOPNOTSUPP, EINVAL, ENOSYS]

    /// Appends `count` bytes of `source` from `offset` to `target` at its file offset
    /// (the source's offset left alone): `copy_file_range` while it copies, then, on one
    /// of `copyFallbacks` or a 0 before the end, `pread` and `write` of what is left. How many bytes were
    /// appended: fewer than `count` only when the source ends before.
    package static func copy(from source: Int32, at offset: Int64, count: Int, to target: Int32,
                             path: String? = nil, targetPath: String? = nil) throws(SystemCallError) -> Int {
        var done = 0
        while done < count {
            let n: Int
            do throws(SystemCallError) {
                n = try copyFileRange(from: source, at: offset + Int64(done), to: target, count: count - done,
                                      path: path, targetPath: targetPath)
            } catch where copyFallbacks.contains(error.errno.rawValue) {
                return try done + readAndWrite(from: source, at: offset + Int64(done), count: count - done, to: target,
                                               path: path, targetPath: targetPath)
            }
            // Nothing copied before the end asked for: the end of the source, or a file
            // system whose copy_file_range says 0 where it cannot copy; `pread` tells which.
            if n == 0 {
                return try done + readAndWrite(from: source, at: offset + Int64(done), count: count - done, to: target,
                                               path: path, targetPath: targetPath)
            }
            done += n
        }
        return done
    }

    /// `copy`'s fallback: `pread` of `source` and `write` to `target`, a MiB at a time.
    private static func readAndWrite(from source: Int32, at offset: Int64, count: Int, to target: Int32,
                                     path: String?, targetPath: String?) throws(SystemCallError) -> Int {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: min(count, 1 << 20), alignment: 16)
        defer { buffer.deallocate() }
        var done = 0
        while done < count {
            let piece = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(buffer.count, count - done)])
            let n = try pread(source, into: piece, at: offset + Int64(done), path: path)
            if n == 0 { break }
            try writeAll(target, UnsafeRawBufferPointer(rebasing: piece[0..<n]), path: targetPath)
            done += n
        }
        return done
    }
}
