import CoolcalAnswering
import CoolcalInvite

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
