import Foundation
import CoolcalInvite
import CoolcalModel
import CoolcalSchedule
import CoolcalWriting

/// What `merge` did with one invitation of its spool, for `CoolcalOutput` to put into
/// words (a line, a `--json` object, a desktop notification).
package struct MergeItem {
    /// The invitation's name in the spool (a file name, a Maildir message's).
    package var name: String
    package var outcome: OutcomeCode
    /// Nil when it could not be read (`error` says why).
    package var invite: Invite?
    /// Why it could not be read.
    package var error: String?
    /// The conflicts in its window (an invitation answered by policy; nil for a cancellation).
    package var conflicts: Int?
    /// The first conflicts (at most `namedConflicts`), by title and start, for the line
    /// a person reads.
    package var busyWith: [(title: String, start: OccurrenceTime)] = []
    package static let namedConflicts = 3
    /// What the calendar write did, and where (nil when nothing was written: busy,
    /// declined, free, or `--policy report`'s cancellation); `.held` with the reason
    /// when the invitation is held for the person instead.
    package var write: WriteOutcome?
    package var target: CalendarLocation?
    /// The other calendars the same write went to: the event lived in several (split
    /// earlier), and each copy was updated (`UIDHomes`).
    package var elsewhere: [CalendarLocation] = []
    /// `--policy report`: found free or busy, not answered.
    package var reportOnly = false
    /// Answered, and not mailed although replies are: my ATTENDEE says `RSVP=FALSE`.
    package var noReplyAsked = false
    /// A reply applied: `reply`, `reply: 3 instances`, `reply: 2 instances; 1 not an instance`.
    package var replySaid: String?
    /// An organizer's update written with my PARTSTAT not an acceptance: `moved; needs
    /// your answer: 2 conflicts`, `declined: 2 conflicts`, `your answer kept: tentative`.
    package var updateSaid: String?
    /// That update moved the event where I am busy: its inbox entry waits for my answer again.
    package var reopened = false

    package init(name: String, outcome: OutcomeCode, invite: Invite? = nil, error: String? = nil, conflicts: Int? = nil,
                 write: WriteOutcome? = nil, target: CalendarLocation? = nil) {
        self.name = name
        self.outcome = outcome
        self.invite = invite
        self.error = error
        self.conflicts = conflicts
        self.write = write
        self.target = target
    }

    /// `target` and `elsewhere`.
    package var places: [CalendarLocation] { (target.map { [$0] } ?? []) + elsewhere }

    /// Where the write went: the first calendar is `target`, the others `elsewhere`.
    package mutating func place(_ places: [CalendarLocation]) {
        target = places.first ?? target
        elsewhere = Array(places.dropFirst())
    }

    /// What a write did (`written`, into `places`), as `merge` says it: held for the
    /// person, ignored when stale (the calendar holds a newer version), else `code` of it.
    mutating func said(_ written: WriteOutcome, in places: [CalendarLocation], else code: (WriteOutcome) -> OutcomeCode) {
        write = written
        place(places)
        outcome = written.heldReason != nil ? .held : written.isStale ? .ignored : code(written)
    }

    /// Whether a person should see it (`merge -q` prints only these).
    package var needsAPerson: Bool { [.busy, .failed, .held, .proposed].contains(outcome) || reopened }
}

/// What `merge` keeps in the spool for each invitation it is done with (`done/NAME.outcome`),
/// made by `CoolcalOutput` (JSON); called on another thread while the calendar is written.
package struct MergeNotes: Sendable {
    /// An answered invitation's note: the outcome and the conflicts it was based on.
    package var answered: @Sendable (OutcomeCode, ConflictReport, Date) -> String
    /// An applied cancellation's note: the outcome and what the write did.
    package var cancelled: @Sendable (OutcomeCode, WriteOutcome, CalendarLocation, Date) -> String

    package init(answered: @escaping @Sendable (OutcomeCode, ConflictReport, Date) -> String,
                 cancelled: @escaping @Sendable (OutcomeCode, WriteOutcome, CalendarLocation, Date) -> String) {
        self.answered = answered
        self.cancelled = cancelled
    }
}
