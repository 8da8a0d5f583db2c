import CoolcalInvite
import CoolcalModel
import CoolcalSpool
import CoolcalState
import CoolcalWriting

/// The organizer's side (RFC 5546 §3.2.3): an attendee's `METHOD:REPLY` in the spool
/// updates that attendee's answer in the event the user organises (`ReplyChange`), and
/// is listed in the inbox ("Bob accepted Team sync"). It is never a failure and never
/// mailed about: a reply to an event the user does not organise is `no action`, quiet;
/// one from someone not invited, or mailed by someone else, is held.
extension MergePass {
    mutating func reply(_ file: InvitationFile, name: String) throws -> Settlement? {
        let settings = run.store.settings
        guard let message = file.message else { return nil }
        let change = ReplyChange(message: message, me: settings.me, sender: CalendarAddress.sender(of: file.invite.mail))
        let version = ProtocolOrder.version(file)?.version
        var item = MergeItem(name: name, outcome: .noAction, invite: file.invite, target: target)
        let replied = { (written: WriteOutcome) -> OutcomeCode in written == .updated ? .updated : .noAction }
        if batch == nil {
            item.reportOnly = true
            if let previewed = preview?.outcome(change) { item.said(previewed, in: [target], else: replied) }
        } else if let held = trust.failedAuthentication(file) ?? trust.noSender(file) {
            item.outcome = .held
            item.write = held
        } else if let answer = change.answer, let version, let state,
                  let last = try state.replyVersions.find(uid: message.uid, attendee: answer.attendee),
                  version < ProtocolOrder.Version(sequence: last.sequence, stamp: last.stamp, cancel: false) {
            item.outcome = .ignored
            item.write = .stale("an older reply of \(answer.attendee) than one applied before")
        } else if batch != nil {
            let window = check.finder.window(for: file.invite)
            guard try applied(name, to: &item, { [homes] in try homes.apply(change, window: window) }, else: replied) != nil else { return nil }
            if item.outcome == .updated { item.replySaid = change.tally.said }
        }
        var settled = Settlement(item: item, written: item.outcome == .updated)
        guard batch != nil else { return settled }
        settled.finished = MergeFinished(name: name, failed: false, outcome: item.outcome,
                                         note: run.notes.cancelled(item.outcome, item.write ?? .absent, item.target ?? target, settings.now))
        // The organizer's copy answers for it: only a reply to an event of mine is news.
        let mine = item.write != nil && item.write != .absent
        settled.record = { [state, outcome = item.outcome, held = item.write?.heldReason] _ in
            guard let state, mine, let answer = change.answer else { return }
            if outcome == .updated || outcome == .noAction, let version {
                try state.replyVersions.record(uid: message.uid, attendee: answer.attendee, sequence: version.sequence, stamp: version.stamp)
            }
            var summary = file.invite.summary
            summary.id = InboxID.reply(message.uid, attendee: answer.attendee, stamp: version?.stamp ?? 0)
            summary.kind = .reply
            summary.organizer = answer.attendee
            summary.partstat = answer.partstat
            summary.delegatedTo = answer.delegatedTo
            try state.inbox.record(summary, payload: String(decoding: file.text, as: UTF8.self), at: settings.now)
            if let held { try state.senders.markHeld(id: summary.id, held) }
        }
        return settled
    }
}
