/// What a fault that ends a run (or one answer of it) calls for — the one classification
/// `process`, `merge` and the answering commands share (man page, EXIT STATUS's table).
///
/// `process` parks the message for every fault but a `final` one; it exits 75 for a
/// `transient` one (the MTA may redeliver; a later run answers it anyway) and 0 for one
/// a person fixes (a delivery agent deferring the whole mail on 75 would hide it from
/// the user for days, then bounce it), saying `error (REASON; parked, answered once fixed)`.
public enum Fault: Equatable, Sendable {
    /// A retry mends it with no one's help: a lock or busy state past the deadline, a
    /// CalDAV server down, a full disk or a failing device.
    case transient
    /// A person mends it: a calendar not writable or missing, its directory missing, the
    /// state unusable, too new or in a read-only directory, a bad config or credentials.
    case personFixes
    /// Nothing a retry or a person does to coolcal's files mends it: the message's own
    /// data, a usage error; its documented outcome stands.
    case final

    /// The fault `error` is: the one it states (`StatusError.fault`), else that of the
    /// status a foreign error ends a run with.
    package static func of(_ error: any Error) -> Fault {
        (error as? any StatusError)?.fault ?? ExitStatus.foreign.fault
    }

    /// True for the faults `process` parks the message for.
    public var parks: Bool { self != .final }
}

extension ExitStatus {
    /// The fault a status stands for when its error says no more: 74 and 75 transient;
    /// 66, 73, 77 and 78 mended by a person; any other final.
    public var fault: Fault {
        switch self {
        case .tempFail, .ioError: return .transient
        case .noInput, .cantCreate, .noPermission, .config: return .personFixes
        case .ok, .busy, .unrecorded, .usage, .dataError, .interrupted: return .final
        }
    }
}

extension StatusError {
    /// By default the status's fault (`ExitStatus.fault`); an error type whose kinds
    /// share a status but not a remedy states its own.
    public var fault: Fault { exitStatus.fault }
}
