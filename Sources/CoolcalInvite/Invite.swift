import CoolcalModel

/// An invitation: the push payload's fields, or an iTIP REQUEST's first VEVENT.
public struct Invite: Equatable, Sendable {
    /// The payload's integer `id`, or an iTIP invitation's UID.
    public enum ID: Equatable, Hashable, Sendable {
        case number(Int64)
        case uid(String)

        public var text: String {
            switch self {
            case .number(let n): return String(n)
            case .uid(let s): return s
            }
        }
    }

    public var id: ID
    public var title: String
    /// A UTC instant, or a date for all-day invitations.
    public var start: OccurrenceTime
    /// Exclusive end: a UTC instant, or the day after the last day.
    public var end: OccurrenceTime
    /// Where it came from, for messages (`<stdin>` for `-`).
    public var source: String
    /// An iTIP file's METHOD (REQUEST, PUBLISH, CANCEL), nil for a push payload or a
    /// file without one.
    public var method: String? = nil
    /// The e-mail it arrived in, nil when INVITE was a bare file.
    public var mail: MailHeaders? = nil
    /// An iTIP invitation's ORGANIZER address, normalized (`CalendarAddress`); nil for a
    /// push payload or an event without one.
    public var organizer: String? = nil

    /// An iTIP `METHOD:CANCEL`: the organizer called the event off.
    public var isCancellation: Bool { method == "CANCEL" }
    /// An iTIP `METHOD:REPLY`: an attendee's answer to an event the user organises (read
    /// only from a `merge` spool).
    public var isReply: Bool { method == "REPLY" }
    /// An iTIP `METHOD:COUNTER`: an attendee proposes other times for an event the user
    /// organises (read only from a `merge` spool or the inbox).
    public var isCounter: Bool { method == "COUNTER" }
    /// An iTIP `METHOD:DECLINECOUNTER`: the organizer turned down the user's proposal.
    public var isDeclineCounter: Bool { method == "DECLINECOUNTER" }
    /// A message about an event that asks nothing of the user's calendar: a reply, a
    /// counter-proposal's refusal (a counter is checked: its times are a proposal).
    public var isAttendeeTraffic: Bool { isReply || isDeclineCounter }

    /// A recurring iTIP invitation's instances within `ITIPInvite.horizonDays` of
    /// the first (the first is `start`/`end`); empty for a single invitation.
    public var instances: [InviteInstance] = []

    /// The time an iTIP invitation covers over ten years (`InviteCoverage`), for
    /// `merge`'s `too long`, counted when it is opened (`InviteLoader.open`); nil for a
    /// push payload, a message that is no invitation (a CANCEL, a REPLY), or an
    /// invitation only parsed (`conflicts`, `notify`).
    public var coverage: InviteCoverage? = nil

    /// What `conflicts` checks: every instance, or the invitation itself.
    public var checked: [InviteInstance] {
        instances.isEmpty ? [InviteInstance(start: start, end: end)] : instances
    }

    /// The first instance alone (for free-slot suggestions and notifications).
    public var first: Invite {
        var single = self
        single.instances = []
        return single
    }

    /// An invitation made from elsewhere than a message (an event found pending in a
    /// calendar: `CalendarInvitationScan`).
    package static func found(uid: String, title: String, start: OccurrenceTime, end: OccurrenceTime, source: String,
                              organizer: String?, instances: [(start: OccurrenceTime, end: OccurrenceTime)]) -> Invite {
        var invite = Invite(id: .uid(uid), title: title, start: start, end: end, source: source)
        invite.organizer = organizer
        invite.instances = instances.map { InviteInstance(start: $0.start, end: $0.end) }
        return invite
    }

    public var allDay: Bool {
        if case .date = start { return true }
        return false
    }
}

/// One instance of a recurring invitation.
public struct InviteInstance: Equatable, Sendable {
    public var start: OccurrenceTime
    public var end: OccurrenceTime
}

/// An invitation that cannot be used, naming the file and field.
public struct InviteError: StatusError, CustomStringConvertible, Equatable {
    public var file: String
    public var message: String
    /// 65 (EX_DATAERR).
    public var exitStatus: ExitStatus { .dataError }

    public var description: String { "\(file): \(message)" }

    /// The memberwise initializer, for the targets above.
    package init(file: String, message: String) {
        self.file = file
        self.message = message
    }
}
