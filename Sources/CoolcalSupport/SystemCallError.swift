import CoolcalModel

/// A system call that failed, after swift-nio's `FileSystemError`: which call, the
/// path it was given (or the file a descriptor belongs to, where the caller named it),
/// and the `Errno` it set. Thrown by every `SystemCalls` wrapper.
///
/// `description` is the `Errno`'s text alone ("No space left on device"), exactly what
/// messages showed before the funnel: the layers above wrap this error in their own
/// (`WriteError`, `InputFileError`, `StateError`...) and word it as they always have.
/// `debugDescription` names the call and the path too.
public struct SystemCallError: StatusError, Equatable, Hashable, Sendable, CustomStringConvertible,
                               CustomDebugStringConvertible {
    /// The C function's name: "open", "fsync", "rename"...
    public let call: String
    /// The path the call was given (`rename`, `link`: the source), or the descriptor's
    /// file; nil when not known.
    public let path: String?
    /// What `errno` said.
    public let errno: Errno

    /// A failure of `call` on `path`.
    public init(call: String, path: String?, errno: Errno) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    /// `strerror`'s text, as messages show it.
    public var description: String { errno.description }

    /// `fsync(/tmp/cal.ics): Input/output error (errno 5)`.
    public var debugDescription: String { "\(call)(\(path ?? "?")): \(errno) (errno \(errno.rawValue))" }
}

extension SystemCallError {
    /// 74, as `Errno`: its callers say it as their own error where they know better
    /// (a calendar's as a `WriteError`, the state's as a `StateError`).
    public var exitStatus: ExitStatus { .ioError }
}
