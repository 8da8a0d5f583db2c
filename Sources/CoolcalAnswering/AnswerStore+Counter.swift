import Foundation
import CoolcalCheck
import CoolcalInvite
import CoolcalModel
import CoolcalRSVP
import CoolcalSchedule

/// What `reply --counter` proposes instead of the invitation's time, and how it is found.
package struct CounterRequest {
    /// `--at`: the start proposed, the invitation's length from there; nil: the first free slot.
    package var at: OccurrenceTime?
    /// The calendars whose free time is proposed, asked for only when there is no `at`.
    package var calendars: () throws -> [CalendarLocation]
    /// `--buffer` (nil: the config's), the working hours a slot falls in, and whether on weekends.
    package var buffer: Buffer?
    package var hours: WorkingHours
    package var weekends: Bool
    package var comment: String?
    /// `--send`: mailed now; else only built.
    package var send: Bool
    package var lockTimeout: TimeInterval

    package init(at: OccurrenceTime?, calendars: @escaping () throws -> [CalendarLocation], buffer: Buffer?, hours: WorkingHours,
                 weekends: Bool, comment: String?, send: Bool, lockTimeout: TimeInterval) {
        self.at = at
        self.calendars = calendars
        self.buffer = buffer
        self.hours = hours
        self.weekends = weekends
        self.comment = comment
        self.send = send
        self.lockTimeout = lockTimeout
    }
}

/// What `reply --counter` came to (`AnswerStore.proposeCounter`).
package enum CounterProposal {
    /// Nothing of the invitation's length is free within `horizonDays` (in the request's hours).
    case noSlot(horizonDays: Int)
    /// The COUNTER for `start`–`end`; `fate`: how its mail stands once sent (nil: only built).
    case proposed(MailReply, start: OccurrenceTime, end: OccurrenceTime, fate: MailFate?)
}

/// `reply --counter`, the attendee's counter-proposal (RFC 5546 §3.2.7), the whole
/// workflow in one call: the first free slot of the invitation's length in the calendars
/// (`conflicts --suggest`'s slot finder), or the start asked for, as a `METHOD:COUNTER`
/// mail to the organizer, built to be printed or sent (`send`). Nothing is written to a
/// calendar.
extension AnswerStore {
    /// Checks the invitation (a single event or instance, not a cancellation or a counter:
    /// 65), finds the time, builds the COUNTER and, with `send`, mails it.
    package func proposeCounter(_ file: InvitationFile, _ request: CounterRequest) throws -> CounterProposal {
        let invite = file.invite
        guard let message = file.message, !invite.isCancellation, !invite.isCounter else {
            throw InviteError(file: invite.source, message: "is not an iCalendar invitation (METHOD:REQUEST); a counter-proposal answers one")
        }
        if message.versions.first.map({ $0.isRecurring && $0.recurrenceID == nil }) == true {
            throw InviteError(file: invite.source, message: "is a recurring series; coolcal proposes new times for single events and instances only")
        }
        let slots = SlotFinder(finder: ConflictFinder(buffer: settings.buffer(request.buffer), zone: settings.zone), hours: request.hours,
                               weekends: request.weekends)
        guard let (start, end) = try counterTime(file, request, slots) else { return .noSlot(horizonDays: slots.horizonDays) }
        let mail = try AnswerStore.mail(command: "reply") { () throws(MailReply.Failure) in
            try MailReply.counter(file, me: settings.me, start: start, end: end, comment: request.comment, now: settings.now,
                                  domain: settings.domain, name: settings.name)
        }
        guard request.send else { return .proposed(mail, start: start, end: end, fate: nil) }
        let fate = try send(mail, inviteID: invite.id.text, lockTimeout: request.lockTimeout)
        return .proposed(mail, start: start, end: end, fate: fate)
    }

    /// `at` (the invitation's length from there), else the first slot free in the
    /// calendars that is not the invitation's own time; nil when there is none.
    private func counterTime(_ file: InvitationFile, _ request: CounterRequest, _ slots: SlotFinder) throws -> (OccurrenceTime, OccurrenceTime)? {
        let invite = file.invite
        let single = invite.first
        if let start = request.at {
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
        let check = ConflictCheck(finder: slots.finder, reader: settings.reader)
        let wider = slots.searchWindow(for: single).union(check.finder.window(for: invite))
        let (_, occurrences) = try check.run(invite, against: try request.calendars(), window: wider)
        let found = slots.suggestions(for: single, count: 2, occurrences: occurrences).first { $0.start != single.start }
        return found.map { ($0.start, $0.end) }
    }
}
