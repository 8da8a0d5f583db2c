import CoolcalModel

/// Model's `ExitStatus`, by its name in this target: for the CLI's files that name
/// it without importing CoolcalModel (they were written when it was declared here).
/// Once each imports CoolcalModel, this alias can go.
public typealias ExitStatus = CoolcalModel.ExitStatus

// `StatusError` is Model's too; every error type states its status beside its
// declaration. These two state theirs here, the CLI's one file about statuses,
// while the files that declare them (ServerError.swift, ReplyCommand.swift) are being
// rewritten.

extension ServerError: StatusError {
    /// 77 when the server refused the credentials, else 75: the answer stays queued.
    public var exitStatus: ExitStatus { denied ? .noPermission : .tempFail }
}

extension MailSendError: StatusError {
    /// 74: the sendmail failed for good (not its 75); the mail is kept as failed.
    package var exitStatus: ExitStatus { .ioError }
}
