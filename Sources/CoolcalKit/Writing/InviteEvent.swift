import Foundation

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
