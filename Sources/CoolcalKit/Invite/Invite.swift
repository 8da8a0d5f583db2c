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

    /// An iTIP `METHOD:CANCEL`: the organizer called the event off.
    public var isCancellation: Bool { method == "CANCEL" }

    public var allDay: Bool {
        if case .date = start { return true }
        return false
    }
}

/// An invitation that cannot be used, naming the file and field.
public struct InviteError: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var message: String

    public var description: String { "\(file): \(message)" }
}
