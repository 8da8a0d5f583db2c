import Foundation
import CoolcalICal
import CoolcalInvite
import CoolcalModel
import CoolcalState
import CoolcalWriting

/// What the state remembers after an accept wrote a calendar (`accept`, `merge`): the
/// calendar, the event's UID and, when the block is coolcal's own, its `EventHash` as
/// the calendar now holds it — what `decline` compares before removing it. An empty
/// hash (iTIP, or a block with the user's edits in it) is never matched.
package enum WrittenEvents {
    package static func remember(_ change: CalendarChange, _ outcome: WriteOutcome, invite: Invite, answer: Answer,
                                 target: CalendarLocation, store: StateStore, settings: AnswerSettings) throws {
        let key = AnswerSettings.stateKey(target)
        let previous = try store.written(inviteID: invite.id.text).first { $0.calendar == key }
        var ours = false
        var hash: String?
        if let push = change as? PushAnswerChange {
            ours = push.isOurs
            hash = push.hash
        } else if let event = change as? NewEvent {
            // `merge`: a new block is exactly what `ICalWriter` made of the event.
            if outcome == .added {
                ours = true
                hash = EventHash.of(Array(ICalWriter.vevent(event).utf8))
            } else if let previous {
                // Unchanged, or replaced by a newer payload: keep what was known.
                guard outcome == .unchanged else { return try forget(previous, store) }
                return
            }
        }
        if ours, case .remote(let url) = target {
            // The server may have re-serialized it: the hash of what it holds now.
            hash = try settings.writer.storedHash(uid: change.uid, marker: change.marker, at: url)
        }
        let kept = ours ? hash ?? "" : ""
        try store.recordWritten(WrittenEvent(inviteID: invite.id.text, calendar: key, uid: change.uid, hash: kept,
                                             answer: answer, writtenAt: settings.now))
        settings.diagnostics.note("\(store.databasePath): remembered \(invite.id.text) in \(target.shown)" + (kept.isEmpty ? "" : " (block \(kept))"))
    }

    /// A replaced block is no longer the one hashed: it stays, declined in place.
    private static func forget(_ previous: WrittenEvent, _ store: StateStore) throws {
        var changed = previous
        changed.hash = ""
        try store.recordWritten(changed)
    }
}
