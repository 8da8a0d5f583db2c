import CoolcalModel

/// One `accept-from` rule: whose new invitations `merge` may answer by itself.
package enum AcceptFrom: Equatable, Sendable, CustomStringConvertible {
    /// Every sender (today's behaviour before trust rules).
    case anyone
    /// Organizers of events in the user's calendars they accepted or tentatively
    /// accepted, attendees of events they organise, and organizers they accepted an
    /// invitation from before (`KnownSenders`).
    case known
    /// One address, normalized.
    case address(String)
    /// Everyone at a domain (`@corp.example`), lowercased, without the `@`.
    case domain(String)

    /// `anyone`, `known`, `NAME@DOMAIN` or `@DOMAIN`; nil for anything else.
    package init?(_ text: String) {
        let value = CalendarAddress.normalized(text)
        switch value {
        case "anyone": self = .anyone
        case "known": self = .known
        default:
            if value.hasPrefix("@") {
                let domain = value.dropFirst()
                guard !domain.isEmpty, !domain.contains("@"), !domain.contains(where: \.isWhitespace) else { return nil }
                self = .domain(String(domain))
            } else {
                let parts = value.split(separator: "@", omittingEmptySubsequences: false)
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
                      !value.contains(where: \.isWhitespace) else { return nil }
                self = .address(value)
            }
        }
    }

    package var description: String {
        switch self {
        case .anyone: return "anyone"
        case .known: return "known"
        case .address(let a): return a
        case .domain(let d): return "@" + d
        }
    }

    /// Whether this rule admits `address` (normalized) without asking who is known.
    func admitsOutright(_ address: String) -> Bool {
        switch self {
        case .anyone: return true
        case .known: return false
        case .address(let a): return a == address
        case .domain(let d): return address.split(separator: "@").last.map(String.init) == d
        }
    }
}
