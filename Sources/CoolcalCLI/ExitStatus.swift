import CoolcalCalDAV
import CoolcalICal
import CoolcalInvite
import CoolcalState
import CoolcalSupport
import CoolcalWriting
import CoolcalModel

/// Model's `ExitStatus`, by its name in this target: for the CLI's files that name
/// it without importing CoolcalModel (they were written when it was declared here).
/// Once each imports CoolcalModel, this alias can go.
public typealias ExitStatus = CoolcalModel.ExitStatus

/// The one place errors become exit statuses.
extension ExitStatus {
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
