import Foundation
import CoolcalModel

/// One e-mail, one voice (RFC 6047 §2.4, RFC 5546 §6.1): the calendar part's
/// `Content-Type` method agrees with the body's METHOD, every component names one
/// ORGANIZER, and a REPLY answers for one ATTENDEE. A message that says two things is
/// refused whole — a mail client shows one of them, coolcal would act on the other.
/// Only mail is looked at: a bare `.ics` or JSON file keeps today's rules.
extension InvitationFile {
    /// Why this e-mail's invitation says two things at once; nil when it does not (or
    /// when it did not come by mail).
    public var disagreement: String? {
        guard invite.mail != nil, let message else { return nil }
        if let said = invite.mail?.contentMethod?.trimmingCharacters(in: .whitespaces).uppercased(), !said.isEmpty,
           let body = message.method, ["REQUEST", "ADD", "CANCEL"].contains(body), said != body {
            // Other pairs follow the body: Google sends its COUNTER as method=REPLY, Meetup
            // its PUBLISH as method=REQUEST.
            return "the mail says method=\(said) but its calendar says METHOD:\(body) (RFC 6047 §2.4: they must agree)"
        }
        var organizers: [String] = []
        for event in message.versions {
            guard let organizer = event.organizer.map(CalendarAddress.normalized), !organizer.isEmpty else { continue }
            if !organizers.contains(organizer) { organizers.append(organizer) }
        }
        if organizers.count > 1 {
            return "its components name different organizers (\(organizers.joined(separator: ", ")))"
        }
        if message.method == "REPLY" {
            var attendees: [String] = []
            for event in message.versions {
                for attendee in event.attendees {
                    let address = CalendarAddress.normalized(attendee.address)
                    if !attendees.contains(address) { attendees.append(address) }
                }
            }
            if attendees.count > 1 {
                return "a reply answering for several attendees (\(attendees.joined(separator: ", ")))"
            }
        }
        return nil
    }

    /// The file, or the error naming why its e-mail says two things at once.
    public func agreeing(name: String) throws -> InvitationFile {
        if let disagreement { throw InviteError(file: name, message: disagreement) }
        return self
    }
}
