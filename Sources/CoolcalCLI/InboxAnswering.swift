import Foundation
import CoolcalInvite
import CoolcalModel
import CoolcalSchedule
import CoolcalState
import CoolcalWriting

/// What an answer to an invitation says.
package enum AnswerKind: Equatable, Sendable {
    case accept, tentative, decline
    case comment(String)

    /// As recorded in the state and sent to the server.
    package var answer: Answer {
        switch self {
        case .accept: return .accepted
        case .tentative: return .tentative
        case .decline: return .declined
        case .comment: return .comment
        }
    }

    /// The attendee's iTIP `PARTSTAT` for it; nil for a comment.
    package var partstat: String? {
        switch self {
        case .accept: return "ACCEPTED"
        case .tentative: return "TENTATIVE"
        case .decline: return "DECLINED"
        case .comment: return nil
        }
    }
}

/// How an answer is given besides its kind; `review` takes the defaults.
package struct AnswerOptions: Equatable, Sendable {
    /// `accept --if-free`: every CAL must be free in the buffered window.
    package var ifFree = false
    /// `accept --dry-run`: print what would be written; write and record nothing.
    package var dryRun = false
    /// `--reply`: mail the iTIP REPLY to the organizer as well.
    package var reply = false
    /// `--buffer`: time around the invitation that `--if-free` checks.
    package var buffer: Buffer?

    package init(ifFree: Bool = false, dryRun: Bool = false, reply: Bool = false, buffer: Buffer? = nil) {
        self.ifFree = ifFree
        self.dryRun = dryRun
        self.reply = reply
        self.buffer = buffer
    }
}

/// The one way coolcal answers an invitation: `accept`, `decline`, `comment` and
/// `review` all come here, so an answer given on any of them writes the calendar
/// (locked, minimal edit, atomic, read back), records it in the state, queues it for
/// the server and, when asked, mails the REPLY — the same way.
///
/// Output lines (`accepted: …`, `declined: …: removed from work.ics`) go through
/// `context.say`, warnings and notes through `context.diagnostics`; errors are thrown
/// (`ExitStatus.of` gives their status) and change nothing.
package enum InboxAnswering {
    /// Answers the invitation `operand` names: a file (or `-`), else an inbox number,
    /// id or UID. `calendars`: where `accept`/`tentative` write (the first CAL;
    /// none: the config's `calendar` lines) and what `decline` changes its mind in (empty: the calendars the
    /// state remembers coolcal wrote it into); ignored by a comment.
    package static func answer(_ kind: AnswerKind, invite operand: String, calendars: [String],
                       options: AnswerOptions = AnswerOptions(), context: RunContext) throws -> ExitStatus {
        try answer(kind, file: InviteOperand.open(operand, context), calendars: calendars, options: options, context: context)
    }

    /// Answers an inbox entry (what `review` shows), as `answer(_:invite:…)` does.
    package static func answer(_ kind: AnswerKind, entry: InboxEntry, calendars: [String],
                       options: AnswerOptions = AnswerOptions(), context: RunContext) throws -> ExitStatus {
        context.note("answering inbox \(entry.number) (id \(entry.id))")
        return try answer(kind, file: InviteOperand.open(entry, context), calendars: calendars, options: options, context: context)
    }

    private static func answer(_ kind: AnswerKind, file: InvitationFile, calendars: [String], options: AnswerOptions,
                               context: RunContext) throws -> ExitStatus {
        switch kind {
        case .accept, .tentative:
            // None named: the config's `calendar` lines.
            let calendars = try context.settings.calendarOperands(calendars, command: context.common.command ?? "accept",
                                                                  missing: "a calendar to write to")
            return try AcceptAnswer(file: file, calendars: calendars, options: options, tentative: kind == .tentative,
                                    context: context).run()
        case .decline:
            if file.invite.isCancellation { throw InviteLoader.cancellation(file.invite) }
            return try ChangeOfMind(file: file, options: options, context: context).decline(calendars)
        case .comment(let text):
            if file.invite.isCancellation { throw InviteLoader.cancellation(file.invite) }
            try context.answers.record(.comment, for: file.invite, comment: text)
            context.say("commented: \(file.invite.title) (id \(file.invite.id.text))")
            return .ok
        }
    }

    /// The calendar as the state keeps it, so that `decline` can open it again: an
    /// absolute path (symlinks resolved) or the URL.
    package static func stateKey(_ target: CalendarLocation) -> String {
        switch target {
        case .remote(let url): return url
        case .file(let path), .vdir(let path):
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
            return (try? AtomicFile.resolve(absolute)) ?? absolute
        }
    }
}
