import Foundation
import CoolcalInvite

/// The one way coolcal answers an invitation: `accept`, `decline`, `comment`, `review`
/// and `notify` all come here, so an answer given on any of them writes the calendar
/// (locked, minimal edit, atomic, read back), records it in the state, queues it for
/// the server and, when asked, mails the REPLY — the same way. (`merge` answers a
/// whole spool through `MergeRun`, with the same store and the same writes.)
///
/// What happened comes back as an `AnswerOutcome`, which `CoolcalOutput` puts into
/// words; warnings and notes go to the settings' diagnostics; errors are thrown and
/// change nothing.
package enum Answering {
    /// Answers `file`. `calendars`: where `accept`/`tentative` write (the first; the
    /// command line resolves none to the config's `calendar` lines) and what `decline`
    /// changes its mind in (empty: the calendars the state remembers coolcal wrote it
    /// into); ignored by a comment.
    package static func answer(_ kind: AnswerKind, file: InvitationFile, calendars: [String],
                               options: AnswerOptions = AnswerOptions(), store: AnswerStore) throws -> AnswerOutcome {
        switch kind {
        case .accept, .tentative:
            return try Acceptance(file: file, calendars: calendars, options: options, tentative: kind == .tentative,
                                  store: store).run()
        case .decline:
            if file.invite.isCancellation { throw InviteLoader.cancellation(file.invite) }
            return try ChangeOfMind(file: file, options: options, store: store).decline(calendars)
        case .comment(let text):
            if file.invite.isCancellation { throw InviteLoader.cancellation(file.invite) }
            try store.record(.comment, for: file.invite, comment: text)
            return .commented(file.invite)
        }
    }
}
