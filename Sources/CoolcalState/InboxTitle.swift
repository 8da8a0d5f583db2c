/// What an inbox entry is called, as data: the words are Output's (`InboxTitleText`).
///
/// Stored in `invitations` as `title_kind` with the event's title in `title`, the
/// attendee or proposer in `organizer`, a reply's `partstat` and `delegated_to`.
package enum InboxTitle: Equatable, Sendable {
    /// An invitation or a cancellation: the event's SUMMARY (may be empty).
    case event(String)
    /// An attendee's answer to an event of mine: who, their PARTSTAT as sent, to whom
    /// they delegated, the event's title.
    case reply(attendee: String, partstat: String, delegatedTo: [String], event: String)
    /// An attendee's counter-proposal: who proposes (empty when unknown), the event's title.
    case counter(proposer: String, event: String)
    /// A title a coolcal before schema 16 stored as English words that the upgrade could
    /// not take apart (`TitleMigration`): shown as it is.
    case legacy(String)

    /// The event's own title; nil for a legacy title.
    package var event: String? {
        switch self {
        case .event(let title), .reply(_, _, _, let title), .counter(_, let title): return title
        case .legacy: return nil
        }
    }

    /// `title_kind` as stored.
    var storedKind: String {
        switch self {
        case .event: return "event"
        case .reply: return "reply"
        case .counter: return "counter"
        case .legacy: return "legacy"
        }
    }

    /// A reply's delegates as stored in `delegated_to`: one a line (an unfolded
    /// property value holds no line break); nil when none.
    static func storedDelegates(_ delegates: [String]) -> String? {
        delegates.isEmpty ? nil : delegates.joined(separator: "\n")
    }

    /// Reads one back from its columns; `attendee` is the row's `organizer`.
    static func stored(kind: String?, title: String, attendee: String?, partstat: String?, delegatedTo: String?) -> InboxTitle {
        switch kind {
        case "reply":
            return .reply(attendee: attendee ?? "", partstat: partstat ?? "",
                          delegatedTo: delegatedTo.map { $0.split(separator: "\n").map(String.init) } ?? [], event: title)
        case "counter": return .counter(proposer: attendee ?? "", event: title)
        case "legacy": return .legacy(title)
        default: return .event(title)
        }
    }
}
