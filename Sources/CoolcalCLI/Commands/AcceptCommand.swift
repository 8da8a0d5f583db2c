import Foundation
import CoolcalSchedule
import CoolcalAnswering
import CoolcalModel

/// `coolcal accept [--if-free] [--dry-run] [--tentative] [--create] INVITE [CAL...]`: writes
/// into the first CAL (none: the config's `calendar` lines) — an update or cancellation
/// where the event already lives among them (`UIDHomes`) — through `AnswerCommand`;
/// with `--if-free`, every CAL must be free in the buffered window.
package struct AcceptCommand: CommandUnit, Equatable {
    package static let ifFree = Flag("if-free", help: "accept only when the buffered window is free in every CAL; else exit 1, write nothing")
    package static let dryRun = Flag("dry-run", short: "n", help: "print the VEVENT that would be written; write nothing")
    package static let newOrganizer = Flag("new-organizer", help: "apply an update or cancellation whose ORGANIZER is not the stored event's (held as 'organizer changed' otherwise)")
    package static let create = Flag("create", help: "create the first CAL when it is a file that does not exist (else exit 66)")
    package static let tentative = Flag("tentative", help: "accept tentatively: STATUS:TENTATIVE (your PARTSTAT=TENTATIVE for iTIP), recorded and sent as tentative")

    package static let spec = CommandSpec(
        name: "accept",
        usage: "coolcal accept [options] INVITE [CAL...]",
        summary: "write the invitation into the first calendar as a VEVENT, safely",
        options: [ifFree.spec, dryRun.spec, tentative.spec, create.spec, newOrganizer.spec, SharedOptions.reply.spec, SharedOptions.noReply.spec] + SharedOptions.writing,
        examples: [
            "coolcal accept invite.json ~/calendars/work.ics",
            "coolcal accept --tentative 12 ~/calendars/work.ics",
            "coolcal accept --if-free invite.json ~/calendars/work.ics ~/calendars/family/",
            "coolcal accept --reply --me me@example.com invite.ics ~/calendars/work.ics",
        ])

    package var common: CommonOptions
    package var invite: String
    /// The operands after INVITE; none: the config's `calendar` lines.
    package var calendars: [String]
    package var buffer: Buffer?
    package var ifFree = false
    package var dryRun = false
    /// `--tentative`: may attend.
    package var tentative = false
    /// `--reply`/`--no-reply`/the config's `reply`: whether the REPLY is mailed to the organizer.
    package var reply = ReplyChoice.config
    /// `--new-organizer`: the organizer may change.
    package var newOrganizer = false
    /// `--create`: a missing calendar file is created.
    package var create = false

    package init(_ p: ParsedArguments) throws {
        guard !p.operands.isEmpty else { throw p.usage("missing an invitation (and calendars, unless the config names some)") }
        try p.refuseStdin(p.operands.dropFirst(), "only the invitation can be read from standard input")
        invite = p.operands[0]
        calendars = Array(p.operands.dropFirst())
        common = try CommonOptions(p)
        buffer = try p.value(SharedOptions.buffer)
        ifFree = p.has(Self.ifFree)
        dryRun = p.has(Self.dryRun)
        tentative = p.has(Self.tentative)
        reply = try ReplyChoice(p)
        newOrganizer = p.has(Self.newOrganizer)
        create = p.has(Self.create)
    }

    package func run(_ context: RunContext) throws -> ExitStatus {
        var options = AnswerOptions(ifFree: ifFree, dryRun: dryRun, buffer: buffer)
        options.newOrganizer = newOrganizer
        options.create = create
        return try AnswerCommand.answer(tentative ? .tentative : .accept, invite: invite, calendars: calendars,
                                         options: options, reply: reply, context: context)
    }
}
