import CoolcalAnswering
import CoolcalInvite
import CoolcalModel

/// The words of a desktop notification (`notify --desktop`, `merge --notify`) and of
/// the marks `review` gives the invitations it answered.
package enum NoticeText {
    /// The body for an invitation: the localized range and its zone and, when calendars
    /// were read, "2 conflicts" or "free"; then `extra` (merge's outcome line).
    package static func body(_ invite: Invite, conflicts: Int?, style: TextStyle, extra: String? = nil) -> String {
        let dates = DateText(style: style)
        var body = dates.short(start: invite.start, end: invite.end) + "\n" + dates.zoneLine
        if let conflicts { body += "\n" + (conflicts == 0 ? "free" : "\(conflicts) conflict\(conflicts == 1 ? "" : "s")") }
        if let extra { body += "\n" + extra }
        return body
    }

    /// Why a desktop notification left an invitation unanswered.
    package enum Unanswered {
        case unknownAction(String)
        /// Closed by the server: expired, else dismissed.
        case closed(expired: Bool)
        case timedOut(seconds: UInt32)
    }

    /// `notify --desktop`'s line when nothing was chosen.
    package static func notAnswered(_ invite: Invite, _ why: Unanswered) -> String {
        let reason: String
        switch why {
        case .unknownAction(let key): reason = "unknown action '\(key)'"
        case .closed(let expired): reason = "the notification was \(expired ? "expired" : "dismissed")"
        case .timedOut(let seconds): reason = "no answer within \(seconds) s"
        }
        return "not answered: \(PrintableText.title(invite.title)) (id \(invite.id.text)): \(reason)"
    }

    /// What `review` marks an invitation answered in this session with.
    package static func mark(_ kind: AnswerKind) -> String {
        switch kind {
        case .accept: return "accepted"
        case .tentative: return "tentative"
        case .decline: return "declined"
        case .comment: return "commented"
        }
    }
}
