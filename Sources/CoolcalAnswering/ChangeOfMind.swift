import Foundation
import CoolcalICal
import CoolcalInvite
import CoolcalModel
import CoolcalSupport
import CoolcalSchedule
import CoolcalState
import CoolcalWriting

/// `decline` (and `review`'s `d`): the answer recorded and sent, and — changing your
/// mind — what coolcal wrote when it accepted undone in each calendar the state
/// remembers (or each CAL named): its own push event removed when unchanged since it
/// was written, else declined in place (free) with a warning; an iTIP invitation's
/// stored copy given the owner's `PARTSTAT=DECLINED` (free, and the organizer's later
/// updates still match it). The same locked, minimal, atomic write as `accept`.
package struct ChangeOfMind {
    package let file: InvitationFile
    package let options: AnswerOptions
    package let store: AnswerStore

    /// Declines; `report` hears what changing your mind did, then how the REPLY stands
    /// (with `--reply`).
    package func decline(_ calendars: [String], report: (AnswerOutcome) -> Void) throws {
        let settings = store.settings
        let invite = file.invite
        let mail = options.reply ? try store.mailReply(for: file, partstat: "DECLINED") : nil
        let written = store.hasState ? try store.open().written(inviteID: invite.id.text) : []
        var targets: [(CalendarLocation, String, WrittenEvent?)] = []
        if calendars.isEmpty {
            targets = written.map { (CalendarLocation($0.calendar), $0.calendar, $0) }
        } else {
            for operand in calendars {
                let target = try settings.writeTarget(operand, command: "decline")
                let key = AnswerSettings.stateKey(target)
                targets.append((target, key, written.first { $0.calendar == key }))
            }
        }
        // An iTIP copy without the owner among its attendees cannot carry the answer:
        // said once, and no calendar is touched (nor said to be "already declined").
        if file.message != nil && !targets.isEmpty, let warning = file.ownerWarning(me: settings.me) {
            settings.diagnostics.warn(warning)
            targets = []
        }
        let window = ConflictFinder(buffer: settings.buffer(options.buffer), zone: settings.zone).window(for: invite)
        var undone: [AnswerOutcome.Undone] = []
        var changed: [String] = []
        for (target, key, row) in targets {
            let change = self.change(settings, row)
            let outcome = try UnrecordedAnswer.recording(after: changed) {
                try settings.writer.write(change: change, to: target, window: window)
            }
            undone.append(AnswerOutcome.Undone(write: outcome, target: target, itip: file.message != nil))
            if outcome.changedCalendar { changed.append(target.shown) }
            try UnrecordedAnswer.recording(after: changed) {
                try remember(outcome, change: change, key: key, row: row, target: target, settings)
            }
        }
        TestHook.pause(at: "decline-after-write")
        var fate: MailFate?
        try UnrecordedAnswer.recording(after: changed) { try store.record(.declined, for: invite, mail: mail) { fate = $0 } }
        report(.declined(invite, undone))
        if let fate { report(.mail(fate)) }
    }

    private func change(_ settings: AnswerSettings, _ row: WrittenEvent?) -> CalendarChange {
        if let message = file.message {
            var change = ITIPChange(message: message, cancel: false, me: settings.me)
            change.partstat = "DECLINED"
            return change
        }
        let event = NewEvent(accepting: file.invite, domain: settings.domain, now: settings.now)
        return PushAnswerChange(event, .declined, recorded: row?.hash)
    }

    /// What the state keeps after the write: nothing of an event removed (or gone),
    /// an emptied hash for one declined in place (the user's edits are in it now).
    private func remember(_ outcome: WriteOutcome, change: CalendarChange, key: String, row: WrittenEvent?,
                          target: CalendarLocation, _ settings: AnswerSettings) throws {
        let store = try self.store.open()
        switch outcome {
        case .removed, .absent:
            try store.forgetWritten(inviteID: file.invite.id.text, calendar: key)
        case .declinedInPlace:
            settings.diagnostics.warn("\(target.shown): \(file.invite.title) (id \(file.invite.id.text)) was edited since coolcal wrote it; kept, declined in place (shown as free)")
            fallthrough
        default:
            guard file.message == nil || row != nil || outcome == .updated else { return }
            try store.recordWritten(WrittenEvent(inviteID: file.invite.id.text, calendar: key, uid: change.uid, hash: "",
                                                 answer: row?.answer ?? .accepted, writtenAt: row?.writtenAt ?? settings.now))
        }
    }
}
