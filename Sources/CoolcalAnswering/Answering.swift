import Foundation
import CoolcalInvite
import CoolcalModel

/// The one way coolcal answers an invitation: `accept`, `decline`, `comment`, `review`
/// and `notify` all come here, so an answer given on any of them writes the calendar
/// (locked, minimal edit, atomic, read back), records it in the state, queues it for
/// the server and, when asked, mails the REPLY — the same way. (`merge` answers a
/// whole spool through `MergeRun`, with the same store and the same writes.)
///
/// What happened is reported as an `AnswerOutcome` (which `CoolcalOutput` puts into
/// words) as soon as it is known: an accept's write is reported before it is recorded,
/// so a state that cannot be written still leaves the user told what the calendar
/// holds. Warnings and notes go to the settings' diagnostics; errors are thrown.
package enum Answering {
    /// Answers `file`. `calendars`: where `accept`/`tentative` write (the first; the
    /// command line resolves none to the config's `calendar` lines) and what `decline`
    /// changes its mind in (empty: the calendars the state remembers coolcal wrote it
    /// into); ignored by a comment.
    package static func answer(_ kind: AnswerKind, file: InvitationFile, calendars: [String],
                               options: AnswerOptions = AnswerOptions(), store: AnswerStore,
                               report: (AnswerOutcome) -> Void) throws {
        if file.invite.isAttendeeTraffic {
            throw InviteError(file: file.invite.source, message: "is an answer to an event (METHOD:\(file.invite.method ?? "")), not an invitation; there is nothing to answer")
        }
        if file.invite.isCounter { return try counter(kind, file: file, calendars: calendars, options: options, store: store, report: report) }
        switch kind {
        case .accept, .tentative:
            try Acceptance(file: file, calendars: calendars, options: options, tentative: kind == .tentative,
                           store: store).run(report: report)
        case .decline:
            if file.invite.isCancellation { throw InviteLoader.cancellation(file.invite) }
            report(try ChangeOfMind(file: file, options: options, store: store).decline(calendars))
        case .comment(let text):
            if file.invite.isCancellation { throw InviteLoader.cancellation(file.invite) }
            try store.record(.comment, for: file.invite, comment: text)
            report(.commented(file.invite))
        }
    }

    /// An attendee's counter-proposal from the inbox: accepting it moves the event;
    /// declining it is `reply --decline-counter` (it mails the attendee).
    private static func counter(_ kind: AnswerKind, file: InvitationFile, calendars: [String], options: AnswerOptions,
                                store: AnswerStore, report: (AnswerOutcome) -> Void) throws {
        guard kind == .accept, let calendar = calendars.first, !options.dryRun else {
            let said = kind == .decline ? "decline it with 'coolcal reply --decline-counter N'" : "'coolcal accept N' moves your event to it, 'coolcal reply --decline-counter N' declines it"
            throw UsageError("\(file.invite.source) is a counter-proposal; \(said)", command: store.settings.command)
        }
        try CounterDecision(file: file, store: store).accept(calendar: calendar, reply: options.reply, report: report)
    }
}
