import CoolcalInvite
import CoolcalModel
import CoolcalSchedule
import CoolcalWriting

/// What answering one invitation did, for `CoolcalOutput` to put into words.
package enum AnswerOutcome {
    /// `accept`/`accept --tentative` wrote (or found) the event, or applied an
    /// organizer's cancellation, in `target`; `write` says what the calendar write did.
    case accepted(AcceptVerb, Invite, write: WriteOutcome, target: CalendarLocation)
    /// `accept --if-free`: the window is busy; nothing was written.
    case busy(Invite, ConflictReport)
    /// Not applied: the message may not change the stored event (organizer binding);
    /// nothing was written, recorded or mailed.
    case held(Invite, HeldReason, detail: String, target: CalendarLocation)
    /// `accept --dry-run`: the text that would be written (nil: nothing would be).
    case preview(String?)
    /// `decline`: what changing your mind did in each calendar (none: only recorded).
    case declined(Invite, [Undone])
    case commented(Invite)
    /// How the REPLY mailed with the answer (`--reply`) stands, said after the answer.
    case mail(MailFate)

    /// How an accept went: the answer given, or why none was.
    package enum AcceptVerb: Equatable, Sendable {
        case accepted, tentative
        /// An older version than the calendar's: nothing recorded.
        case ignored
        /// An organizer's cancellation, applied.
        case cancelled
        /// An attendee's counter-proposal taken: the event moved to its time.
        case moved
    }

    /// One calendar `decline` changed its mind in.
    package struct Undone {
        package var write: WriteOutcome
        package var target: CalendarLocation
        /// The organizer's copy (iTIP), marked declined rather than removed.
        package var itip: Bool
    }

    /// Whether the invitation was answered as asked (`busy` and `held` are not).
    package var answered: Bool {
        switch self {
        case .busy, .held: return false
        default: return true
        }
    }
}
