import Foundation
import CoolcalAnswering
import CoolcalInvite
import CoolcalModel
import CoolcalOutput
import CoolcalRSVP
import CoolcalSchedule

/// The counter-proposal's two answers (RFC 5546 §3.2.7–3.2.8), each one workflow: the
/// attendee's `reply --counter` proposes the first free slot of the invitation's length
/// (or `--at`: `AnswerStore.proposeCounter`); the organizer's `reply --decline-counter N`
/// turns down an attendee's proposal from the inbox (`CounterDecision.decline`). Printed
/// as iCalendar, as a whole e-mail with `--mail`, mailed with `--send`.
extension ReplyCommand {
    func proposeCounter(_ file: InvitationFile, _ settings: Settings, _ context: RunContext) throws -> ExitStatus {
        let hours = self.hours ?? settings.config.hours ?? .standard
        let request = CounterRequest(
            at: at?.time(in: SystemZone(settings.zone), allDay: file.invite.first.allDay),
            calendars: { [calendars] in try settings.calendars(calendars, command: "reply") },
            buffer: buffer, hours: hours, weekends: weekends, comment: comment, send: send, lockTimeout: settings.lockTimeout)
        switch try context.answers.proposeCounter(file, request) {
        case .noSlot(let days):
            context.say(CounterText.noSlot(horizonDays: days, hours: hours, weekends: weekends))
            return .busy
        case .proposed(let mail, _, _, nil):
            context.out.write(self.mail ? mail.message.rendered() : mail.message.calendar)
            return .ok
        case .proposed(_, let start, let end, let fate?):
            let status = try said(fate, .counterProposal, source: file.invite.source, context)
            let lines = CounterText.proposed(file.invite.title, start: start, end: end, to: file.message?.organizer?.address,
                                             dates: DateText(style: settings.style))
            for line in lines { context.say(line) }
            return status
        }
    }

    func declineCounter(_ file: InvitationFile, _ settings: Settings, _ context: RunContext) throws -> ExitStatus {
        let (mail, fate) = try CounterDecision(file: file, store: context.answers)
            .decline(entry: invite, comment: comment, send: send, lockTimeout: settings.lockTimeout)
        guard let fate else {
            context.out.write(self.mail ? mail.message.rendered() : mail.message.calendar)
            return .ok
        }
        return try said(fate, .refusal, source: file.invite.source, context)
    }
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
