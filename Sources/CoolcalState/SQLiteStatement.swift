internal import CSQLite

/// A value bound to a statement parameter.
package enum SQLiteValue: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    /// `.text`, or `.null` for nil.
    package static func optional(_ text: String?) -> SQLiteValue { text.map(SQLiteValue.text) ?? .null }
}

/// One owned prepared statement (`sqlite3_stmt*`), finalized in `deinit`.
///
/// It keeps its database alive, so a statement can never outlive its connection.
package final class SQLiteStatement {
    package let database: SQLiteDatabase
    package let sql: String
    private let handle: OpaquePointer

    /// Compiles `sql` (`sqlite3_prepare_v2`).
    package init(database: SQLiteDatabase, sql: String) throws {
        var statement: OpaquePointer?
        let rc = database.withHandle { sqlite3_prepare_v2($0, sql, -1, &statement, nil) }
        try database.check(rc, sql: sql)
        guard let statement else {
            // Only whitespace or a comment compiles to no statement at all.
            throw SQLiteError(code: SQLITE_MISUSE, message: "empty statement", sql: sql, file: database.path)
        }
        self.database = database
        self.sql = sql
        self.handle = statement
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// SQLite copies bound text at once (`SQLITE_TRANSIENT`), so Swift's buffer may go.
    private static var transient: sqlite3_destructor_type {
        unsafeBitCast(-1 as Int, to: sqlite3_destructor_type.self)
    }

    /// Resets the statement and binds `values` to `?1`, `?2`, …
    package func bind(_ values: [SQLiteValue]) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(handle, index)
            case .integer(let n): rc = sqlite3_bind_int64(handle, index, n)
            case .real(let d): rc = sqlite3_bind_double(handle, index, d)
            case .text(let s):
                // utf8CString keeps embedded NULs and is never empty (it has the
                // terminator), so the pointer is never nil and "" stays "" (not NULL).
                rc = s.utf8CString.withUnsafeBufferPointer { buffer in
                    guard let length = Int32(exactly: buffer.count - 1) else { return SQLITE_TOOBIG }
                    return sqlite3_bind_text(handle, index, buffer.baseAddress, length, Self.transient)
                }
            }
            try database.check(rc, sql: sql)
        }
    }

    /// Advances one row: true when a row is ready, false when done.
    package func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        // Reset so the statement does not keep a read lock while the error travels up.
        sqlite3_reset(handle)
        try database.check(rc, sql: sql)
        return false
    }

    /// Binds `values` and runs the statement to completion, ignoring any rows.
    package func run(_ values: [SQLiteValue] = []) throws {
        try bind(values)
        while try step() {}
        sqlite3_reset(handle)
    }

    /// Binds `values` and maps every row with `read`.
    package func rows<T>(_ values: [SQLiteValue] = [], _ read: (SQLiteStatement) throws -> T) throws -> [T] {
        try bind(values)
        var result: [T] = []
        while try step() { result.append(try read(self)) }
        sqlite3_reset(handle)
        return result
    }

    /// The first row mapped with `read`, or nil when there is none.
    package func row<T>(_ values: [SQLiteValue] = [], _ read: (SQLiteStatement) throws -> T) throws -> T? {
        try bind(values)
        defer { sqlite3_reset(handle) }
        return try step() ? try read(self) : nil
    }

    // Column readers, 0-based like sqlite3_column_*.

    package func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    package func int(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    package func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    /// The column as UTF-8 text (invalid bytes repaired), nil for NULL.
    package func text(_ column: Int32) -> String? {
        guard !isNull(column), let bytes = sqlite3_column_text(handle, column) else { return nil }
        // column_bytes must follow column_text: the text conversion may change the length.
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
