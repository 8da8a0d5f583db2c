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
    /// Not for coolcal to decide alone (`HeldReason`): kept for the person.
    case held
    /// An attendee's reply applied to the event the user organises.
    case updated
    /// Nothing to do: a reply for an event the user does not organise, or one the event
    /// already says.
    case noAction = "no action"
    /// An attendee's counter-proposal for an event the user organises, recorded in the
    /// inbox for the user to accept or decline.
    case proposed
    /// Maildir messages that were no invitation to answer.
    case notAMessage = "not-a-message"
    case noInvitation = "no-invitation"
    case past
}

/// Why an invitation, update or cancellation is held for the person instead of being
/// applied or answered (RFC 5546 §6.1: a stored event changes only at its organizer's
/// word). The raw values are the words every surface shows and the state stores.
public enum HeldReason: String, Equatable, Sendable, CaseIterable {
    case unknownSender = "unknown sender"
    /// An e-mail with no single From address: nobody vouches for it.
    case noSender = "no sender"
    /// A mail whose sender is neither the organizer nor the stored copy's SENT-BY.
    case notFromOrganizer = "not from the organizer"
    /// An update or cancellation whose ORGANIZER is not the stored event's.
    case organizerChanged = "organizer changed"
    /// An incoming REQUEST or CANCEL for an event the user organises.
    case youOrganise = "you organise this event"
    case published
    case notAddressedToYou = "not addressed to you"
    case tooLong = "too long"
    case tooDense = "too many instances a day"
    case failedAuthentication = "failed authentication"
    case uninvitedAttendee = "uninvited attendee"
}
