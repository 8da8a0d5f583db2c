import Foundation
import CoolcalCalendars
import CoolcalCheck
import CoolcalInvite
import CoolcalModel
import CoolcalSchedule
import CoolcalState
import CoolcalSupport
import CoolcalWriting

/// `merge --calendar-invitations` (issue 49): the invitations a scheduling server (or a
/// vdirsyncer sync) put straight into the calendars, found pending there
/// (`PendingInvitations`) from now to a year ahead and recorded in the inbox with the
/// calendar they live in. The trust rules that apply without mail hold them — `unknown
/// sender` (ORGANIZER against known), `too long`, `too many instances a day` — and a
/// held one is free for the conflict checks of the others (`IgnoreReason.held`).
/// Each version (`PendingInvitation.rememberedKey`) is decided once.
package struct CalendarInvitationScan {
    package let store: AnswerStore
    /// The calendar operands, all read.
    package let calendars: [String]
    package var policy: MergePolicy = .acceptIfFree
    package var buffer: Buffer?
    /// `review`'s scan: what it finds is recorded (a held one marked held) for the person
    /// to answer; nothing is answered nor remembered, so `merge`'s policy still decides it.
    package var recordOnly = false
    /// How far ahead an event's instance makes it pending.
    package static let horizon: TimeInterval = 365 * 86_400

    package init(store: AnswerStore, calendars: [String]) {
        self.store = store
        self.calendars = calendars
    }

    /// What the scan looks at: from now to `horizon` ahead (and what a CalDAV calendar's
    /// people are read over, for "known").
    package static func window(now: Date) -> TimeWindow {
        let start = Int64(now.timeIntervalSince1970)
        return TimeWindow(start: start, end: start + Int64(horizon))
    }

    /// Finds, decides and records the pending invitations; `report` gets each new one.
    package func run(report: (MergeItem) -> Void) throws {
        let settings = store.settings
        let window = Self.window(now: settings.now)
        let locations = calendars.map(CalendarLocation.init)
        let reader = settings.reader
        let loaded = try reader.load(locations, window: window)
        var occurrences = reader.expand(loaded, in: window)
        let me = Set(settings.me.map(CalendarAddress.normalized))
        let pending = PendingInvitations.find(in: loaded, me: me, occurrences: occurrences)
        settings.diagnostics.note("\(pending.count) invitation\(pending.count == 1 ? "" : "s") pending in the calendars")
        guard !pending.isEmpty else { return }
        let state = policy == .report ? nil : try store.open()
        let finder = ConflictFinder(buffer: settings.buffer(buffer), zone: settings.zone)
        let check = ConflictCheck(finder: finder, reader: reader)
        let known = KnownSenders(calendars: locations, state: state, me: settings.me)
        known.remote = (settings.environment, window)
        let trust = SenderTrust(settings: settings, known: known)
        let outsize = OutsizeCheck(maxDuration: settings.maxDuration, zone: settings.zone, finder: finder)
        // Held first, all of them: a held one is free for every other's check.
        let decided = pending.map { found -> (PendingInvitation, Invite, WriteOutcome?) in
            let invite = Self.invite(found)
            return (found, invite, trust.admitted(CalendarAddress.normalized(found.organizer)) ?? outsize.held(invite))
        }
        let held = Set(decided.filter { $0.2 != nil }.map { "\($0.0.calendar)\n\($0.0.uid)" })
        for i in occurrences.indices where held.contains("\(occurrences[i].calendar)\n\(occurrences[i].uid ?? "")") {
            occurrences[i].heldForYou = true
        }
        for (found, invite, heldOutcome) in decided {
            if let state, try state.calendarInvitations.knows(found.rememberedKey) { continue }
            let conflicts = check.report(invite, occurrences)
            var item = MergeItem(name: "[in \(found.calendar)]", outcome: conflicts.free ? .free : .busy, invite: invite,
                                 conflicts: conflicts.conflicts.count)
            item.busyWith = conflicts.conflicts.prefix(MergeItem.namedConflicts).map { ($0.occurrence.summary ?? "", $0.occurrence.start) }
            item.reportOnly = policy == .report
            if let heldOutcome {
                item.outcome = .held
                item.write = heldOutcome
            }
            if let state {
                let location = Self.location(of: found.calendar, in: locations)
                let payload = location.flatMap { CalendarCopy.text(uid: found.uid, at: $0, settings: settings) } ?? ""
                var summary = invite.summary
                summary.foundIn = found.calendar
                try state.together {
                    try state.inbox.record(summary, payload: payload, at: settings.now)
                    try state.senders.markHeld(id: summary.id, heldOutcome?.heldReason)
                }
                // The policy answers it in place; a write that fails leaves it pending, not remembered.
                if heldOutcome == nil, !recordOnly, let kind = decision(free: conflicts.free), let location {
                    do {
                        let written = try InPlaceAnswer(writer: settings.writer, me: settings.me)
                            .answer(uid: found.uid, at: location, partstat: kind.partstat ?? "ACCEPTED",
                                    stamp: FoundAnswer.stamp(settings.now), comment: nil)
                        if case .edited = written {
                            try state.recordAnswer(kind.answer, for: summary, comment: nil, at: settings.now, queueFor: nil)
                            item.outcome = kind == .accept ? .accepted : .declined
                        }
                    } catch where error is WriteError {
                        settings.diagnostics.warn("\(item.name) \(found.uid): not answered, left pending: \(error)")
                        report(item)
                        continue
                    }
                }
                if !recordOnly {
                    try state.calendarInvitations.remember(found.rememberedKey, inviteID: summary.id, calendar: found.calendar, at: settings.now)
                }
            }
            report(item)
        }
    }

    /// What the policy does with an unheld pending invitation: accept it (accept-all, or
    /// accept-if-free when free), decline it (decline-busy when busy), or nothing (report,
    /// or busy under accept-if-free: it waits for the person).
    func decision(free: Bool) -> AnswerKind? {
        switch policy {
        case .acceptAll: return .accept
        case .acceptIfFree: return free ? .accept : nil
        case .declineBusy: return free ? .accept : .decline
        case .report: return nil
        }
    }

    /// Where the calendar labelled `label` (`CalendarReader`'s: a location's name, or
    /// `TOP/SUB` for a vdir of a tree) lives.
    static func location(of label: String, in locations: [CalendarLocation]) -> CalendarLocation? {
        for location in locations {
            if location.name == label { return location }
            if case .vdir(let top) = location, label.hasPrefix(location.name + "/") {
                return .vdir(top + "/" + label.dropFirst(location.name.count + 1))
            }
        }
        return nil
    }

    /// The invitation an event found pending stands for: its instances in the window.
    static func invite(_ found: PendingInvitation) -> Invite {
        let first = found.occurrences.first
        return Invite.found(uid: found.uid, title: found.summary ?? "", start: first?.start ?? .instant(0),
                            end: first?.end ?? .instant(0), source: found.calendar,
                            organizer: CalendarAddress.normalized(found.organizer),
                            instances: found.occurrences.count > 1 ? found.occurrences.map { ($0.start, $0.end) } : [])
    }
}
