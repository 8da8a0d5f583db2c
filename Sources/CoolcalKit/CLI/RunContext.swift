import Foundation

/// Everything a command runs with, built once per run: its settings (flags merged
/// with the environment and the config file), the environment, the diagnostics
/// every layer reports to, and where output goes.
final class RunContext {
    let environment: RunEnvironment
    let diagnostics: Diagnostics
    let out: TextSink
    let common: CommonOptions
    private var cached: Settings?

    init(common: CommonOptions, environment: RunEnvironment, diagnostics: Diagnostics, out: TextSink) {
        self.common = common
        self.environment = environment
        self.diagnostics = diagnostics
        self.out = out
    }

    /// Read on first use: commands that need no settings (help, completions) work
    /// whatever the config file says.
    var settings: Settings {
        get throws {
            if let cached { return cached }
            let settings = try Settings(common, environment, diagnostics)
            cached = settings
            return settings
        }
    }

    /// The answers (state directory, server) of this run.
    var answers: Answers {
        get throws { Answers(settings: try settings, common: common, diagnostics: diagnostics) }
    }

    /// Writes a line of output unless `--quiet`. Nothing in it (a title, a file name)
    /// can break it into two lines or reach the terminal as a control character.
    func say(_ line: String) {
        if !common.quiet { out.write(PrintableText.clean(line) + "\n") }
    }

    /// With `--verbose`, a line on stderr: what was done and why.
    func note(_ message: @autoclosure () -> String) {
        diagnostics.note(message())
    }
}
