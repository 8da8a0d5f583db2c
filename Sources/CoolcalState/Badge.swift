import Foundation

/// The app icon's badge count (push payloads' `badge`, one more per notification): the
/// state's `badge` table, one row.
package struct Badge {
    let database: SQLiteDatabase

    /// The stored badge count (never negative).
    package var count: Int {
        get throws {
            try database.transaction(.deferred) {
                try Int(database.prepare("SELECT count FROM badge WHERE id = 1").row { $0.int(0) } ?? 0)
            }
        }
    }

    /// Adds `n` to the badge inside one write transaction, so two notifications that
    /// arrive together both count. The total saturates instead of overflowing and
    /// never goes below zero. - Returns: the new total.
    @discardableResult
    package func add(_ n: Int) throws -> Int {
        try database.transaction {
            let current = try database.prepare("SELECT count FROM badge WHERE id = 1").row { $0.int(0) } ?? 0
            let (sum, overflow) = current.addingReportingOverflow(Int64(n))
            let total = max(0, overflow ? (n > 0 ? Int64.max : 0) : sum)
            try database.prepare("INSERT OR REPLACE INTO badge (id, count) VALUES (1, ?1)").run([.integer(total)])
            return Int(total)
        }
    }

    /// Sets the badge to zero (payload `badge: 0`, or viewing the inbox).
    package func reset() throws {
        try database.transaction {
            try database.prepare("INSERT OR REPLACE INTO badge (id, count) VALUES (1, 0)").run()
        }
    }
}
