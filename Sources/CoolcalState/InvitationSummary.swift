import CoolcalModel

/// What the state keeps of an invitation besides its payload: its id (`Invite.ID.text`),
/// title, times and the headers of the mail it came in. The state knows no `Invite`:
/// `CoolcalAnswering` makes this of one (`Invite.summary`).
package struct InvitationSummary: Equatable, Sendable {
    package var id: String
    package var title: String
    package var start: OccurrenceTime
    /// Exclusive, as `Invite` has it.
    package var end: OccurrenceTime
    package var allDay: Bool
    package var mail: MailHeaders?
    /// Its ORGANIZER's address, normalized (`CalendarAddress`); nil for a push payload or
    /// an event without one. Answering it makes this sender known.
    package var organizer: String?
    /// What it is: an invitation, or a held cancellation, reply or counter.
    package var kind: InboxKind = .invitation
    /// The calendar it was found pending in; nil when it came by mail or push.
    package var foundIn: String? = nil
    /// A reply's PARTSTAT as the attendee sent it (the attendee is `organizer`), and to
    /// whom they delegated.
    package var partstat: String? = nil
    package var delegatedTo: [String] = []

    /// What the inbox calls it (`title` is the event's own).
    package var inboxTitle: InboxTitle {
        switch kind {
        case .reply: return .reply(attendee: organizer ?? "", partstat: partstat ?? "", delegatedTo: delegatedTo, event: title)
        case .counter: return .counter(proposer: organizer ?? "", event: title)
        case .invitation, .cancellation: return .event(title)
        }
    }

    package init(id: String, title: String, start: OccurrenceTime, end: OccurrenceTime, allDay: Bool, mail: MailHeaders?,
                organizer: String? = nil, kind: InboxKind = .invitation) {
        self.id = id
        self.title = title
        self.start = start
        self.end = end
        self.allDay = allDay
        self.mail = mail
        self.organizer = organizer
        self.kind = kind
    }
}

/// What an inbox entry is (`inbox --json`'s `kind`).
package enum InboxKind: String, Equatable, Sendable, CaseIterable {
    case invitation
    case cancellation
    case reply
    case counter
}
