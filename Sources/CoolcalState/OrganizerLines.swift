import Foundation

/// What the organizer last sent of each event coolcal wrote from an organizer's
/// REQUEST: per UID and RECURRENCE-ID (a key the writer makes of it, "" for the series),
/// the hashes of its lines and VALARM blocks as written. A line of the stored copy not
/// among them is the user's, carried into the next update (RFC 5546 §2.1.5, §3.2.2).
public struct OrganizerLines {
    let database: SQLiteDatabase

    /// The hashes recorded for `uid`, by recurrence key.
    public func find(uid: String) throws -> [String: Set<String>] {
        try database.transaction(.deferred) {
            var found: [String: Set<String>] = [:]
            _ = try database.prepare("SELECT recurrence, hashes FROM organizer_lines WHERE uid = ?1")
                .rows([.text(uid)]) { row -> Void in
                    let hashes = (row.text(1) ?? "").split(separator: " ").map(String.init)
                    found[row.text(0) ?? "", default: []].formUnion(hashes)
                }
            return found
        }
    }

    /// Remembers what the organizer sent of `uid`, replacing what was recorded for each
    /// recurrence key given (the others stay).
    public func record(uid: String, _ lines: [String: Set<String>], at date: Date) throws {
        try database.transaction {
            let statement = try database.prepare("""
                INSERT INTO organizer_lines (uid, recurrence, hashes, written_at) VALUES (?1, ?2, ?3, ?4)
                ON CONFLICT (uid, recurrence) DO UPDATE SET hashes = ?3, written_at = ?4
                """)
            for (recurrence, hashes) in lines.sorted(by: { $0.key < $1.key }) {
                try statement.run([.text(uid), .text(recurrence), .text(hashes.sorted().joined(separator: " ")),
                                   .real(date.timeIntervalSince1970)])
            }
        }
    }
}

extension StateStore {
    /// What organizers last sent of the events coolcal wrote.
    public var organizerLines: OrganizerLines { OrganizerLines(database: database) }
}
