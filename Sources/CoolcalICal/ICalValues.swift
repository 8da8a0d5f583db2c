import CoolcalModel
import CoolcalScan
import CoolcalZones

/// An iCalendar DURATION: weeks and days are nominal (wall clock), the rest exact.
public struct ICalDuration: Hashable, Sendable {
    public var negative: Bool
    public var days: Int
    public var seconds: Int

    public init(negative: Bool = false, days: Int, seconds: Int) {
        self.negative = negative
        self.days = days
        self.seconds = seconds
    }
}

/// An RDATE value: a start, or a period with its own end or duration.
public enum ICalRecurrenceDate: Hashable, Sendable {
    case time(ICalTime)
    case period(start: ICalTime, end: ICalTime)
    case periodDuration(start: ICalTime, duration: ICalDuration)

    public var start: ICalTime {
        switch self {
        case .time(let t), .period(let t, _), .periodDuration(let t, _): return t
        }
    }
}

/// An attendee's address and participation status.
public struct ICalAttendee: Hashable, Sendable {
    public var address: String
    public var partstat: String?
    /// `DELEGATED-TO` and `DELEGATED-FROM` (RFC 5545 §3.2.4, §3.2.5), each address as written.
    public var delegatedTo: [String] = []
    public var delegatedFrom: [String] = []
    /// `CN` and `LANGUAGE` (RFC 5545 §3.2.2, §3.2.10): the attendee's own, which a REPLY updates.
    public var name: String?
    public var language: String?
}

/// Everything coolcal reads from one VEVENT, as plain Swift values.
public struct ICalEvent: Sendable {
    public var uid: String?
    public var summary: String?
    public var status: String?
    public var transparent: Bool = false
    public var start: ICalTime?
    public var end: ICalTime?
    public var duration: ICalDuration?
    public var recurrenceID: ICalTime?
    public var thisAndFuture: Bool = false
    /// RRULE texts exactly as libical re-serializes them.
    public var rules: [ICalRule] = []
    public var rdates: [ICalRecurrenceDate] = []
    public var exdates: [ICalTime] = []
    public var attendees: [ICalAttendee] = []
    public var inviteID: String?
    public var sequence: Int?
    /// DTSTAMP: when the organizer made this version (iTIP orders versions by SEQUENCE, then this).
    public var stamp: ICalTime?
    /// LAST-MODIFIED: orders revisions of one event after SEQUENCE and DTSTAMP.
    public var lastModified: ICalTime?
    /// ORGANIZER's calendar address, as written (`mailto:…`).
    public var organizer: String?
    /// Problems libical reported inside this event (X-LIC-ERROR), verbatim.
    public var problems: [String] = []
    /// True when the event has a `TRANSP` property (either value).
    public var hasTransp = false
    /// Outlook's `X-MICROSOFT-CDO-BUSYSTATUS` and `-INTENDEDSTATUS`, trimmed and
    /// upper-cased (`FREE`, `TENTATIVE`, `BUSY`, `OOF`…).
    public var busyStatus: String?
    public var intendedStatus: String?

    public init() {}

    /// True when this event has any recurrence of its own.
    public var isRecurring: Bool { !rules.isEmpty || !rdates.isEmpty }
}

/// A parsed calendar: its display properties, events and time zones.
public struct ICalCalendar {
    public var name: String?
    public var color: String?
    /// iTIP `METHOD` (REQUEST, CANCEL…), upper-cased; nil in a plain calendar.
    public var method: String?
    public var events: [ICalEvent] = []
    /// The VEVENTs of VCALENDARs whose METHOD is an answer about an event (REPLY,
    /// COUNTER, REFRESH, DECLINECOUNTER: `answerMethods`): never a version of the event,
    /// so never in `events` (an attendee's REPLY kept in a calendar must not hide the
    /// organizer's event, a COUNTER must not show its proposed time); only an iTIP
    /// message's reader looks at them.
    public var answers: [ICalEvent] = []
    public var zones: ZoneBook

    /// The iTIP methods whose components answer about an event rather than describe it
    /// (RFC 5546 §1.4): "REPLY", "COUNTER", "REFRESH", "DECLINECOUNTER".
    public static var answerMethods: Set<String> { AnswerMethods.all }
    /// The revision stamps of the events the pre-filter dropped, so that a newer
    /// revision outside the window still hides an older one inside it.
    public var skippedRevisions = ICalSkippedRevisions()
    /// What reading skipped and why (a component over a cap, a zone ignored), each
    /// naming the file; given with the file's occurrences.
    public var warnings: [String] = []

    public init(zones: ZoneBook) {
        self.zones = zones
    }
}

extension ICalRevision {
    /// The revision of an event read in full; nil without a UID.
    public init?(_ event: ICalEvent) {
        guard let uid = event.uid else { return nil }
        self.init(uid: uid, recurrenceID: event.recurrenceID, sequence: event.sequence ?? 0,
                  stamp: event.stamp?.fields.secondsAsUTC, lastModified: event.lastModified?.fields.secondsAsUTC)
    }
}
