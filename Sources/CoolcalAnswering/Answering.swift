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
            try ChangeOfMind(file: file, options: options, store: store).decline(calendars, report: report)
        case .comment(let text):
            if file.invite.isCancellation { throw InviteLoader.cancellation(file.invite) }
            let mail = options.reply ? try store.mailReply(for: file, partstat: try currentPartstat(file, store), comment: text,
                                                           commentOnly: true) : nil
            var fate: MailFate?
            try store.record(.comment, for: file.invite, comment: text, mail: mail) { fate = $0 }
            report(.commented(file.invite))
            if let fate { report(.mail(fate)) }
        }
    }

    /// My answer to the invitation as it stands, as its REPLY says it: the latest accept,
    /// decline or tentative recorded, else NEEDS-ACTION (a comment is no answer, so a
    /// comment mailed to an unanswered invitation leaves it unanswered).
    private static func currentPartstat(_ file: InvitationFile, _ store: AnswerStore) throws -> String {
        guard store.hasState else { return "NEEDS-ACTION" }
        return try store.open().inbox.answers()[file.invite.id.text].flatMap { AnswerKind.partstat(of: $0) } ?? "NEEDS-ACTION"
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
