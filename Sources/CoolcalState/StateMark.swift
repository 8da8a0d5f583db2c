import CoolcalSupport

/// The state database as `stat` sees it, to tell without opening it that nothing was
/// written to it since: its inode, size, mtime and ctime, taken only while no write-ahead
/// log holds frames (a committed write not yet copied into the database file changes the
/// log, not the file).
package struct StateMark: Equatable, Sendable {
    private let device: UInt64
    private let inode: UInt64
    private let size: Int64
    private let modified: Int64
    private let changed: Int64

    /// The mark of the state in `directory`; nil when it has no database, or its log holds
    /// frames (another connection's, or this process's own writes: then a later run,
    /// which writes nothing, takes it).
    package static func of(directory: String) -> StateMark? {
        let path = directory + "/" + StateStore.fileName
        for log in [path + "-wal", path + "-journal"] {
            if let status = FileStatus.of(log), status.size > 0 { return nil }
        }
        guard let status = FileStatus.of(path), status.kind == .regular else { return nil }
        return StateMark(device: status.device, inode: status.inode, size: status.size,
                         modified: status.modifiedNanoseconds, changed: status.changedNanoseconds)
    }

    /// Whether a write after a file stamped at `stamped` (nanoseconds, the same file
    /// system's clock) is sure to change the mark: the database was last changed at least
    /// two seconds before. A file system's timestamps are coarse (a tick, or two seconds
    /// on FAT), so a write within the same tick as the last one may leave the mtime as it
    /// was; as in git's "racily clean" index entries, such a mark is not trusted.
    package func settled(before stamped: Int64) -> Bool {
        max(modified, changed) + 2_000_000_000 <= stamped
    }
}

extension StateMark {
    /// `DEVICE:INODE:SIZE:MTIME:CTIME` (nanoseconds).
    package var text: String {
        [String(device), String(inode), String(size), String(modified), String(changed)].joined(separator: ":")
    }

    package init?(text: Substring) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 5, let device = UInt64(parts[0]), let inode = UInt64(parts[1]), let size = Int64(parts[2]),
              let modified = Int64(parts[3]), let changed = Int64(parts[4]) else { return nil }
        self.init(device: device, inode: inode, size: size, modified: modified, changed: changed)
    }
}
