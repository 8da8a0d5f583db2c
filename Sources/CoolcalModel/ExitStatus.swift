/// sysexits-style statuses (DESIGN.md): what a run of coolcal exits with.
public enum ExitStatus: Int32 {
    case ok = 0
    case busy = 1
    /// The calendar was written, but the answer could not be recorded in the state (nor
    /// mailed): a rerun records and mails it once. Not a sysexits code, like 1.
    case unrecorded = 2
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

    /// The status of an error that ends a run (or one answer of it): the one the error
    /// states (`StatusError`), else `foreign`.
    package static func of(_ error: any Error) -> ExitStatus {
        (error as? any StatusError)?.exitStatus ?? foreign
    }

    /// The status of an error that is not coolcal's, so states none: Foundation's
    /// (`CocoaError`, `POSIXError`, `DecodingError`, …) or the standard library's.
    /// Such an error escaped a reader or writer that should have named its cause: 74
    /// (EX_IOERR), what it has always been.
    package static var foreign: ExitStatus { .ioError }
}

/// An error of coolcal's: each error type states its exit status (`ExitStatus.of`
/// asks it), in its own file, deciding every kind of itself with no catch-all, so a
/// new error type or kind has a status chosen for it, not one it fell into.
/// `ExitStatusTests` fails for an error type declared under `Sources/` without it.
public protocol StatusError: Error {
    /// What coolcal exits with when this error ends the run.
    var exitStatus: ExitStatus { get }
    /// What the fault calls for (`Fault`); by default its status's.
    var fault: Fault { get }
}
