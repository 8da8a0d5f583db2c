import Foundation
import CoolcalCalDAV
import CoolcalCalendars
import CoolcalCheck
import CoolcalICal
import CoolcalInvite
import CoolcalModel
import CoolcalSchedule
import CoolcalSpool
import CoolcalState
import CoolcalWriting

/// One `MergeRun` over the invitations it listed: the calendars read once for all their
/// windows, each invitation decided in order (`decide`), its change taken into the
/// batch in memory, and what to record and say of it kept as a `Settlement` until the
/// calendar is written (`MergeRun.settle`).
struct MergePass {
    let run: MergeRun
    let names: [String]
    let invites: [Result<InvitationFile, Error>]
    let check: ConflictCheck
    let target: CalendarLocation
    /// The calendar written to, locked and read once; nil with `--policy report`.
    let batch: CalendarBatch?
    let calendars: PreparedCalendars
    /// Where each message's UID already lives among the run's calendars (`UIDHomes`).
    let homes: UIDHomes
    /// The state answers are recorded in; nil with `--policy report`.
    let state: StateStore?
    let server: URL?
    var settlements: [Settlement] = []
    /// The last write into the batch that failed (its invitation stays pending).
    var failure: Error?
    private var acceptedThisRun: [Occurrence] = []
    /// Who `accept-from = known` admits, found when first asked.
    let known: KnownSenders
    /// `--policy report`: what each message would do to the calendar.
    let preview: ReportPreview?
    /// Invitations found in the calendars and held: free time here (`IgnoreReason.held`).
    let heldInCalendars: Set<String>

    init(run: MergeRun, items: [SpoolItem]) throws {
        let settings = run.store.settings
        let invites = items.map(\.loaded)
        let check = ConflictCheck(finder: ConflictFinder(buffer: settings.buffer(run.buffer), zone: settings.zone),
                                  reader: settings.reader)
        // One read of the calendars for the whole run, limited to the span of all windows.
        // (A reply is no time to check: its window, at its DTSTAMP when it names no time,
        // would only widen the read.)
        let windows = invites.compactMap { loaded in
            (try? loaded.get().invite).flatMap { $0.isAttendeeTraffic ? nil : check.finder.window(for: $0) }
        }
        // Nothing to check (replies, unreadable files only): nothing of the calendars to read.
        let envelope = windows.first.map { first in windows.dropFirst().reduce(first) { $0.union($1) } } ?? TimeWindow(start: 0, end: 1)
        let target = try settings.writeTarget(run.calendars[0], command: "merge")
        // The calendar written to is locked and read once, here: the same read decides
        // the invitations, takes every change in memory and is written once at the end.
        let expected = invites.compactMap { try? $0.get().change(me: settings.me, domain: settings.domain, now: settings.now) }
        let batch = run.policy == .report ? nil : try settings.writer.batch(for: target, windows: windows, expecting: expected)
        let others = run.calendars.map(CalendarLocation.init).dropFirst(batch?.loaded == nil ? 0 : 1)
        let uids = batch == nil ? [] : Set(invites.compactMap { try? $0.get().message?.uid })
        let state = run.policy == .report ? nil : try run.store.open()
        let memory = OrganizerMemory(lookIn: { state }, recordIn: { [store = run.store] in try state ?? store.open() }, now: settings.now)
        let homes = try UIDHomes(target: target, batch: batch, calendars: run.calendars, uids: uids, me: settings.me,
                                 writer: settings.writer, memory: memory)
        // Revisions worked out, and the series that can be placed placed, once for all
        // the windows (ExpansionPlan). Each invitation's window is then expanded on its
        // own: a simple rule jumps to the window (CivilRecurrence), libical's iterator
        // starts there unless the rule counts, a series placed once is expanded only in
        // the windows it reaches, so ten windows cost about ten windows, not the months
        // between them.
        calendars = check.reader.prepare((batch?.loaded.map { [$0] } ?? []) + (try check.reader.load(Array(others), window: envelope)))
        let inbox = try state ?? run.store.open()
        server = try run.store.server()
        heldInCalendars = try inbox.calendarInvitations.heldUIDs()
        // Into the inbox, all in one transaction, before any is answered. An update of a
        // stored event goes in once decided (`answer`): a forgery must not replace the
        // organizer's invitation there.
        try inbox.together {
            for case .success(let file) in invites where !file.invite.isCancellation && !file.invite.isAttendeeTraffic && !file.invite.isCounter
                && !(file.message.map { homes.stores(uid: $0.uid) } ?? false) {
                try inbox.inbox.record(file.invite, payload: String(decoding: file.text, as: UTF8.self), at: settings.now)
            }
        }
        self.run = run
        self.names = items.map(\.name)
        self.invites = invites
        self.check = check
        self.target = target
        self.batch = batch
        self.homes = homes
        self.state = state
        known = KnownSenders(calendars: run.calendars.map(CalendarLocation.init), state: state, me: settings.me)
        known.remote = (settings.environment, CalendarInvitationScan.window(now: settings.now))
        preview = run.policy == .report ? ReportPreview(target) : nil
    }

    /// Decides every invitation in order, taking accepted ones into the batch.
    mutating func decide() throws {
        for (name, loaded) in zip(names, invites) {
            switch loaded {
            case .failure(let error):
                var settled = Settlement(item: MergeItem(name: name, outcome: .failed, error: "\(error)"), written: false)
                settled.warning = "\(error)"
                if run.policy != .report {
                    settled.finished = MergeFinished(name: name, failed: true, outcome: .failed, note: "\(error)\n")
                }
                settlements.append(settled)
            case .success(let file) where file.invite.isReply:
                if let settled = try reply(file, name: name) { settlements.append(settled) }
            case .success(let file) where file.invite.isCounter:
                if let settled = try counter(file, name: name) { settlements.append(settled) }
            case .success(let file) where file.invite.isDeclineCounter:
                settlements.append(declinedCounter(file, name: name))
            case .success(let file) where file.invite.isCancellation:
                if let settled = try cancel(file, name: name) { settlements.append(settled) }
            case .success(let file):
                if let settled = try answer(file, name: name) { settlements.append(settled) }
            }
        }
        // An answer a later message of the same event overtook in this run is not mailed
        // (a REQUEST its CANCEL follows, a version its update follows).
        var appliedLater = Set<String>()
        for i in settlements.indices.reversed() {
            guard let invite = settlements[i].item.invite else { continue }
            settlements[i].superseded = appliedLater.contains(invite.id.text)
            if [.accepted, .declined, .cancelled].contains(settlements[i].item.outcome) || settlements[i].item.updateSaid != nil {
                appliedLater.insert(invite.id.text)
            }
        }
    }

    /// An invitation answered by policy; nil (and `failure` set) when its write failed.
    private mutating func answer(_ file: InvitationFile, name: String) throws -> Settlement? {
        let settings = run.store.settings
        let invite = file.invite
        let window = check.finder.window(for: invite)
        var occurrences = check.reader.expand(calendars, in: window)
        for i in occurrences.indices where heldInCalendars.contains(occurrences[i].uid ?? "") { occurrences[i].heldForYou = true }
        let report = check.report(invite, occurrences + acceptedThisRun)
        // What this message would do to the stored copy (nil: no batch, CalDAV): the same
        // version again is already in CAL, never busy with anything (issue 46, item 3).
        let before = (file.change(me: settings.me, domain: settings.domain, now: settings.now) as? ITIPChange).flatMap { batch?.preview($0) }
        let already = before?.outcome == .unchanged
        let accept = run.policy == .acceptAll || report.free || already
        // An update of a stored event (asked before this message's own write).
        let update = (file.message.map { homes.stores(uid: $0.uid) } ?? false) || before?.stored != nil
        // A genuine update is always written; the policy answers only my PARTSTAT in it.
        let moved = before.flatMap { b in b.outcome == .updated ? b.stored : nil }.map {
            UpdateAnswer.decide($0, policy: run.policy, free: run.policy == .acceptAll || report.free, conflicts: report.conflicts.count)
        }
        var item = MergeItem(name: name, outcome: .free, invite: invite, conflicts: report.conflicts.count)
        item.busyWith = report.conflicts.prefix(MergeItem.namedConflicts).map { ($0.occurrence.summary ?? "", $0.occurrence.start) }
        // What was written, for the state (`decline` undoes it).
        var wrote: (change: CalendarChange, outcome: WriteOutcome)?
        if run.policy == .report {
            item.outcome = report.free ? .free : .busy
            item.reportOnly = true
            let previewed = preview?.outcome(file.change(me: settings.me, domain: settings.domain, now: settings.now))
            if let held = held(file) ?? previewed.flatMap({ $0.heldReason == nil ? nil : $0 }) {
                item.outcome = .held
                item.write = held
            } else if previewed == .updated || previewed == .unchanged {
                // An update is written whatever the time holds (`would update`); the same
                // version again is already there.
                if previewed == .unchanged { item.outcome = .free }
                item.write = previewed
                item.target = target
            }
        } else if let held = held(file) {
            item.outcome = .held
            item.write = held
            item.target = target
        } else if let cancelled = try cancelledBefore(file) {
            // Its organizer cancelled it, in a later version, before it came.
            item.outcome = .ignored
            item.write = cancelled
            item.target = target
        } else if batch != nil, case .write(let partstat, let said, _, _)? = moved {
            // An update written with my PARTSTAT kept, back to NEEDS-ACTION, or DECLINED.
            let busy: OutcomeCode = run.policy == .declineBusy ? .declined : .busy
            guard let written = try applied(name, not: "answered", to: &item, { [homes, target] in
                try file.updateChange(me: settings.me, partstat: partstat).map { try homes.apply($0, window: window) } ?? (.unchanged, [target])
            }, else: { $0 == .updated ? .updated : busy }) else { return nil }
            if written == .updated {
                item.updateSaid = said
                item.reopened = partstat == "NEEDS-ACTION"
            } else if item.outcome == busy {
                item.write = nil
            }
        } else if accept || moved == .accept, batch != nil {
            if let warning = file.ownerWarning(me: settings.me) { settings.diagnostics.warn(warning) }
            // An older version than the calendar's is not an answer to record; one that may
            // not change the stored event is held for the person.
            let change = file.change(me: settings.me, domain: settings.domain, now: settings.now)
            guard let written = try applied(name, not: "answered", to: &item, { [homes] in try homes.apply(change, window: window) },
                                            else: { _ in .accepted }) else { return nil }
            wrote = (change, written)
            for instance in invite.checked where item.outcome == .accepted {
                acceptedThisRun.append(occurrence(of: invite, instance))
            }
        } else if batch != nil, let held = homes.held(file.change(me: settings.me, domain: settings.domain, now: settings.now)) {
            // Not the organizer's word: neither declined (no mail to whoever sent it) nor busy.
            item.outcome = .held
            item.write = held
            item.target = target
        } else {
            item.outcome = run.policy == .declineBusy ? .declined : .busy
        }
        // What is recorded (and mailed): an accept, a decline, or an update declined by policy.
        var answered: Answer? = item.outcome == .accepted ? .accepted : item.outcome == .declined ? .declined : nil
        if item.outcome == .updated, case .write(_, _, let answer, _)? = moved { answered = answer }
        // RSVP=FALSE on my ATTENDEE: the organizer asked for no answer; it is recorded, not mailed.
        let asked = file.message?.attendee(me: settings.me)?.rsvp != false
        item.noReplyAsked = !asked && run.reply && run.policy != .report && answered != nil
        var settled = Settlement(item: item, written: [.accepted, .ignored, .updated].contains(item.outcome))
        if run.policy != .report {
            // Its note is written out while the calendar is written (MergeRun.settle).
            settled.finished = MergeFinished(name: name, failed: false, outcome: item.outcome, note: "")
            settled.conflicts = report
        }
        settled.record = { [run, state, server, places = item.places, outcome = item.outcome, wrote, held = item.write?.heldReason,
                            reopened = item.reopened] mail in
            if let state, update, outcome != .ignored {
                // An update in the inbox: the organizer's own under its UID; a held one beside it.
                var summary = invite.summary
                if held != nil { summary.id = InboxID.heldUpdate(summary.id) }
                try state.inbox.record(summary, payload: String(decoding: file.text, as: UTF8.self), at: settings.now)
            }
            if let state, let held { return try state.senders.markHeld(id: update ? InboxID.heldUpdate(invite.id.text) : invite.id.text, held) }
            // Moved where I am busy: my answer no longer holds, the entry waits for a new one.
            if let state, reopened { try state.inbox.reopen(id: invite.id.text, at: settings.now) }
            guard let state, let answer = answered else { return }
            let recorded = try state.recordAnswer(answer, for: invite, comment: nil, at: settings.now, queueFor: server)
            if outcome == .accepted, let wrote {
                for place in places {
                    try WrittenEvents.remember(wrote.change, wrote.outcome, invite: invite, answer: .accepted, target: place,
                                               store: state, settings: settings)
                }
            }
            if run.reply && mail && asked, let reply = try run.mailReply(file, accepted: answer == .accepted, name: name) {
                try run.store.queue(reply, responseKey: recorded.key, inviteID: invite.id.text, state)
            }
        }
        return settled
    }

    /// An organizer's cancellation applied to the batch; nil (and `failure` set) when it
    /// could not be.
    private mutating func cancel(_ file: InvitationFile, name: String) throws -> Settlement? {
        let settings = run.store.settings
        let change = { file.change(me: settings.me, domain: settings.domain, now: settings.now) }
        // A cancellation of other attendees only leaves my copy as it was: no action.
        let cancelled = { (written: WriteOutcome) -> OutcomeCode in
            if case .othersCancelled = written { return .noAction }
            return .cancelled
        }
        var item = MergeItem(name: name, outcome: .cancelled, invite: file.invite, target: target)
        item.reportOnly = batch == nil
        let outcome: WriteOutcome
        if batch != nil, let held = trust.failedAuthentication(file) ?? trust.noSender(file) {
            outcome = held
        } else if batch != nil {
            let window = check.finder.window(for: file.invite)
            guard let written = try applied(name, to: &item, { [homes] in try homes.apply(change(), window: window) },
                                            else: cancelled) else { return nil }
            // Not stored: only its From can vouch for it (a SENT-BY it writes about itself cannot).
            outcome = written == .absent ? trust.identity(file) ?? written : written
        } else {
            outcome = preview?.outcome(change()) ?? .unchanged
        }
        item.said(outcome, in: item.places, else: cancelled)
        let code = item.outcome
        var settled = Settlement(item: item, written: batch != nil && code != .held)
        // Both parts in one record: only `tombstone`'s own guard keeps a held cancellation
        // from burying the event's later invitations (HeldCancellationTests).
        let tombstone = batch == nil ? nil : tombstone(file, outcome)
        if let state, tombstone != nil || outcome.heldReason != nil {
            settled.record = { [settings, held = outcome.heldReason] _ in
                if let tombstone {
                    try state.tombstones.record(uid: tombstone.uid, organizer: tombstone.organizer, sequence: tombstone.version.sequence,
                                                stamp: tombstone.version.stamp, at: settings.now)
                }
                if let held {
                    // In the inbox for the person, under its own entry (the invitation keeps its own).
                    var summary = file.invite.summary
                    summary.id = InboxID.heldCancellation(summary.id)
                    try state.inbox.record(summary, payload: String(decoding: file.text, as: UTF8.self), at: settings.now)
                    try state.senders.markHeld(id: summary.id, held)
                }
            }
        }
        if batch != nil {
            settled.finished = MergeFinished(name: name, failed: false, outcome: code,
                                             note: run.notes.cancelled(code, outcome, item.target ?? target, settings.now))
        }
        return settled
    }

    /// The one way a message's change reaches the calendars: `apply` takes it in (where its
    /// UID lives, or into the batch alone) and `item` says what became of it (`said`: the
    /// write, where it went, held, ignored when stale, else `code` of it). Nil, with
    /// `failure` set and the message left pending (`NAME: not VERB, left pending: …`), when
    /// a calendar could not be written.
    mutating func applied(_ name: String, not verb: String = "applied", to item: inout MergeItem,
                          _ apply: () throws -> (WriteOutcome, [CalendarLocation]),
                          else code: (WriteOutcome) -> OutcomeCode) throws -> WriteOutcome? {
        do {
            let (written, places) = try apply()
            item.said(written, in: places, else: code)
            return written
        } catch where CalendarWriteFailure.matches(error) {
            run.store.settings.diagnostics.warn("\(name): not \(verb), left pending: \(error)")
            failure = error
            return nil
        }
    }

    /// Held `too long` or `too many instances a day` (`OutsizeCheck`); nil when neither.
    func outsized(_ invite: Invite) -> WriteOutcome? {
        let settings = run.store.settings
        return OutsizeCheck(maxDuration: settings.maxDuration, zone: settings.zone, finder: check.finder).held(invite)
    }

    /// An invitation accepted in this run, as busy time for the next ones.
    private func occurrence(of invite: Invite, _ instance: InviteInstance) -> Occurrence {
        let uid: String
        switch invite.id {
        case .number(let n): uid = "coolcal-invite-\(n)"
        case .uid(let s): uid = s
        }
        var single = invite.first
        single.start = instance.start
        single.end = instance.end
        let span = check.finder.span(of: single)
        return Occurrence(uid: uid, recurrenceID: nil, summary: invite.title,
                          calendar: target.name, calendarColor: nil, start: instance.start,
                          end: instance.end, startInstant: span.start, endInstant: span.end, allDay: single.allDay,
                          transparent: false, status: "CONFIRMED", declinedByOwner: false, inviteID: invite.id.text)
    }
}
