import Foundation
import CoolcalInvite
import CoolcalState

extension Invite {
    /// What the state keeps of it.
    package var summary: InvitationSummary {
        InvitationSummary(id: id.text, title: title, start: start, end: end, allDay: allDay, mail: mail,
                          organizer: organizer, kind: isCancellation ? .cancellation : .invitation)
    }
}

/// The inbox's record of an invitation, given the invitation.
extension InboxTable {
    @discardableResult
    package func record(_ invite: Invite, payload: String, at date: Date) throws -> Bool {
        try record(invite.summary, payload: payload, at: date)
    }
}

/// The state's records of an answer, given the invitation.
extension StateStore {
    @discardableResult
    package func recordAnswer(_ answer: Answer, for invite: Invite, comment: String?, at date: Date,
                              queueFor server: URL?) throws -> RecordedAnswer {
        try recordAnswer(answer, for: invite.summary, comment: comment, at: date, queueFor: server)
    }
}
