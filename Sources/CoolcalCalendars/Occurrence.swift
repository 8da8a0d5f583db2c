import CoolcalModel

/// Why an event in the window does not make the owner busy.
public enum IgnoreReason: String, Sendable {
    case transparent
    case cancelled
    case declined
    case thisInvitation = "this invitation"
    /// Outlook's `X-MICROSOFT-CDO-BUSYSTATUS:FREE` (or INTENDEDSTATUS) on an event
    /// without `TRANSP`: "Show as: Free".
    case shownAsFree = "shown as free"
    /// An invitation found pending in a calendar and held for you (`merge
    /// --calendar-invitations`): calendar spam must not make genuine invitations busy.
    case held
    /// The event is in a CalDAV calendar whose `schedule-calendar-transp` (RFC 6638
    /// §9.1) is `transparent`: the server counts none of it as busy.
    case transparentCalendar = "transparent calendar"
}

/// One instance of an event, resolved to absolute time.
public struct Occurrence: Sendable {
    public var uid: String?
    public var recurrenceID: OccurrenceTime?
    public var summary: String?
    /// The calendar's name as the user gave it (file or directory base name).
    public var calendar: String
    public var calendarColor: String?
    public var start: OccurrenceTime
    public var end: OccurrenceTime
    /// The span in UTC seconds; all-day dates are read in `--tz`.
    public var startInstant: Int64
    public var endInstant: Int64
    public var allDay: Bool
    public var transparent: Bool
    public var status: String?
    public var declinedByOwner: Bool
    /// The coolcal invitation id this event was written for, if any.
    public var inviteID: String?
    /// Why this occurrence may not be the whole truth, or nil: a limit stopped the
    /// event's expansion. The event's occurrences found before the cut and one covering
    /// the rest of the span it could still reach carry the reason; they are busy as usual.
    public var incomplete: String? = nil
    /// The calendar's display name (a vdir's `displayname`); nil when it has none.
    public var calendarName: String? = nil
    /// `STATUS:TENTATIVE`, your (`--me`) `PARTSTAT=TENTATIVE`, or Outlook's
    /// `TENTATIVE` status: busy, but only tentatively (`isTentative`).
    public var tentative: Bool = false
    /// Outlook marks the event free (`IgnoreReason.shownAsFree`).
    public var shownAsFree: Bool = false
    /// A pending invitation of the calendar held for you (`IgnoreReason.held`).
    public var heldForYou: Bool = false
    /// Its calendar is a CalDAV one marked `transparent` (`IgnoreReason.transparentCalendar`).
    public var inTransparentCalendar: Bool = false

    /// The first rule that makes this occurrence free time, or nil when it is busy.
    public var ignoreReason: IgnoreReason? {
        if status == "CANCELLED" { return .cancelled }
        if transparent { return .transparent }
        if declinedByOwner { return .declined }
        if shownAsFree { return .shownAsFree }
        if inTransparentCalendar { return .transparentCalendar }
        if heldForYou { return .held }
        return nil
    }

    public var busy: Bool { ignoreReason == nil }

    /// Busy, but tentatively (JSON `tentative`): false for free time.
    public var isTentative: Bool { tentative && busy }

    /// What text output calls the calendar: its display name, else its label.
    public var calendarDisplayName: String { calendarName ?? calendar }

    /// The memberwise initializer, for the targets above.
    package init(uid: String? = nil, recurrenceID: OccurrenceTime? = nil, summary: String? = nil, calendar: String, calendarColor: String? = nil, start: OccurrenceTime, end: OccurrenceTime, startInstant: Int64, endInstant: Int64, allDay: Bool, transparent: Bool, status: String? = nil, declinedByOwner: Bool, inviteID: String? = nil, incomplete: String? = nil, calendarName: String? = nil, tentative: Bool = false, shownAsFree: Bool = false, inTransparentCalendar: Bool = false) {
        self.uid = uid
        self.recurrenceID = recurrenceID
        self.summary = summary
        self.calendar = calendar
        self.calendarColor = calendarColor
        self.start = start
        self.end = end
        self.startInstant = startInstant
        self.endInstant = endInstant
        self.allDay = allDay
        self.transparent = transparent
        self.status = status
        self.declinedByOwner = declinedByOwner
        self.inviteID = inviteID
        self.incomplete = incomplete
        self.calendarName = calendarName
        self.tentative = tentative
        self.shownAsFree = shownAsFree
        self.inTransparentCalendar = inTransparentCalendar
    }
}
