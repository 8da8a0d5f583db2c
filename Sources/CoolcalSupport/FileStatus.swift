import Foundation

/// What coolcal reads from `stat`, `lstat` or `fstat`, as a Swift value (no Glibc
/// `stat` struct leaves Support).
public struct FileStatus: Equatable, Sendable {
    /// The file type bits of `st_mode`.
    public enum Kind: Equatable, Sendable {
        case regular, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, unknown

        /// What messages call it: "a directory", "a FIFO", "a character device"...
        public var described: String {
            switch self {
            case .regular: return "a regular file"
            case .directory: return "a directory"
            case .symbolicLink: return "a symbolic link"
            case .fifo: return "a FIFO"
            case .characterDevice: return "a character device"
            case .blockDevice: return "a block device"
            case .socket: return "a socket"
            case .unknown: return "a special file"
            }
        }
    }

    public var kind: Kind
    /// `st_size` in bytes.
    public var size: Int64
    /// The permission bits of `st_mode` (`& 0o7777`), e.g. `0o644`.
    public var permissions: UInt32
    /// `st_uid`, `st_gid`.
    public var owner: UInt32, group: UInt32
    /// `st_ino` and `st_dev`: together they name the file.
    public var inode: UInt64, device: UInt64
    /// `st_mtim`.
    public var modified: Date
    /// `st_mtim` in nanoseconds since the epoch, exactly (a `Date` rounds).
    public var modifiedNanoseconds: Int64
    /// `st_ctim` in nanoseconds since the epoch: when the inode last changed (any write,
    /// rename or mode change; unlike the mtime, no one can set it back).
    public var changedNanoseconds: Int64

    /// Whether `other` is the same file, unchanged as far as `stat` tells: inode,
    /// device, size and mtime in nanoseconds.
    public func sameVersion(as other: FileStatus) -> Bool {
        inode == other.inode && device == other.device && size == other.size
            && modifiedNanoseconds == other.modifiedNanoseconds
    }

    /// `stat` (or `lstat` when `followSymlinks` is false) of a path.
    public init(path: String, followSymlinks: Bool = true) throws(SystemCallError) {
        self.init(try SystemCalls.stat(path, followSymlinks: followSymlinks))
    }

    /// `fstat` of an open descriptor, the file at `path` (for the error and the trace).
    public init(descriptor: Int32, path: String? = nil) throws(SystemCallError) {
        self.init(try SystemCalls.fstat(descriptor, path: path))
    }

    /// The status of `path`, or nil when it cannot be read (it does not exist).
    public static func of(_ path: String, followSymlinks: Bool = true) -> FileStatus? {
        try? FileStatus(path: path, followSymlinks: followSymlinks)
    }

    private init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        case S_IFIFO: kind = .fifo
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFSOCK: kind = .socket
        default: kind = .unknown
        }
        size = Int64(info.st_size)
        permissions = UInt32(info.st_mode & 0o7777)
        owner = UInt32(info.st_uid)
        group = UInt32(info.st_gid)
        inode = UInt64(info.st_ino)
        device = UInt64(info.st_dev)
        modified = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
        modifiedNanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        changedNanoseconds = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
    }
}
