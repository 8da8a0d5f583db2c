import Foundation
import CoolcalAnswering
import CoolcalModel
import CoolcalOutput
import CoolcalSupport

/// `coolcal known [CAL...]`: whom `merge` takes new invitations from without asking
/// (`accept-from`), each with where they come from: an event of theirs I accepted in my
/// calendars, an event of mine that lists them, an invitation of theirs I accepted, or an
/// `accept-from` line. The calendars are the CALs, else the config's `calendar` lines (as
/// merge reads them); a state that does not exist yet is not created.
package struct KnownCommand: CommandUnit, Equatable {
    package static let spec = CommandSpec(
        name: "known",
        usage: "coolcal known [options] [CAL...]",
        summary: "list the senders merge accepts new invitations from, each with where it comes from",
        options: [SharedOptions.json.spec, SharedOptions.me.spec, SharedOptions.state.spec],
        examples: ["coolcal known", "coolcal known --json", "coolcal known --me me@example.com ~/calendars/work.ics"])

    package var common: CommonOptions
    /// The operands; none: the config's `calendar` lines (none there: only the state).
    package var calendars: [String]

    package init(_ p: ParsedArguments) throws {
        try p.refuseStdin(p.operands[...], "calendars cannot be read from standard input")
        calendars = p.operands
        common = try CommonOptions(p)
    }

    package func run(_ context: RunContext) throws -> ExitStatus {
        let settings = try context.settings
        let answers = try context.answers
        let operands = (try? settings.calendarOperands(calendars, command: "known")) ?? []
        // A calendar that is not there makes nobody known: say so rather than list fewer people.
        for case .file(let path) in operands.map(CalendarLocation.init) where !FileManager.default.isReadableFile(atPath: path) {
            throw InputFileError(kind: .missing, path: path, reason: "no such calendar (or not readable)")
        }
        if settings.me.isEmpty && !operands.isEmpty {
            settings.diagnostics.warn("no 'me' set: no event in the calendars names you, so they make nobody known (give --me ADDRESS)")
        }
        let state = answers.hasState ? try answers.open() : nil
        let known = KnownSenders(calendars: operands.map(CalendarLocation.init), state: state, me: settings.me)
        context.out.write(KnownText.render(try known.list(rules: settings.acceptFrom), json: common.json))
        return .ok
    }
}
