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
/// updated REQUEST to every attendee (asked again, NEEDS-ACTION, when the time moved); `reply --decline-counter N` builds the
/// DECLINECOUNTER for the one attendee who proposed.
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
        if let id = Self.entryID(file) {
            var summary = invite.summary
            summary.id = id
            summary.kind = .counter
            summary.organizer = Self.proposer(file)
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
}
