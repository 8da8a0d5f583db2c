import Foundation
import CoolcalModel

/// The events their organizers cancelled, by UID: the version of the cancellation
/// (SEQUENCE, DTSTAMP as seconds) and who sent it. An older invitation that arrives after
/// its cancellation — in a later run, when the calendar never held the event — is then
/// ignored, not accepted (RFC 5546 §2.1.5). Only cancellations that passed the trust
/// rules are kept here.
package struct Tombstones {
    let database: SQLiteDatabase

    /// The cancellation of `uid`, if one was seen.
    package func find(uid: String) throws -> (organizer: String, sequence: Int, stamp: Int64)? {
        try database.transaction(.deferred) {
            try database.prepare("SELECT organizer, sequence, stamp FROM tombstones WHERE uid = ?1")
                .row([.text(uid)]) { (organizer: $0.text(0) ?? "", sequence: Int($0.int(1)), stamp: $0.int(2)) }
        }
    }

    /// Remembers a cancellation; of two for one UID the newer version stays.
    package func record(uid: String, organizer: String, sequence: Int, stamp: Int64, at date: Date) throws {
        try database.transaction {
            try database.prepare("""
                INSERT INTO tombstones (uid, organizer, sequence, stamp, cancelled_at) VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT (uid) DO UPDATE SET organizer = ?2, sequence = ?3, stamp = ?4, cancelled_at = ?5
                WHERE ?3 > sequence OR (?3 = sequence AND ?4 >= stamp)
                """).run([.text(uid), .text(organizer), .integer(Int64(sequence)), .integer(stamp),
                          .real(date.timeIntervalSince1970)])
        }
    }
}

extension StateStore {
    /// The cancellations seen.
    package var tombstones: Tombstones { Tombstones(database: database) }
}
