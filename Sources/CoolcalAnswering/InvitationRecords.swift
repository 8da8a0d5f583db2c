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

/// The state's records of an invitation, given the invitation.
extension StateStore {
    @discardableResult
    package func recordInvitation(_ invite: Invite, payload: String, at date: Date) throws -> Bool {
        try recordInvitation(invite.summary, payload: payload, at: date)
    }

    @discardableResult
    package func recordAnswer(_ answer: Answer, for invite: Invite, comment: String?, at date: Date,
                              queueFor server: URL?) throws -> RecordedAnswer {
        try recordAnswer(answer, for: invite.summary, comment: comment, at: date, queueFor: server)
    }
}
