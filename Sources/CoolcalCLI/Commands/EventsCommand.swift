import Foundation
import CoolcalInvite
import CoolcalModel
import CoolcalOutput
import CoolcalSupport

/// `coolcal events [--from T] [--to T] CAL...`: an agenda of any window.
package struct EventsCommand: CommandUnit, Equatable {
    package static let from = Option<TimeArgument>("from", value: "TIME", completion: .none, help: "window start: 2022-08-20T00:00:00Z, with an offset, or a date in --tz (default: today)")
    package static let to = Option<TimeArgument>("to", value: "TIME", completion: .none, help: "window end, exclusive (default: one day after --from)")

    package static let spec = CommandSpec(
        name: "events",
        usage: "coolcal events [options] [CAL...]",
        summary: "list the occurrences in a time window (an agenda)",
        options: [from.spec, to.spec, SharedOptions.json.spec, SharedOptions.tz.spec, SharedOptions.me.spec,
                  SharedOptions.color.spec, SharedOptions.state.spec],
        examples: [
            "coolcal events --from 2022-08-20T00:00:00Z --to 2022-08-21T00:00:00Z ~/cal.ics",
            "coolcal events --from 2022-08-20 --json work.ics",
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

    private func window(_ settings: Settings) throws -> TimeWindow {
        let zone = SystemZone(settings.zone)
        let start = from?.instant(in: zone)
            ?? zone.utcSeconds(of: zone.localFields(ofUTC: Int64(settings.now.timeIntervalSince1970)).dateOnly)
        let end = to?.instant(in: zone) ?? zone.utcSeconds(of: zone.localFields(ofUTC: start).addingDays(1))
        guard end > start else { throw UsageError("--to must be after --from", command: "events") }
        return TimeWindow(start: start, end: end)
    }
}

/// `--from`/`--to`: an instant with an offset, or a date read in `--tz`.
package struct TimeArgument: ArgumentValue, Equatable {
    package var value: OccurrenceTime

    package init?(argument: String) {
        guard let value = try? InviteDate.parse(argument) else { return nil }
        self.value = value
    }

    package static func invalid(_ text: String, option: String) -> String {
        "--\(option) '\(text)' is not a date (2022-08-20) or a date-time with offset (2022-08-20T08:00:00Z)"
    }

    package func instant(in zone: ZoneRules) -> Int64 {
        switch value {
        case .instant(let s): return s
        case .date(let d): return zone.utcSeconds(of: d)
        }
    }
}
