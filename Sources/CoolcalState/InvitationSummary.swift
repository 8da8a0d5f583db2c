import CoolcalModel

/// What the state keeps of an invitation besides its payload: its id (`Invite.ID.text`),
/// title, times and the headers of the mail it came in. The state knows no `Invite`:
/// `CoolcalAnswering` makes this of one (`Invite.summary`).
public struct InvitationSummary: Equatable, Sendable {
    public var id: String
    public var title: String
    public var start: OccurrenceTime
    /// Exclusive, as `Invite` has it.
    public var end: OccurrenceTime
    public var allDay: Bool
    public var mail: MailHeaders?
    /// Its ORGANIZER's address, normalized (`CalendarAddress`); nil for a push payload or
    /// an event without one. Answering it makes this sender known.
    public var organizer: String?
    /// What it is: an invitation, or a held cancellation, reply or counter.
    public var kind: InboxKind = .invitation
    /// The calendar it was found pending in; nil when it came by mail or push.
    public var foundIn: String? = nil

    public init(id: String, title: String, start: OccurrenceTime, end: OccurrenceTime, allDay: Bool, mail: MailHeaders?,
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
public enum InboxKind: String, Equatable, Sendable, CaseIterable {
    case invitation
    case cancellation
    case reply
    case counter
}
