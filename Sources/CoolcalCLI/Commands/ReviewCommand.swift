import Foundation
import CoolcalAnswering
import CoolcalCheck
import CoolcalSchedule
import CoolcalModel

/// `coolcal review [CAL...]`: an interactive screen that walks the unanswered
/// invitations of the inbox, newest first, each with its day view; keys answer them
/// through `AnswerCommand`, as the commands do (CLI/ReviewSession.swift).
package struct ReviewCommand: CommandUnit, Equatable {
    package static let spec = CommandSpec(
        name: "review",
        usage: "coolcal review [options] [CAL...]",
        summary: "walk the unanswered invitations on a terminal: a accept, d decline, t tentative, c comment, x dismiss, n/p, q",
        options: [SharedOptions.tz.spec, SharedOptions.me.spec, SharedOptions.buffer.spec, SharedOptions.state.spec,
                  SharedOptions.server.spec, SharedOptions.color.spec, SharedOptions.reply.spec, SharedOptions.noReply.spec],
        examples: ["coolcal review ~/calendars/work.ics ~/calendars/family/", "coolcal review   # the config's calendars"])

    package var common: CommonOptions
    package var calendars: [String]
    package var buffer: Buffer?
    /// `--reply`/`--no-reply`/the config's `reply`: whether answers are mailed.
    package var reply = ReplyChoice.config

    package init(_ p: ParsedArguments) throws {
        try p.refuseStdin(p.operands[...], "review reads its keys from standard input; calendars cannot be read from it")
        calendars = p.operands
        common = try CommonOptions(p)
        buffer = try p.value(SharedOptions.buffer)
        reply = try ReplyChoice(p)
    }

    package func run(_ context: RunContext) throws -> ExitStatus {
        guard isatty(STDIN_FILENO) == 1, context.environment.stdoutIsTerminal else {
            throw UsageError("review needs a terminal on standard input and output; "
                             + "'coolcal inbox --unanswered' lists the invitations, and accept, decline or comment ID answer one",
                             command: "review")
        }
        let settings = try context.settings
        let targets = try settings.calendars(calendars, command: "review")
        let answers = try context.answers
        _ = try answers.server()
        // With calendar-invitations on, what waits in the calendars is recorded first (issue 49).
        if settings.calendarInvitations {
            var scan = CalendarInvitationScan(store: answers, calendars: targets.map(\.operand))
            scan.recordOnly = true
            scan.buffer = buffer
            try scan.run(report: { _ in })
        }
        let entries = try answers.open().inbox.entries().filter(\.isUnanswered)
        guard !entries.isEmpty else {
            context.say("no unanswered invitations")
            return .ok
        }
        context.note("review: \(entries.count) unanswered invitation\(entries.count == 1 ? "" : "s")")
        let check = ConflictCheck(finder: ConflictFinder(buffer: settings.buffer(buffer), zone: settings.zone), reader: settings.reader)
        let session = ReviewSession(entries: entries, calendars: targets, check: check, buffer: buffer, reply: reply,
                                    context: context)
        return try session.run()
    }
}
