import CoolcalAnswering

/// `reply --send`'s words for how its mail stands after the send (`AnswerStore.send`):
/// the line on stdout (`mailed to ADDRESS`, `queued for ADDRESS (REASON)`), the
/// warning of a version mailed before, and the message of the error a failed (74) or
/// queued (75) mail ends the run with.
package struct SendText: Equatable {
    /// What was mailed, as the warnings and errors name it.
    package enum Sent: String {
        case answer
        case counterProposal = "counter-proposal"
        case refusal
    }

    /// On stdout; nil: nothing.
    package var line: String?
    /// On stderr as a warning; nil: none.
    package var warning: String?
    /// The error's message when the mail was not handed over; nil: it was (or was before).
    package var failure: String?

    /// `source`: the invitation as the warning names it.
    package init(_ fate: MailFate, _ sent: Sent, source: String) {
        switch fate {
        case .alreadyMailed:
            warning = "\(source): this \(sent.rawValue) was mailed already; not sent again"
        case .mailed:
            line = AnswerText.mailed(fate)
        case .failed(_, let reason):
            failure = "\(reason); not sent (see 'coolcal outbox')"
        case .queued(_, let reason):
            line = AnswerText.mailed(fate)
            failure = "\(reason); the \(sent.rawValue) is queued, 'coolcal outbox flush' retries"
        }
    }
}
