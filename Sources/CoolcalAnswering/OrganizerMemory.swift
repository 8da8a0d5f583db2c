import Foundation
import CoolcalState
import CoolcalWriting

/// What organizers last sent of the events a run writes (the state's `OrganizerLines`,
/// issue 44): looked up once per UID and given to each organizer's update before it is
/// applied (`UserData` tells the user's lines by it); what each applied update sent is
/// known to the run at once (a second update of the UID in one run compares with the
/// first) and recorded in the state by `flush`, once the calendars hold it. A record of
/// a version no calendar holds (a write that failed) is never used: it must name the
/// stored copy's own DTSTAMP and SEQUENCE.
final class OrganizerMemory {
    /// The state to look in (nil: none yet, and none is made to look) and the one to record in.
    private let lookIn: () throws -> StateStore?
    private let recordIn: () throws -> StateStore
    private let now: Date
    private var known: [String: [String: Set<String>]] = [:]
    private var pending: [String: [String: Set<String>]] = [:]

    init(lookIn: @escaping () throws -> StateStore?, recordIn: @escaping () throws -> StateStore, now: Date) {
        self.lookIn = lookIn
        self.recordIn = recordIn
        self.now = now
    }

    /// `change` with what its organizer last sent, when it is an organizer's message.
    func prepared(_ change: CalendarChange) throws -> CalendarChange {
        guard var itip = change as? ITIPChange, !itip.cancel else { return change }
        if known[itip.uid] == nil { known[itip.uid] = try lookIn()?.organizerLines.find(uid: itip.uid) ?? [:] }
        itip.organizerSent = known[itip.uid] ?? [:]
        return itip
    }

    /// Remembers what `change` sent when `outcome` says it was written.
    func wrote(_ change: CalendarChange, _ outcome: WriteOutcome) {
        guard let itip = change as? ITIPChange, outcome == .added || outcome == .updated else { return }
        let sent = itip.organizerLines()
        guard !sent.isEmpty else { return }
        known[itip.uid, default: [:]].merge(sent) { $1 }
        pending[itip.uid, default: [:]].merge(sent) { $1 }
    }

    /// Records in the state what the run wrote.
    func flush() throws {
        guard !pending.isEmpty else { return }
        let state = try recordIn()
        for (uid, lines) in pending.sorted(by: { $0.key < $1.key }) {
            try state.organizerLines.record(uid: uid, lines, at: now)
        }
        pending = [:]
    }
}
