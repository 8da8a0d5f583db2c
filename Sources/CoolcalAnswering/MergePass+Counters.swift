import CoolcalInvite
import CoolcalModel
import CoolcalSpool
import CoolcalState
import CoolcalWriting

/// The organizer's side of a counter-proposal (RFC 5546 §3.2.7): an attendee's
/// `METHOD:COUNTER` for an event the user organises is checked (from an attendee of it,
/// not for an older SEQUENCE), its proposed time checked against the calendars, and
/// recorded in the inbox (`proposed`) for the person: `accept N` moves the event,
/// `reply --decline-counter N` says no. Nothing is written or mailed here. A counter for
/// an event the user does not organise is `no action`; one from someone not invited is
/// held. A `DECLINECOUNTER` (the organizer's no to the user's own proposal) is `no action`.
extension MergePass {
    mutating func counter(_ file: InvitationFile, name: String) throws -> Settlement? {
        let settings = run.store.settings
        guard let message = file.message else { return nil }
        let invite = file.invite
        let proposer = CounterDecision.proposer(file)
        let window = check.finder.window(for: invite)
        let report = check.report(invite, check.reader.expand(calendars, in: window))
        var item = MergeItem(name: name, outcome: .noAction, invite: invite, conflicts: report.conflicts.count)
        if batch == nil {
            item.reportOnly = true
        } else if let held = trust.failedAuthentication(file) ?? trust.noSender(file) {
            item.outcome = .held
            item.write = held
        } else if let batch {
            let change = CounterChange(message: message, start: invite.start, end: invite.end, me: settings.me,
                                       proposer: proposer, apply: false, now: settings.now)
            // Checked against the organizer's copy in the calendar written to, never written.
            guard try applied(name, to: &item, { [target] in (try batch.apply(change), [target]) },
                              else: { $0 == .unchanged ? .proposed : .noAction }) != nil else { return nil }
            if item.write == .absent, let held = strangerCounter(file, proposer: proposer) {
                (item.write, item.outcome) = (held, .held)
            }
        }
        var settled = Settlement(item: item, written: false)
        guard batch != nil else { return settled }
        settled.finished = MergeFinished(name: name, failed: false, outcome: item.outcome,
                                         note: run.notes.answered(item.outcome, report, settings.now))
        let recorded = item.outcome == .proposed || item.outcome == .held
        settled.record = { [state, held = item.write?.heldReason] _ in
            guard let state, recorded, let summary = CounterDecision.summary(file) else { return }
            try state.inbox.record(summary, payload: String(decoding: file.text, as: UTF8.self), at: settings.now)
            if let held { try state.senders.markHeld(id: summary.id, held) }
        }
        return settled
    }

    /// A counter-proposal for an event I do not hold, mailed by someone other than the
    /// attendee it proposes for, or by someone `accept-from` does not admit: held, so that
    /// nobody it names becomes someone coolcal answers. Nil when it is merely not mine.
    func strangerCounter(_ file: InvitationFile, proposer: String) -> WriteOutcome? {
        guard file.invite.mail != nil else { return nil }
        let named = file.message?.versions.flatMap(\.attendees).map { CalendarAddress.normalized($0.address) } ?? []
        if !named.isEmpty && !named.contains(proposer) {
            return .held(.notFromOrganizer, "mailed by \(proposer); the proposal is \(named[0])'s")
        }
        return trust.admitted(proposer)
    }

    /// The organizer's refusal of a proposal of the user's: nothing to do, said quietly.
    func declinedCounter(_ file: InvitationFile, name: String) -> Settlement {
        var item = MergeItem(name: name, outcome: .noAction, invite: file.invite)
        item.reportOnly = batch == nil
        var settled = Settlement(item: item, written: false)
        if batch != nil {
            settled.finished = MergeFinished(name: name, failed: false, outcome: .noAction,
                                             note: "the organizer declined a counter-proposal\n")
        }
        return settled
    }
}
