import Foundation
import CoolcalICal
import CoolcalInvite
import CoolcalModel

extension NewEvent {
    /// The VEVENT for an accepted invitation: a push payload's id becomes the stable
    /// UID `coolcal-invite-ID@DOMAIN`; an iTIP invitation keeps its own UID.
    public init(accepting invite: Invite, domain: String, now: Date) {
        let uid: String
        switch invite.id {
        case .number(let n): uid = "coolcal-invite-\(n)@\(domain)"
        case .uid(let s): uid = s
        }
        self.init(uid: uid, summary: invite.title, start: invite.start, end: invite.end, sequence: 0,
                  stamp: now, inviteID: invite.id.text)
    }

    /// The domain for UIDs: the config's `domain`, else this host's name.
    public static func domain(configured: String?) -> String {
        if let configured, !configured.isEmpty { return configured }
        let host = ProcessInfo.processInfo.hostName
        let safe = host.unicodeScalars.filter { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "." || $0 == "-") }
        return safe.isEmpty ? "localhost" : String(String.UnicodeScalarView(safe))
    }
}

extension InvitationFile {
    /// What accepting this invitation writes: a push payload's event, the organizer's
    /// event with the owner's acceptance, or the organizer's cancellation.
    package func change(me: [String], domain: String, now: Date) -> CalendarChange {
        if let message {
            return ITIPChange(message: message, cancel: invite.isCancellation, me: me,
                              sender: CalendarAddress.sender(of: invite.mail))
        }
        return NewEvent(accepting: invite, domain: domain, now: now)
    }

    /// `merge`'s answer to an organizer's update of a stored event: its new version
    /// written with my `partstat` (`ITIPChange.writesUpdate`).
    package func updateChange(me: [String], partstat: String) -> ITIPChange? {
        guard let message, !invite.isCancellation else { return nil }
        var change = ITIPChange(message: message, cancel: false, me: me, sender: CalendarAddress.sender(of: invite.mail))
        change.partstat = partstat
        change.writesUpdate = true
        return change
    }

    /// A warning when the stored copy cannot carry the owner's acceptance.
    package func ownerWarning(me: [String]) -> String? {
        guard let message, !invite.isCancellation else { return nil }
        if me.isEmpty {
            return "\(invite.source): no --me (or 'me' in the config): your PARTSTAT in the stored event stays as the organizer sent it"
        }
        if !message.storedCopy(me: me, partstat: "ACCEPTED").owner {
            return "\(invite.source): \(me.joined(separator: ", ")) is not among the attendees; stored as the organizer sent it"
        }
        return nil
    }
}

extension WriteOutcome {
    /// How `accept` and `merge` say what happened to `target`.
    package func describe(_ target: String) -> String {
        switch self {
        case .added: return "added to \(target)"
        case .updated: return "updated in \(target)"
        case .unchanged: return "already in \(target), unchanged"
        case .cancelled: return "marked cancelled in \(target)"
        case .stale(let why): return "\(why); \(target) unchanged"
        case .absent: return "not in \(target); nothing to cancel"
        case .othersCancelled(let who): return "it cancels another attendee (\(who)), not you; \(target) unchanged"
        case .removed: return "removed from \(target)"
        case .declinedInPlace: return "declined in place in \(target) (edited since coolcal wrote it)"
        case .held(let reason, let detail): return "held: \(reason.rawValue) (\(detail)); \(target) unchanged"
        }
    }
}
