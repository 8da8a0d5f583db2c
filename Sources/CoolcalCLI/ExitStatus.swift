import CoolcalCalDAV
import CoolcalICal
import CoolcalInvite
import CoolcalState
import CoolcalSupport
import CoolcalWriting
import CoolcalModel

/// sysexits-style statuses (DESIGN.md), and the one place errors become them.
public enum ExitStatus: Int32 {
    case ok = 0
    case busy = 1
    case usage = 64
    case dataError = 65
    case noInput = 66
    case cantCreate = 73
    case ioError = 74
    case tempFail = 75
    case noPermission = 77
    case config = 78
    /// `review` left with C-c (128 + SIGINT, as a shell reports it).
    case interrupted = 130

    package static func of(_ error: Error) -> ExitStatus {
        switch error {
        case is UsageError: return .usage
        case is InviteError, is ICalError: return .dataError
        case is InputFileError: return .noInput
        case is ConfigError: return .config
        case let e as SQLiteError:
            switch e.kind {
            case .cannotOpen: return .cantCreate
            case .busy: return .tempFail
            case .io, .other: return .ioError
            }
        case let e as StateError:
            return e.kind == .cannotCreate ? .cantCreate : .ioError
        case let e as ServerError: return e.denied ? .noPermission : .tempFail
        case let e as CalDAVError:
            switch e.kind {
            case .unreachable, .preconditionFailed: return .tempFail
            case .denied: return .noPermission
            case .notCalendar, .badResponse: return .dataError
            case .invalidURL: return .usage
            }
        case let e as WriteError:
            switch e.kind {
            case .cannotCreate: return .cantCreate
            case .io: return .ioError
            case .busy: return .tempFail
            }
        default: return .ioError
        }
    }
}
