import Foundation

/// Each attendee's last reply applied, by event: an older reply, arriving later, changes
/// nothing (RFC 5546 §2.1.5 orders replies as versions too).
package struct ReplyVersions {
    let database: SQLiteDatabase

    /// The version (SEQUENCE, DTSTAMP in seconds) of the last reply of `attendee` applied.
    package func find(uid: String, attendee: String) throws -> (sequence: Int, stamp: Int64)? {
        try database.transaction(.deferred) {
            try database.prepare("SELECT sequence, stamp FROM reply_versions WHERE uid = ?1 AND attendee = ?2")
                .row([.text(uid), .text(attendee)]) { (sequence: Int($0.int(0)), stamp: $0.int(1)) }
        }
    }

    package func record(uid: String, attendee: String, sequence: Int, stamp: Int64) throws {
        try database.transaction {
            try database.prepare("""
                INSERT INTO reply_versions (uid, attendee, sequence, stamp) VALUES (?1, ?2, ?3, ?4)
                ON CONFLICT (uid, attendee) DO UPDATE SET sequence = ?3, stamp = ?4
                WHERE ?3 > sequence OR (?3 = sequence AND ?4 >= stamp)
                """).run([.text(uid), .text(attendee), .integer(Int64(sequence)), .integer(stamp)])
        }
    }
}

extension StateStore {
    /// The attendees' last replies applied.
    package var replyVersions: ReplyVersions { ReplyVersions(database: database) }
}
