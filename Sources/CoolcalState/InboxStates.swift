import Foundation
import CoolcalModel

/// Where an inbox entry's event stands now (`inbox --json`'s `state`).
package enum InboxState: String, Equatable, Sendable, CaseIterable {
    /// The newest word on it.
    case current
    /// A newer version arrived after you answered.
    case updated
    /// Its organizer cancelled it.
    case cancelled
    /// A later message of the same event (a held update or cancellation, an attendee's
    /// reply) came after this one.
    case superseded
}

/// Works out each inbox entry's `InboxState` from the rest of the state: the answers'
/// times, the cancellations remembered (`tombstones`), and the entries received later.
struct InboxStates {
    let database: SQLiteDatabase

    func annotate(_ entries: inout [InboxEntry]) throws {
        var answered: [String: Double] = [:]
        _ = try database.prepare("""
            SELECT invite_id, max(answered_at) FROM responses WHERE answer IN ('accepted', 'declined', 'tentative') GROUP BY invite_id
            """).rows { row -> Void in
            if let id = row.text(0) { answered[id] = row.double(1) }
        }
        // What each was when last answered (the latest accept, decline or tentative).
        var was: [String: (start: String, end: String)] = [:]
        _ = try database.prepare("""
            SELECT invite_id, start, "end" FROM responses WHERE answer IN ('accepted', 'declined', 'tentative') ORDER BY id
            """).rows { row -> Void in
            if let id = row.text(0), let start = row.text(1), let end = row.text(2) { was[id] = (start, end) }
        }
        // Moved where I am busy: the answer no longer holds (until the next one).
        var reopened = Set<String>()
        _ = try database.prepare("SELECT id FROM invitations WHERE reopened_at IS NOT NULL").rows { row -> Void in
            if let id = row.text(0) { reopened.insert(id) }
        }
        var cancelled = Set<String>()
        _ = try database.prepare("SELECT uid FROM tombstones").rows { row -> Void in
            if let uid = row.text(0) { cancelled.insert(uid) }
        }
        // The latest entry received for each event (and, for replies, each attendee).
        var latest: [String: (received: Date, number: Int64)] = [:]
        for e in entries {
            let key = Self.event(of: e)
            if let seen = latest[key], (seen.received, seen.number) >= (e.receivedAt, e.number) { continue }
            latest[key] = (e.receivedAt, e.number)
        }
        for i in entries.indices {
            let e = entries[i]
            let uid = Self.uid(of: e)
            if let newest = latest[Self.event(of: e)], newest.number != e.number, e.kind != .invitation || e.id != uid {
                entries[i].state = .superseded
            } else if cancelled.contains(uid) && e.kind != .reply {
                entries[i].state = .cancelled
            } else if let at = answered[e.id], e.receivedAt.timeIntervalSince1970 > at || reopened.contains(e.id) {
                entries[i].state = .updated
            }
            if reopened.contains(e.id) && e.answer != .comment { entries[i].answer = nil }
            if entries[i].state == .updated, let times = was[e.id], times != (e.start.jsonString, e.end.jsonString),
               let start = try? InviteDate.parse(times.start), let end = try? InviteDate.parse(times.end) {
                entries[i].wasStart = start
                entries[i].wasEnd = end
            }
        }
    }

    static func uid(of e: InboxEntry) -> String { InboxID.uid(of: e.id, kind: e.kind) }

    /// What a later entry supersedes: the event, and for a reply its attendee.
    static func event(of e: InboxEntry) -> String {
        e.kind == .reply ? "reply " + uid(of: e) + " " + (e.organizer ?? "") : "event " + uid(of: e)
    }
}
