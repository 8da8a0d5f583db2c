import Foundation

/// A calendar (or spool) that could not be written. The kind picks the exit status:
/// 73 cannot create, 74 I/O error (disk full), 75 busy or changed under us.
public struct WriteError: Error, CustomStringConvertible, Equatable {
    public enum Kind: Equatable, Sendable { case cannotCreate, io, busy }
    public var kind: Kind
    public var path: String
    public var message: String

    public var description: String { "\(path): \(message)" }

    /// Classifies an errno from open/write/fsync/rename.
    static func errno(_ code: Int32, path: String, doing what: String) -> WriteError {
        let text = String(cString: strerror(code))
        switch code {
        case ENOSPC, EDQUOT, EIO, EFBIG:
            return WriteError(kind: .io, path: path, message: "\(what): \(text)")
        default:
            return WriteError(kind: .cannotCreate, path: path, message: "\(what): \(text)")
        }
    }
}
