internal import CSQLite
import CoolcalModel
import CoolcalSupport

/// A failed SQLite call: the extended result code, SQLite's message, the statement
/// that failed (if any) and the database file, so a message always names the file.
package struct SQLiteError: StatusError, CustomStringConvertible, CustomDebugStringConvertible, Equatable, Sendable {
    /// What the failure means for the user: its exit status (`exitStatus`).
    package enum Kind: Equatable, Sendable {
        /// The state cannot be opened or created (permissions, not a database, newer schema): EX_CANTCREAT.
        case cannotOpen
        /// Reading or writing failed (disk full, I/O error): EX_IOERR.
        case io
        /// Another coolcal kept the database locked past every retry: EX_TEMPFAIL.
        case busy
        /// Anything else (constraint, misuse): a bug or damaged state, reported as EX_IOERR.
        case other
    }

    /// The extended result code (`SQLITE_IOERR_WRITE`, …); `code & 0xff` is the primary one.
    package var code: Int32
    /// SQLite's own message (`sqlite3_errmsg`), e.g. "disk I/O error".
    package var message: String
    /// The SQL being run, for debugging; never part of the user-facing description.
    package var sql: String?
    /// The database file.
    package var file: String

    /// An error as the `check` funnel builds it.
    package init(code: Int32, message: String, sql: String? = nil, file: String) {
        self.code = code
        self.message = message
        self.sql = sql
        self.file = file
    }

    /// The primary result code (`SQLITE_BUSY`, `SQLITE_IOERR`, …).
    package var primaryCode: Int32 { code & 0xff }

    /// True for the two codes that mean "someone else holds a lock; try again".
    package var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    /// The failure's meaning, from the primary code.
    package var kind: Kind {
        switch primaryCode {
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_READONLY, SQLITE_NOTADB, SQLITE_CORRUPT, SQLITE_AUTH:
            return .cannotOpen
        case SQLITE_IOERR, SQLITE_FULL, SQLITE_NOMEM, SQLITE_PROTOCOL: return .io
        default: return .other
        }
    }

    /// The kind's status, as each kind says above.
    package var exitStatus: ExitStatus {
        switch kind {
        case .cannotOpen: return .cantCreate
        case .busy: return .tempFail
        case .io, .other: return .ioError
        }
    }

    /// A lock past every retry, a full disk or an I/O error is mended by a retry; a state
    /// that cannot be opened, is not a database, is too new or damaged (`other`: a missing
    /// table, a broken constraint) needs a person, though its status is 74 like a full disk.
    package var fault: Fault {
        switch kind {
        case .busy, .io: return .transient
        case .cannotOpen, .other: return .personFixes
        }
    }

    /// `FILE: message`, lowercase like every coolcal error. A lock that outlived the
    /// retries is said in words a user can act on, not as "database is locked".
    package var description: String {
        if isBusy {
            return "\(file): the state is locked by another coolcal; try again later"
        }
        return "\(file): \(message)"
    }

    /// The description plus the code and the SQL, for logs and test failures.
    package var debugDescription: String {
        var text = "\(file): \(message) (sqlite code \(code))"
        if let sql { text += " in: \(sql)" }
        return text
    }
}

/// The state directory or its files could not be set up, or a stored row is unreadable.
package struct StateError: StatusError, CustomStringConvertible, Equatable, Sendable {
    /// What went wrong, for the exit status.
    package enum Kind: Equatable, Sendable {
        /// Cannot create or open the state directory or file: EX_CANTCREAT.
        case cannotCreate
        /// A stored row cannot be read back (damaged state): EX_IOERR.
        case io
    }

    package var kind: Kind
    /// The directory or file concerned.
    package var path: String
    /// Short and lowercase, e.g. "cannot create the state directory: Permission denied".
    package var message: String

    /// An error about `path`.
    package init(kind: Kind, path: String, message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    /// `PATH: message`.
    package var description: String { "\(path): \(message)" }

    /// 73 cannot create, 74 a row that cannot be read.
    package var exitStatus: ExitStatus {
        switch kind {
        case .cannotCreate: return .cantCreate
        case .io: return .ioError
        }
    }

    /// A failed system call on the state's files: a full disk or a failing device is
    /// `io`, anything else `cannotCreate`; the message is `WHAT: ` and `strerror`'s text.
    package static func errno(_ error: SystemCallError, path: String, doing what: String) -> StateError {
        let kind: Kind = [.noSpace, .diskQuotaExceeded, .ioError].contains(error.errno) ? .io : .cannotCreate
        return StateError(kind: kind, path: path, message: "\(what): \(error)")
    }
}
