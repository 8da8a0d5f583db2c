import Foundation
import CoolcalAnswering
import CoolcalCheck
import CoolcalInvite
import CoolcalModel
import CoolcalOutput
import CoolcalRSVP
import CoolcalSchedule

/// The counter-proposal's two answers (RFC 5546 §3.2.7–3.2.8): the attendee's
/// `reply --counter` proposes the first free slot of the invitation's length (or
/// `--at`); the organizer's `reply --decline-counter N` turns down an attendee's proposal
/// from the inbox. Printed as iCalendar, as a whole e-mail with `--mail`, mailed with `--send`.
extension ReplyCommand {
    func proposeCounter(_ file: InvitationFile, _ settings: Settings, _ context: RunContext) throws -> ExitStatus {
        let invite = file.invite
        guard let message = file.message, !invite.isCancellation, !invite.isCounter else {
            throw InviteError(file: invite.source, message: "is not an iCalendar invitation (METHOD:REQUEST); a counter-proposal answers one")
        }
        if message.versions.first.map({ $0.isRecurring && $0.recurrenceID == nil }) == true {
            throw InviteError(file: invite.source, message: "is a recurring series; coolcal proposes new times for single events and instances only")
        }
        guard let (start, end) = try proposal(invite, settings) else {
            let hours = (self.hours ?? settings.config.hours ?? .standard)
            context.say("no free slot: nothing of the invitation's length is free within \(SlotFinderDays.horizon) days "
                        + "in working hours \(hours.description)\(weekends ? "" : " on weekdays"); try --at, --hours or --weekends")
            return .busy
        }
        let mail = try AnswerStore.mail(command: "reply") { () throws(MailReply.Failure) in
            try MailReply.counter(file, me: settings.me, start: start, end: end, comment: comment, now: settings.now, domain: settings.domain,
                                  name: settings.config.name)
        }
        if !send { context.out.write(self.mail ? mail.message.rendered() : mail.message.calendar) }
        guard send else { return .ok }
        let fate = try context.answers.send(mail, inviteID: invite.id.text, lockTimeout: settings.lockTimeout)
        let status = try said(fate, .counterProposal, source: invite.source, context)
        let dates = DateText(style: settings.style)
        context.say("proposed: \(invite.title): \(dates.range(start: start, end: end)), mailed to \(message.organizer?.address ?? "the organizer")")
        context.say("  " + dates.zoneLine)
        return status
    }

    func declineCounter(_ file: InvitationFile, _ settings: Settings, _ context: RunContext) throws -> ExitStatus {
        let invite = file.invite
        guard invite.isCounter else {
            throw InviteError(file: invite.source, message: "is not a counter-proposal (METHOD:COUNTER); --decline-counter answers one from the inbox")
        }
        let attendee = CounterDecision.proposer(file)
        // Held (not an attendee of your event, failed authentication): never mailed to.
        let answers = try context.answers
        if answers.hasState, let held = try answers.open().inbox.entry(named: self.invite)?.held {
            throw InviteError(file: invite.source, message: "is held (\(held.rawValue)): its sender is not one coolcal answers; nothing is printed or mailed")
        }
        let mail = try AnswerStore.mail(command: "reply") { () throws(MailReply.Failure) in
            try MailReply.declineCounter(file, attendee: attendee, me: settings.me, comment: comment, now: settings.now,
                                         domain: settings.domain, name: settings.config.name)
        }
        if !send { context.out.write(self.mail ? mail.message.rendered() : mail.message.calendar) }
        guard send else { return .ok }
        let record = CounterDecision.entryID(file).map { id -> SentRecord in
            var summary = invite.summary
            summary.id = id
            summary.kind = .counter
            summary.organizer = attendee
            return .refusal(summary, comment: comment)
        }
        let fate = try answers.send(mail, record: record ?? .nothing, inviteID: invite.id.text, lockTimeout: settings.lockTimeout)
        return try said(fate, .refusal, source: invite.source, context)
    }

    /// `--at` (the invitation's length from there), else the first slot `conflicts
    /// --suggest` finds free in the calendars that is not the invitation's own time;
    /// nil when there is none.
    private func proposal(_ invite: Invite, _ settings: Settings) throws -> (OccurrenceTime, OccurrenceTime)? {
        let single = invite.first
        if let at {
            let start = at.time(in: SystemZone(settings.zone), allDay: single.allDay)
            switch (single.start, single.end, start) {
            case (.date(let first), .date(let last), .date(let day)):
                return (start, .date(day.addingDays(max(1, last.days(since: first)))))
            case (.instant(let s), .instant(let e), .instant(let t)):
                return (start, .instant(t + (e - s)))
            default:
                throw UsageError("--at: \(single.allDay ? "an all-day invitation takes a date (2031-03-04)" : "give a time (2031-03-04T15:00), not a date")",
                                 command: "reply")
            }
        }
        let check = ConflictCheck(finder: ConflictFinder(buffer: settings.buffer(buffer), zone: settings.zone), reader: settings.reader)
        let slots = SlotFinder(finder: check.finder, hours: hours ?? settings.config.hours ?? .standard, weekends: weekends)
        let wider = slots.searchWindow(for: single).union(check.finder.window(for: invite))
        let (_, occurrences) = try check.run(invite, against: try settings.calendars(calendars, command: "reply"), window: wider)
        let found = slots.suggestions(for: single, count: 2, occurrences: occurrences).first { $0.start != single.start }
        return found.map { ($0.start, $0.end) }
    }
}

/// How far `reply --counter` looks for a free slot (`SlotFinder`'s horizon).
enum SlotFinderDays {
    static var horizon: Int { SlotFinder(finder: ConflictFinder(buffer: .standard, zone: .gmt), hours: .standard, weekends: false).horizonDays }
}

/// `--at`: a start with an offset (2031-03-04T15:00:00Z), a wall-clock time read in
/// `--tz` (2031-03-04T15:00 or 2031-03-04T15:00:00), or a date for an all-day invitation.
package struct ProposedTime: ArgumentValue, Equatable {
    package enum Value: Equatable {
        case fixed(OccurrenceTime)
        case local(CivilDateTime)
    }

    package var value: Value

    package init?(argument: String) {
        if let fixed = try? InviteDate.parse(argument) {
            value = .fixed(fixed)
            return
        }
        let text = argument.trimmingCharacters(in: .whitespaces)
        let full = text.count == 16 ? text + ":00" : text
        guard full.count == 19, case .instant(let seconds)? = try? InviteDate.parse(full + "Z") else { return nil }
        value = .local(CivilDateTime(utcSeconds: seconds))
    }

    package static func invalid(_ text: String, option: String) -> String {
        "--\(option) '\(text)' is not a time (2031-03-04T15:00 in --tz, 2031-03-04T15:00:00Z) or a date (2031-03-04)"
    }

    /// The start: a wall-clock time in `zone`; a date stays a date.
    func time(in zone: ZoneRules, allDay: Bool) -> OccurrenceTime {
        switch value {
        case .fixed(let time): return time
        case .local(let fields): return .instant(zone.utcSeconds(of: fields))
        }
    }
}
