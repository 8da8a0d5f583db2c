/// What was done with one invitation of a `merge` run (or one message of a Maildir),
/// as the state, the spool's notes and `--json` store it. The raw values are those
/// stored words: this is the one place they are written outside `CoolcalOutput`.
public enum OutcomeCode: String, Equatable, Sendable, CaseIterable {
    case accepted
    case declined
    /// Not accepted: the window is busy (`accept-if-free`).
    case busy
    /// `--policy report`: the window is free.
    case free
    /// An older version than the calendar's.
    case ignored
    /// An organizer's cancellation, applied.
    case cancelled
    /// The invitation could not be read.
    case failed
    /// Maildir messages that were no invitation to answer.
    case notAMessage = "not-a-message"
    case noInvitation = "no-invitation"
    case past
}
