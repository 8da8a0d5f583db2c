import Foundation
import CoolcalCheck
import CoolcalModel
import CoolcalOutput
import CoolcalSchedule
import CoolcalSupport

/// `coolcal conflicts INVITE CAL...`: the main job, for people and scripts.
package struct ConflictsCommand: CommandUnit, Equatable {
    package static let suggest = Option<SlotCount>("suggest", value: "N", completion: .none, help: "also list the next N free slots of the invitation's length")
    package static let hours = Option<WorkingHours>("hours", value: "HH:MM-HH:MM", completion: .none, help: "working hours for --suggest, in --tz (default 09:00-18:00; config: hours)")
    package static let weekends = Flag("weekends", help: "let --suggest use Saturdays and Sundays")
    package static let dayView = Flag("day-view", help: "draw the day view even when standard output is not a terminal (width from COLUMNS, else 80)")

    package static let spec = CommandSpec(
        name: "conflicts",
        usage: "coolcal conflicts [options] INVITE [CAL...]",
        summary: "report the busy events in an invitation's buffered window",
        options: [
            SharedOptions.json.spec, SharedOptions.tz.spec, SharedOptions.me.spec, SharedOptions.buffer.spec,
            suggest.spec, hours.spec, weekends.spec, dayView.spec, SharedOptions.quiet.spec, SharedOptions.color.spec,
            SharedOptions.state.spec,
        ],
        examples: [
            "coolcal conflicts invite.json ~/calendars/work.ics ~/calendars/family/",
            "coolcal conflicts --json --buffer 30m - work.ics < invite.json",
            "coolcal conflicts --suggest 3 --hours 08:30-17:00 invite.json work.ics",
            "coolcal conflicts --state ~/.local/share/coolcal 3 work.ics",
        ])

    package var common: CommonOptions
    package var invite: String
    package var calendars: [String]
    package var buffer: Buffer?
    package var suggest: Int?
    package var hours: WorkingHours?
    package var weekends = false
    package var dayView = false

    package init(_ p: ParsedArguments) throws {
        guard let invite = p.operands.first else {
            throw p.usage("missing an invitation (and calendars, unless the config names some)")
        }
        self.invite = invite
        calendars = Array(p.operands.dropFirst())
        common = try CommonOptions(p)
        buffer = try p.value(SharedOptions.buffer)
        suggest = try p.value(Self.suggest)?.count
        hours = try p.value(Self.hours)
        weekends = p.has(Self.weekends)
        dayView = p.has(Self.dayView)
        try p.refuseStdin(p.operands.dropFirst(), "only the invitation can be read from standard input")
    }

    package func run(_ context: RunContext) throws -> ExitStatus {
        let settings = try context.settings
        let invite = try InviteOperand.load(invite, context)
        let check = ConflictCheck(finder: ConflictFinder(buffer: settings.buffer(buffer), zone: settings.zone),
                                  reader: settings.reader)
        let slots = suggest.map { _ in
            SlotFinder(finder: check.finder, hours: hours ?? settings.config.hours ?? .standard, weekends: weekends)
        }
        // Free slots are sought for the first instance of a recurring invitation.
        let wider = slots.map { $0.searchWindow(for: invite.first).union(check.finder.window(for: invite)) }
        let (report, occurrences) = try check.run(invite, against: try settings.calendars(calendars, command: "conflicts"),
                                                  window: wider)
        let suggestions = slots.map { $0.suggestions(for: invite.first, count: suggest ?? 0, occurrences: occurrences) }
        guard !common.quiet else { return report.free ? .ok : .busy }
        if common.json {
            var doc = JSONDocuments.conflicts(report)
            if let suggestions, case .object(var pairs) = doc {
                pairs.append(("suggestions", JSONDocuments.suggestions(suggestions)))
                doc = .object(pairs)
            }
            context.out.write(JSONWriter.string(doc))
        } else {
            let terminal = context.environment.stdoutIsTerminal
            let width = terminal || dayView
                ? TerminalSize.width(fd: terminal ? STDOUT_FILENO : nil, environment: settings.environment) : nil
            context.out.write(ConflictsText(style: settings.style, dayViewWidth: width).render(report, suggestions: suggestions))
        }
        return report.free ? .ok : .busy
    }
}

/// `--suggest N`: how many free slots, 1 to 100.
package struct SlotCount: ArgumentValue, Equatable {
    package var count: Int

    package init?(argument: String) {
        guard let n = Int(argument), (1...100).contains(n) else { return nil }
        count = n
    }

    package static func invalid(_ text: String, option: String) -> String {
        "--\(option) needs a number from 1 to 100, not '\(text)'"
    }
}
