import Foundation
import CoolcalModel

/// Could not deliver everything to the server (`outbox flush`): 75, or 77 when the
/// server refused the credentials.
public struct ServerError: StatusError, CustomStringConvertible, Equatable {
    public var message: String
    public var denied: Bool
    public var description: String { message }

    /// 77 when the server refused the credentials, else 75: the answer stays queued.
    public var exitStatus: ExitStatus { denied ? .noPermission : .tempFail }
}
