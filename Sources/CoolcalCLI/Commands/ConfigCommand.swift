import Foundation
import CoolcalAnswering
import CoolcalMail
import CoolcalModel
import CoolcalRSVP
import CoolcalSchedule
import CoolcalSpool
import CoolcalSupport

/// `coolcal config`: every effective setting and where it came from.
package struct ConfigCommand: CommandUnit, Equatable {
    package static let check = Flag("check", help: "also look at each calendar line: there, writable, a folder of calendars (vdirsyncer), and for a CalDAV calendar whether its server schedules (calendar-auto-schedule), its schedule-calendar-transp and the calendar for new invitations where offered; asks the servers (text only)")
    package static let spec = CommandSpec(
        name: "config",
        usage: "coolcal config [--check] [options]",
        summary: "show the effective settings and where each comes from",
        options: [check.spec, SharedOptions.tz.spec, SharedOptions.me.spec, SharedOptions.buffer.spec, SharedOptions.state.spec,
                  SharedOptions.server.spec, SharedOptions.json.spec],
        examples: ["coolcal config", "coolcal config --json", "coolcal config --check"])

    package var common: CommonOptions
    package var buffer: Buffer?
    /// `--check`: the calendars probed after the settings (`ConfigCheck`).
    package var check = false

    package init(_ p: ParsedArguments) throws {
        guard p.operands.isEmpty else { throw p.usage("config takes no arguments") }
        common = try CommonOptions(p)
        buffer = try p.value(SharedOptions.buffer)
        check = p.has(Self.check)
        if check && common.json { throw p.usage("--check prints text only: leave out --json") }
    }

    package func run(_ context: RunContext) throws -> ExitStatus {
        let report = ConfigReport(settings: try context.settings, common: common, buffer: buffer,
                                  environment: context.environment.variables, answers: try context.answers)
        if let warning = report.treeWarning { context.diagnostics.warn(warning) }
        context.out.write(report.render(json: common.json))
        guard check else { return .ok }
        let result = ConfigCheck(settings: report.settings, environment: context.environment.variables).run()
        context.out.write(result.text)
        return result.status
    }
}

/// The rows `coolcal config` shows.
package struct ConfigReport {
    package let settings: Settings
    package let common: CommonOptions
    package let buffer: Buffer?
    package let environment: [String: String]
    package let answers: AnswerStore

    /// The config file's row, then one per `SettingsTable` key, each with its source.
    private var rows: [(key: String, value: String, source: String)] {
        let config = settings.config
        let file = config.path ?? Config.path(environment: environment) ?? "(no HOME)"
        return [("config", file, config.path != nil ? "found" : "not found")] + SettingsTable.all.map { key in
            (key.name, value(of: key), settings.setting(key).source.description)
        }
    }

    /// The effective value as the run uses it.
    private func value(of key: SettingKey) -> String {
        let config = settings.config
        func list(_ values: [String]) -> String { values.isEmpty ? "(none)" : values.joined(separator: ", ") }
        switch key.name {
        case SettingsTable.tz.name: return SystemZone(settings.zone).identifier
        case SettingsTable.me.name: return list(settings.me)
        case SettingsTable.buffer.name: return (buffer ?? config.buffer ?? .standard).description
        case SettingsTable.hours.name: return (config.hours ?? .standard).description
        case SettingsTable.calendars.name: return list(config.calendars)
        case SettingsTable.domain.name: return settings.domain
        case SettingsTable.state.name: return answers.stateDirectory
        case SettingsTable.parked.name: return settings.setting(key).value ?? ParkingPlaces.fallback(environment) ?? "(none)"
        case SettingsTable.server.name:
            return ((try? answers.server()) ?? nil).map(RSVPClient.redacted)
                ?? settings.setting(key).value.map { _ in "(not a usable URL)" } ?? "(none)"
        case SettingsTable.locale.name: return settings.style.locale.identifier
        case SettingsTable.lockTimeout.name: return String(format: "%g s", settings.lockTimeout)
        case SettingsTable.serverTimeout.name: return String(format: "%g s", settings.serverTimeout)
        case SettingsTable.inputTimeout.name: return String(format: "%g s", InputFile.streamTimeout)
        case SettingsTable.sendmail.name: return settings.setting(key).value ?? Sendmail.defaultCommand
        case SettingsTable.allowPublish.name: return settings.allowPublish ? "yes" : "no"
        case SettingsTable.maxDuration.name: return (config.maxDuration ?? Buffer(days: 14, seconds: 0)).description
        case SettingsTable.acceptFrom.name: return settings.acceptFrom.map(\.description).joined(separator: ", ")
        case SettingsTable.trustedAuthserv.name: return list(settings.setting(key).values)
        case SettingsTable.reply.name: return settings.replyMail ? "mail" : "none"
        case SettingsTable.calendarInvitations.name: return settings.calendarInvitations ? "yes" : "no"
        case SettingsTable.policy.name: return ((try? settings.mergePolicy) ?? .acceptIfFree).rawValue
        default: return settings.setting(key).value ?? "(none)"
        }
    }

    package func render(json: Bool) -> String {
        if json {
            // Each member named as the row; a renamed one also under its old name, deprecated.
            let deprecated = Dictionary(uniqueKeysWithValues: SettingsTable.all.compactMap { key in key.deprecatedName.map { (key.name, $0) } })
            return JSONWriter.string(.object(rows.flatMap { row in
                let member = JSONValue.object([("value", .string(row.value)), ("source", .string(row.source))])
                return [(row.key, member)] + (deprecated[row.key].map { [($0, member)] } ?? [])
            }))
        }
        return rows.map { row in
            row.key.padding(toLength: max(14, row.key.count + 1), withPad: " ", startingAt: 0) + row.value + "  (" + row.source + ")\n"
        }.joined() + (missing.map { $0 + "\n" } ?? "")
    }

    /// The first `calendar` line naming a folder of calendars (vdirsyncer's top folder):
    /// read fine, but `merge` and `accept` write into the first calendar and refuse it.
    package var treeWarning: String? {
        guard let first = settings.config.calendars.first, case .tree(let subfolders)? = CalendarDirectory.probe(first),
              let example = subfolders.first else { return nil }
        let names = subfolders.map { URL(fileURLWithPath: $0).lastPathComponent }
        return "calendar = \(first) holds \(subfolders.count) calendar\(subfolders.count == 1 ? "" : "s") in subfolders "
            + "(\(names.joined(separator: ", "))): merge and accept write to the first calendar line and cannot write there; "
            + "name one first, such as 'calendar = \(example)' (the others may follow)"
    }

    /// What a bare `coolcal merge -q` (the systemd unit, a cron line without operands)
    /// lacks, said once here rather than by every run; nil when nothing.
    package var missing: String? {
        let config = settings.config
        var lacking: [String] = []
        if settings.me.isEmpty { lacking.append("me") }
        if settings.setting(SettingsTable.spool).value == nil { lacking.append("spool") }
        if config.calendars.isEmpty { lacking.append("calendar") }
        guard !lacking.isEmpty else { return nil }
        let file = config.path ?? Config.path(environment: environment) ?? "the config file"
        return "note: 'coolcal merge -q' alone (the systemd unit, a cron line without operands) needs "
            + lacking.joined(separator: ", ") + ": add " + (lacking.count == 1 ? "it" : "them") + " to " + file
    }
}
