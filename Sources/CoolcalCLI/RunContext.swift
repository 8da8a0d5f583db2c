import Foundation
import CoolcalModel

/// Everything a command runs with, built once per run: its settings (flags merged
/// with the environment and the config file), the environment, the diagnostics
/// every layer reports to, and where output goes.
package final class RunContext {
    package let environment: RunEnvironment
    package let diagnostics: Diagnostics
    package let out: TextSink
    package let common: CommonOptions
    private var cached: Settings?

    package init(common: CommonOptions, environment: RunEnvironment, diagnostics: Diagnostics, out: TextSink) {
        self.common = common
        self.environment = environment
        self.diagnostics = diagnostics
        self.out = out
    }

    /// Read on first use: commands that need no settings (help, completions) work
    /// whatever the config file says.
    package var settings: Settings {
        get throws {
            if let cached { return cached }
            let settings = try Settings(common, environment, diagnostics)
            cached = settings
            return settings
        }
    }

    /// Writes a line of output unless `--quiet`. Nothing in it (a title, a file name)
    /// can break it into two lines or reach the terminal as a control character.
    package func say(_ line: String) {
        if !common.quiet { out.write(PrintableText.clean(line) + "\n") }
    }

    /// With `--verbose`, a line on stderr: what was done and why.
    package func note(_ message: @autoclosure () -> String) {
        diagnostics.note(message())
    }
}
