import CoolcalModel

extension Errno: StatusError {
    /// 74 (EX_IOERR) for every number; the callers that tell numbers apart say them as
    /// their own errors (`WriteError`, `StateError`, …).
    public var exitStatus: ExitStatus { .ioError }
}
