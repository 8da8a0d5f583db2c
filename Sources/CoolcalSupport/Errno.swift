#if canImport(Glibc)
import Glibc

#endif

/// An error number set by a failed C call (`errno`), after swift-system's `Errno`.
///
/// Folders above Support take and throw this value, never a raw `Int32`; the
/// constants name the numbers coolcal tells apart. `description` is `strerror`'s text.
public struct Errno: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The C value (`ENOENT`, `EIO`, ...).
    public let rawValue: Int32

    /// Wraps a C error number.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno` now: read it right after the failed call.
    public static var current: Errno { Errno(rawValue: Glibc.errno) }

    /// `strerror`'s text, e.g. "No space left on device".
    public var description: String { String(cString: strerror(rawValue)) }

    /// `ENOENT`
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    /// `EEXIST`
    public static let fileExists = Errno(rawValue: EEXIST)
    /// `EINTR`: a signal arrived; the call is retried.
    public static let interrupted = Errno(rawValue: EINTR)
    /// `EWOULDBLOCK` (= `EAGAIN`): a non-blocking call would have had to wait.
    public static let wouldBlock = Errno(rawValue: EWOULDBLOCK)
    /// `EPERM`
    public static let notPermitted = Errno(rawValue: EPERM)
    /// `EOPNOTSUPP`
    public static let notSupported = Errno(rawValue: EOPNOTSUPP)
    /// `ENOSPC`
    public static let noSpace = Errno(rawValue: ENOSPC)
    /// `EDQUOT`
    public static let diskQuotaExceeded = Errno(rawValue: EDQUOT)
    /// `EIO`
    public static let ioError = Errno(rawValue: EIO)
    /// `EFBIG`
    public static let fileTooLarge = Errno(rawValue: EFBIG)
    /// `ELOOP`: a symbolic link loop (or too long a chain of links).
    public static let tooManySymbolicLinks = Errno(rawValue: ELOOP)
    /// `EINVAL`: e.g. `fsync` of a directory on a file system that cannot sync one.
    public static let invalidArgument = Errno(rawValue: EINVAL)
}

/// The core of the funnel (`SystemCalls`, the only caller) for C calls that return -1
/// and set `errno`: the result, or the `Errno` as a thrown error. `EINTR` is retried
/// unless `retryOnInterrupt` is false (`close` must never be retried: Linux has closed
/// the descriptor already).
@discardableResult
func valueOrErrno<I: FixedWidthInteger>(retryOnInterrupt: Bool = true, _ call: () -> I) throws(Errno) -> I {
    while true {
        let result = call()
        if result != -1 { return result }
        let error = Errno.current
        if retryOnInterrupt && error == .interrupted { continue }
        throw error
    }
}
