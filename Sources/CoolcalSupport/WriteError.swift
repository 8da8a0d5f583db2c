import Foundation
import CoolcalModel

/// A calendar (or spool) that could not be written. The kind picks the exit status:
/// 73 cannot create, 74 I/O error (disk full), 75 busy or changed under us.
public struct WriteError: StatusError, CustomStringConvertible, Equatable {
    public enum Kind: Equatable, Sendable { case cannotCreate, io, busy }
    public var kind: Kind
    public var path: String
    public var message: String
    /// The error number a failed system call gave (`errno(_:path:doing:)`), nil for a
    /// refusal of coolcal's own: what lets a caller word the failure its way (`reworded`).
    package var cause: Errno?

    public var description: String { "\(path): \(message)" }

    /// 73 cannot create, 74 I/O error, 75 busy.
    public var exitStatus: ExitStatus {
        switch kind {
        case .cannotCreate: return .cantCreate
        case .io: return .ioError
        case .busy: return .tempFail
        }
    }

    /// Classifies an error number from open/write/fsync/rename: a full disk or a
    /// failing device is 74, anything else 73.
    package static func errno(_ error: Errno, path: String, doing what: String) -> WriteError {
        var made: WriteError
        switch error {
        case .noSpace, .diskQuotaExceeded, .ioError, .fileTooLarge:
            made = WriteError(kind: .io, path: path, message: "\(what): \(error)")
        default:
            made = WriteError(kind: .cannotCreate, path: path, message: "\(what): \(error)")
        }
        made.cause = error
        return made
    }

    /// The same failure worded `what: ERRNO` (a parked message's "cannot park the
    /// message" for whichever of `AtomicFile`'s steps failed); one with no error number
    /// stays as it is.
    package func reworded(_ what: String) -> WriteError {
        guard let cause else { return self }
        return Self.errno(cause, path: path, doing: what)
    }

    /// `errno(_:path:doing:)` of a failed system call: its `Errno` picks the status
    /// and words the message, exactly as before the funnel.
    package static func errno(_ error: SystemCallError, path: String, doing what: String) -> WriteError {
        errno(error.errno, path: path, doing: what)
    }

    /// The memberwise initializer, for the targets above.
    package init(kind: Kind, path: String, message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }
}
