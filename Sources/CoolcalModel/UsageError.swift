/// A command line coolcal cannot run (EX_USAGE, 64): the message, and the command
/// whose usage line to print.
public struct UsageError: StatusError, CustomStringConvertible, Equatable {
    public var message: String
    public var command: String?

    /// 64 (EX_USAGE).
    public var exitStatus: ExitStatus { .usage }

    public init(_ message: String, command: String?) {
        self.message = message
        self.command = command
    }

    public var description: String { message }
}

/// A configuration coolcal cannot use: the file, or a command it names (EX_CONFIG, 78).
public struct ConfigError: StatusError, CustomStringConvertible, Equatable {
    public var message: String
    public var description: String { message }
    /// 78 (EX_CONFIG).
    public var exitStatus: ExitStatus { .config }

    public init(message: String) {
        self.message = message
    }
}
