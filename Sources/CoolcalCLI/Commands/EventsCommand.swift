import Foundation
import CoolcalInvite
import CoolcalModel
import CoolcalOutput
import CoolcalSupport

/// `coolcal events [--from T] [--to T] CAL...`: an agenda of any window.
package struct EventsCommand: CommandUnit, Equatable {
    package static let from = Option<TimeArgument>("from", value: "TIME", completion: .none, help: "window start: today, tomorrow, +Nd (days from today), a date or 2022-08-20T09:00 in --tz, or with an offset (default: today)")
    package static let to = Option<TimeArgument>("to", value: "TIME", completion: .none, help: "window end, exclusive: as --from, but +Nd counts from --from (default: +1d)")

    package static let spec = CommandSpec(
        name: "events",
        usage: "coolcal events [options] [CAL...]",
        summary: "list the occurrences in a time window (an agenda)",
        options: [from.spec, to.spec, SharedOptions.json.spec, SharedOptions.tz.spec, SharedOptions.me.spec,
                  SharedOptions.color.spec, SharedOptions.state.spec],
        examples: [
            "coolcal events --from 2022-08-20T00:00:00Z --to 2022-08-21T00:00:00Z ~/cal.ics",
            "coolcal events --from 2022-08-20 --json work.ics",
            "coolcal events --from tomorrow --to +7d ~/cal.ics",
        ])

    package var common: CommonOptions
    package var calendars: [String]
    package var from: TimeArgument?
    package var to: TimeArgument?

    package init(_ p: ParsedArguments) throws {
        try p.refuseStdin(p.operands[...], "calendars cannot be read from standard input")
        common = try CommonOptions(p)
        calendars = p.operands
        from = try p.value(Self.from)
        to = try p.value(Self.to)
    }

    package func run(_ context: RunContext) throws -> ExitStatus {
        let settings = try context.settings
        let window = try self.window(settings)
        let occurrences = try settings.reader.occurrences(in: window, from: try settings.calendars(calendars, command: "events"))
        if common.json {
            context.out.write(JSONWriter.string(JSONDocuments.events(window: window, occurrences: occurrences)))
        } else {
            context.out.write(EventsText(style: settings.style).render(window: window, occurrences: occurrences))
        }
        return .ok
    }

    /// `--from` (default today), words relative to today; `--to` (default one day
    /// on), `+Nd` relative to `--from`, `today`/`tomorrow` to today.
    private func window(_ settings: Settings) throws -> TimeWindow {
        let zone = SystemZone(settings.zone)
        let today = zone.localFields(ofUTC: Int64(settings.now.timeIntervalSince1970)).dateOnly
        let start = (from ?? TimeArgument.today).instant(in: zone, today: today, base: today)
        let end = (to ?? TimeArgument.days(1)).instant(in: zone, today: today, base: zone.localFields(ofUTC: start))
        guard end > start else { throw UsageError("--to must be after --from", command: "events") }
        return TimeWindow(start: start, end: end)
    }
}
