import Foundation
import CoolcalAnswering
import CoolcalMail
import CoolcalModel
import CoolcalOutput
import CoolcalSupport
import CoolcalWriting

extension Settings {
    /// What the answering workflows read of this run (CoolcalAnswering never sees flags).
    package func answering(command: String?) -> AnswerSettings {
        var settings = AnswerSettings(me: me, domain: Lazy { [self] in domain }, now: now, zone: madeZone, configBuffer: config.buffer,
                       serverTimeout: serverTimeout, environment: environment, diagnostics: diagnostics,
                       reader: Lazy { [self] in reader }, writer: writer, command: command,
                       allowPublish: allowPublish, maxDuration: config.maxDuration.map { $0.days * 86_400 + $0.seconds } ?? AnswerSettings.defaultMaxDuration)
        settings.acceptFrom = acceptFrom
        settings.name = config.name
        settings.trustedAuthserv = setting(SettingsTable.trustedAuthserv).values
        settings.showTime = { [self] in
            let dates = DateText(style: style)
            return dates.at(.instant($0)) + " in " + dates.zoneName
        }
        return settings
    }

    /// `--state`, `COOLCAL_STATE`, `$XDG_DATA_HOME/coolcal`, `~/.local/share/coolcal`.
    package var stateDirectory: String {
        Self.stateDirectory(flag: setting(SettingsTable.state).value, environment: environment)
            ?? NSTemporaryDirectory() + "/.local/share/coolcal"
    }

    /// The state directory as `stateDirectory` finds it, without the config (the state has
    /// no config key): what `process` parks in when the config cannot be read. nil with
    /// neither `--state`, `COOLCAL_STATE`, `XDG_DATA_HOME` nor `HOME`.
    package static func stateDirectory(flag: String?, environment: [String: String]) -> String? {
        let given = SettingsTable.resolve(SettingsTable.state, flags: flag.map { ["state": [$0]] } ?? [:], environment: environment,
                                          config: [:])
        if let dir = given.value { return dir }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/coolcal" }
        return environment["HOME"].map { $0 + "/.local/share/coolcal" }
    }

    /// `COOLCAL_SENDMAIL`, config `sendmail`, else none (the default), and where it came
    /// from as an error about it says.
    package var sendmailSetting: (command: String?, origin: String) {
        let setting = setting(SettingsTable.sendmail)
        switch setting.source {
        case .environment(let name): return (setting.value, " (from \(name))")
        case .configFile: return (setting.value, " (from \(config.path ?? "the config file"))")
        default: return (setting.value, " (the default; set 'sendmail = CMD' in the config or COOLCAL_SENDMAIL)")
        }
    }
}

extension RunContext {
    /// The state, server and outbox of this run.
    package var answers: AnswerStore {
        get throws {
            let settings = try settings
            return AnswerStore(settings: settings.answering(command: common.command), stateDirectory: settings.stateDirectory,
                               serverSetting: settings.setting(SettingsTable.server).value,
                               sendmailSetting: settings.sendmailSetting)
        }
    }
}
