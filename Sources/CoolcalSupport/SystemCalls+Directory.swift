#if canImport(Glibc)
import Glibc
#endif

extension SystemCalls {
    /// One name in a directory, with its type as `readdir(3)` tells it.
    package struct DirectoryEntry: Equatable, Sendable {
        package var name: String
        /// `.regular`, `.directory`...; nil when the file system does not say
        /// (`DT_UNKNOWN`) or for a symbolic link: `stat` it to know what it names.
        package var kind: FileStatus.Kind?
    }

    /// `opendir(3)`/`readdir(3)`: the names in `path` but `.` and `..`, in the directory's
    /// order, each with the type the directory entry carries — no `stat` per file.
    package static func listDirectory(_ path: String) throws(SystemCallError) -> [DirectoryEntry] {
        var entries: [DirectoryEntry] = []
        try forEachEntry(in: path) { name, kind in
            entries.append(DirectoryEntry(name: String(decoding: name, as: UTF8.self), kind: kind))
        }
        return entries
    }

    /// `listDirectory` without a string made for any name: `body` gets each name's bytes
    /// (valid only during the call) and its type, in the directory's order.
    package static func forEachEntry(in path: String,
                                     _ body: (UnsafeRawBufferPointer, FileStatus.Kind?) -> Void) throws(SystemCallError) {
        note("opendir", path)
        guard let dir = opendir(path) else { throw SystemCallError(call: "opendir", path: path, errno: .current) }
        defer { closedir(dir) }
        while true {
            errno = 0
            guard let entry = readdir(dir) else {
                if errno != 0 { throw SystemCallError(call: "readdir", path: path, errno: .current) }
                return
            }
            let kind: FileStatus.Kind?
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): kind = .regular
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_FIFO): kind = .fifo
            case Int32(DT_CHR): kind = .characterDevice
            case Int32(DT_BLK): kind = .blockDevice
            case Int32(DT_SOCK): kind = .socket
            default: kind = nil
            }
            withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                let name = UnsafeRawBufferPointer(rebasing: raw[..<(raw.firstIndex(of: 0) ?? raw.endIndex)])
                // "." and ".." are not entries of the directory's own.
                if name.count == 1 && name[0] == UInt8(ascii: ".") || name.count == 2 && name[0] == UInt8(ascii: ".") && name[1] == UInt8(ascii: ".") {
                    return
                }
                body(name, kind)
            }
        }
    }

    /// `mkdir -p`: `path` and each missing directory above it made with `mode` (which
    /// the umask filters); one that exists already is fine. A `path` that exists and is
    /// no directory throws `EEXIST`, as `mkdir(2)` would.
    package static func makeDirectories(_ path: String, _ mode: mode_t) throws(SystemCallError) {
        var made = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") where component != "." {
            made += "/" + component
            do { try mkdir(made, mode) } catch where error.errno == .fileExists {}
        }
        guard FileStatus.of(path)?.kind == .directory else {
            throw SystemCallError(call: "mkdir", path: path, errno: .fileExists)
        }
    }
}
