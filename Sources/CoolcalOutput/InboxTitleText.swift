import CoolcalState

/// What an inbox entry is called, in words: the one place an `InboxTitle` becomes text
/// (the inbox, `inbox open`, `inbox --json`'s `title`, `review`).
package enum InboxTitleText {
    /// As stored, before `PrintableText`: an event's title, `ATTENDEE VERB TITLE[ to A, B]`
    /// for a reply, `PROPOSER proposes a new time for TITLE` for a counter-proposal.
    package static func text(_ title: InboxTitle) -> String {
        switch title {
        case .event(let text), .legacy(let text):
            return text
        case .reply(let attendee, let partstat, let delegates, let event):
            return "\(attendee) \(verb(partstat)) \(event)" + (delegates.isEmpty ? "" : " to " + delegates.joined(separator: ", "))
        case .counter(let proposer, let event):
            return "\(proposer.isEmpty ? "someone" : proposer) proposes a new time for \(event)"
        }
    }

    /// "accepted", "declined", "tentatively accepted", "delegated" for a PARTSTAT.
    static func verb(_ partstat: String) -> String {
        switch partstat {
        case "ACCEPTED": return "accepted"
        case "DECLINED": return "declined"
        case "TENTATIVE": return "tentatively accepted"
        case "DELEGATED": return "delegated"
        default: return "answered (\(partstat.lowercased()))"
        }
    }
}
