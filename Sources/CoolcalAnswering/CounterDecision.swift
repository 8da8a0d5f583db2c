import Foundation
import CoolcalICal
import CoolcalInvite
import CoolcalModel
import CoolcalRSVP
import CoolcalSchedule
import CoolcalState
import CoolcalWriting

/// The organizer's decision on an attendee's counter-proposal (RFC 5546 §3.2.7): `accept
/// N` on the inbox's counter entry moves the event the user organises to the proposed
/// time (only the times; SEQUENCE + 1, `CounterChange`) and, with `--reply`, mails the
/// updated REQUEST to every attendee (asked again, NEEDS-ACTION, when the time moved); `reply --decline-counter N`
/// builds the DECLINECOUNTER for the one attendee who proposed (`decline`).
package struct CounterDecision {
    package let file: InvitationFile
    package let store: AnswerStore

    package init(file: InvitationFile, store: AnswerStore) {
        self.file = file
        self.store = store
    }

    /// Who proposes: the mail's From (a COUNTER's ATTENDEE is optional); the counter's
    /// first ATTENDEE when it did not come by mail.
    package static func proposer(_ file: InvitationFile) -> String {
        if let sender = CalendarAddress.sender(of: file.invite.mail) { return sender }
        return file.message?.attendees.first.map(CalendarAddress.normalized) ?? ""
    }

    /// The counter as its inbox entry: merge's id, kind counter, the proposer as its
    /// organizer; nil when it is no iTIP message.
    package static func summary(_ file: InvitationFile) -> InvitationSummary? {
        guard let id = entryID(file) else { return nil }
        var summary = file.invite.summary
        summary.id = id
        summary.kind = .counter
        summary.organizer = proposer(file)
        return summary
    }

    /// The inbox entry `merge` records the counter under.
    package static func entryID(_ file: InvitationFile) -> String? {
        guard let message = file.message else { return nil }
        let stamp = ProtocolOrder.version(file)?.version.stamp ?? 0
        return InboxID.counter(message.uid, attendee: proposer(file), stamp: stamp)
    }

    /// Moves the event in `calendar` (the first operand, or the config's) to the proposed
    /// time; `reply`: mails the update to the attendees.
    package func accept(calendar: String, reply: Bool, report: (AnswerOutcome) -> Void) throws {
        let settings = store.settings
        guard let message = file.message else { return }
        let invite = file.invite
        let target = try settings.writeTarget(calendar, command: "accept")
        let change = CounterChange(message: message, start: invite.start, end: invite.end, me: settings.me,
                                   proposer: Self.proposer(file), apply: true, now: settings.now)
        if reply { _ = try store.sendmail() }
        let window = ConflictFinder(buffer: Buffer(days: 0, seconds: 0), zone: settings.zone).window(for: invite)
        let outcome = try settings.writer.write(change: change, to: target, window: window)
        switch outcome {
        case .held(let reason, let detail):
            return report(.held(invite, reason, detail: detail, target: target))
        case .absent:
            throw InviteError(file: invite.source, message: "no event of yours with UID \(message.uid) in \(target.shown); nothing to move")
        case .stale:
            return report(.accepted(.ignored, invite, write: outcome, target: target))
        default:
            report(.accepted(.moved, invite, write: outcome, target: target))
        }
        let state = try store.open()
        if let summary = Self.summary(file) {
            try state.recordAnswer(.accepted, for: summary, comment: nil, at: settings.now, queueFor: nil)
        }
        guard reply else { return }
        let produced = change.produced
        guard let request = ITIPMessage.request(events: produced.events, zones: produced.zones, rescheduled: produced.rescheduled) else {
            throw InviteError(file: target.shown, message: "the moved event \(message.uid) could not be read back for the update; not mailed")
        }
        let mail = try AnswerStore.mail(command: settings.command) { () throws(MailReply.Failure) in
            try MailReply.update(uid: message.uid, title: invite.title, request: request, sequence: produced.sequence,
                                 attendees: produced.attendees, me: settings.me, now: settings.now, domain: settings.domain,
                                 name: settings.name)
        }
        guard let mail else {
            return settings.diagnostics.warn("\(invite.source): the event has no attendees to tell; nothing mailed")
        }
        try store.queue(mail, responseKey: nil, inviteID: message.uid, state)
        try store.deliver(state)
    }

    /// `reply --decline-counter`: the DECLINECOUNTER for the attendee who proposed (RFC
    /// 5546 §3.2.8), never for a held counter (its sender is not one coolcal answers: 65).
    /// `entry`: the operand that named it (the inbox's number). With `send` it is mailed
    /// and its inbox entry recorded as declined (`fate`: how the mail stands); else only built.
    package func decline(entry: String, comment: String?, send: Bool, lockTimeout: TimeInterval) throws -> (mail: MailReply, fate: MailFate?) {
        let settings = store.settings
        let invite = file.invite
        guard invite.isCounter else {
            throw InviteError(file: invite.source, message: "is not a counter-proposal (METHOD:COUNTER); --decline-counter answers one from the inbox")
        }
        let attendee = Self.proposer(file)
        // Held (not an attendee of your event, failed authentication): never mailed to.
        if store.hasState, let held = try store.open().inbox.entry(named: entry)?.held {
            throw InviteError(file: invite.source, message: "is held (\(held.rawValue)): its sender is not one coolcal answers; nothing is printed or mailed")
        }
        let mail = try AnswerStore.mail(command: "reply") { () throws(MailReply.Failure) in
            try MailReply.declineCounter(file, attendee: attendee, me: settings.me, comment: comment, now: settings.now,
                                         domain: settings.domain, name: settings.name)
        }
        guard send else { return (mail, nil) }
        let record = Self.summary(file).map { SentRecord.refusal($0, comment: comment) }
        return (mail, try store.send(mail, record: record ?? .nothing, inviteID: invite.id.text, lockTimeout: lockTimeout))
    }
}
