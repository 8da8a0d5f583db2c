import CoolcalModel

/// A calendar that libical cannot read, naming the file.
public struct ICalError: StatusError, CustomStringConvertible, Equatable {
    public var file: String
    public var message: String
    /// 65 (EX_DATAERR).
    public var exitStatus: ExitStatus { .dataError }

    public init(file: String, message: String) {
        self.file = file
        self.message = message
    }

    public var description: String { "\(file): \(message)" }
}
