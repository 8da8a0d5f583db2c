internal import CSQLite
import Foundation

/// One owned SQLite connection (`sqlite3*`), closed in `deinit`.
///
/// A connection belongs to one thread at a time (it is opened `SQLITE_OPEN_NOMUTEX`
/// and is not `Sendable`); concurrency comes from several connections, in one process
/// or many, sharing the file through WAL. Every result code passes through `check`,
/// the one place a C status becomes a `SQLiteError`.
package final class SQLiteDatabase {
    /// The `SQLITE_OPEN_*` flags coolcal uses.
    package struct OpenFlags: OptionSet {
        package let rawValue: Int32
        package init(rawValue: Int32) { self.rawValue = rawValue }
        package static let readOnly = OpenFlags(rawValue: SQLITE_OPEN_READONLY)
        package static let readWrite = OpenFlags(rawValue: SQLITE_OPEN_READWRITE)
        package static let create = OpenFlags(rawValue: SQLITE_OPEN_CREATE)
    }

    /// `BEGIN` (reads; takes the write lock only when it writes) or `BEGIN IMMEDIATE`
    /// (writes; takes the write lock at once, so a read-then-write transaction can
    /// never fail half-way with `SQLITE_BUSY_SNAPSHOT`).
    package enum TransactionMode { case deferred, immediate }

    /// The database file, for messages.
    package let path: String
    /// How long `transaction` and `retrying` keep trying a locked database in total,
    /// on top of the busy timeout SQLite itself waits on each attempt.
    package let retryWindow: TimeInterval
    private let handle: OpaquePointer

    /// Opens `path` (`sqlite3_open_v2`) in WAL mode with foreign keys on, and makes
    /// SQLite wait up to `busyTimeout` seconds for a lock before reporting busy.
    package init(path: String, flags: OpenFlags = [.readWrite, .create], busyTimeout: TimeInterval = 10,
         retryWindow: TimeInterval = 30) throws {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags.rawValue | SQLITE_OPEN_NOMUTEX, nil)
        guard let db else {
            throw SQLiteError(code: rc, message: String(cString: sqlite3_errstr(rc)), file: path)
        }
        guard rc == SQLITE_OK else {
            // sqlite3_open_v2 hands back a handle even on failure; it must still be closed.
            let error = SQLiteError(code: sqlite3_extended_errcode(db), message: String(cString: sqlite3_errmsg(db)),
                                    file: path)
            sqlite3_close_v2(db)
            throw error
        }
        self.handle = db
        self.path = path
        self.retryWindow = retryWindow
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, Int32(clamping: Int((busyTimeout * 1000).rounded())))
        // Switching to WAL needs a brief exclusive lock: several first openers can collide.
        if !flags.contains(.readOnly) {
            try retrying { try execute("PRAGMA journal_mode=WAL") }
        }
        try execute("PRAGMA foreign_keys=ON")
    }

    deinit {
        // close_v2 defers the close until the last statement is finalized.
        sqlite3_close_v2(handle)
    }

    /// Lends the raw handle to `SQLiteStatement`; the pointer must not escape `body`.
    package func withHandle<T>(_ body: (OpaquePointer) throws -> T) rethrows -> T {
        try body(handle)
    }

    /// The funnel: `SQLITE_OK`/`ROW`/`DONE` pass, anything else becomes a `SQLiteError`
    /// carrying the connection's message, the SQL and the file.
    package func check(_ rc: Int32, sql: String?) throws {
        switch rc {
        case SQLITE_OK, SQLITE_ROW, SQLITE_DONE: return
        default:
            throw SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(handle)), sql: sql, file: path)
        }
    }

    /// Runs one or more statements that return nothing we need (`sqlite3_exec`).
    package func execute(_ sql: String) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), sql: sql)
    }

    /// Compiles one statement.
    package func prepare(_ sql: String) throws -> SQLiteStatement {
        try SQLiteStatement(database: self, sql: sql)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    package var changes: Int { Int(sqlite3_changes(handle)) }

    /// True outside an explicit transaction.
    package var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    ///
    /// When the database stays busy past SQLite's own busy timeout (or a statement
    /// inside reports busy), the whole transaction is rolled back and run again after
    /// a jittered, growing pause, until `retryWindow` runs out. `body` may therefore run
    /// more than once: it must only touch the database. Called inside a transaction,
    /// it joins the outer one.
    package func transaction<T>(_ mode: TransactionMode = .immediate, _ body: () throws -> T) throws -> T {
        if !isAutocommit { return try body() }
        return try retrying {
            try execute(mode == .immediate ? "BEGIN IMMEDIATE" : "BEGIN")
            do {
                let value = try body()
                try execute("COMMIT")
                return value
            } catch {
                rollback()
                throw error
            }
        }
    }

    /// Repeats `body` while it fails with `SQLITE_BUSY`/`SQLITE_LOCKED`, backing off
    /// from 2 ms to 200 ms with jitter (so colliding processes spread out), until the
    /// retry window closes; then the busy error goes to the caller.
    package func retrying<T>(_ body: () throws -> T) throws -> T {
        let deadline = Date().addingTimeInterval(retryWindow)
        var delay = 0.002
        while true {
            do {
                return try body()
            } catch let error as SQLiteError where error.isBusy && Date() < deadline {
                let pause = min(delay, deadline.timeIntervalSinceNow)
                if pause > 0 { Thread.sleep(forTimeInterval: Double.random(in: (pause / 2)...pause)) }
                delay = min(delay * 2, 0.2)
            }
        }
    }

    /// Rolls back if a transaction is still open. SQLite has already rolled back by
    /// itself after some errors (disk full, I/O), and the original error matters more
    /// than a failed ROLLBACK, so this never throws.
    private func rollback() {
        if !isAutocommit { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
    }
}
