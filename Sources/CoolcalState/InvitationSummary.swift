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

    public init(id: String, title: String, start: OccurrenceTime, end: OccurrenceTime, allDay: Bool, mail: MailHeaders?) {
        self.id = id
        self.title = title
        self.start = start
        self.end = end
        self.allDay = allDay
        self.mail = mail
    }
}
