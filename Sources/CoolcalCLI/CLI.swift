import Foundation
import CoolcalModel

/// The command-line program as a function: arguments and environment in, output
/// and an exit status out. `Sources/coolcal/main.swift` only calls this.
///
/// argv → `CommandParser` → a `CommandUnit` → `run(RunContext)` → exit status; every
/// error becomes its status here, once.
public enum CLI {
    public static func run(_ args: [String], environment: RunEnvironment, stdout: TextSink, stderr: TextSink) -> Int32 {
        let diagnostics = Diagnostics()
        var status = ExitStatus.ok
        var failure: String?
        do {
            switch try CommandParser.parse(args) {
            case .help(nil):
                stdout.write(HelpText.overview())
            case .help(let name?):
                if let spec = CommandTable.command(named: name) { stdout.write(HelpText.command(spec)) }
            case .version:
                stdout.write(HelpText.version + "\n")
            case .run(let command):
                if command.common.verbose { diagnostics.onNote = { stderr.write("coolcal: \(PrintableText.clean($0))\n") } }
                let context = RunContext(common: command.common, environment: environment, diagnostics: diagnostics, out: stdout)
                status = try command.run(context)
            }
        } catch let error as UsageError {
            status = .usage
            failure = "coolcal: error: \(PrintableText.clean(error.message))\n" + HelpText.usageLine(error.command)
        } catch {
            status = ExitStatus.of(error)
            failure = "coolcal: error: \(PrintableText.clean("\(error)"))\n"
        }
        // Warnings first: the error, if any, is the last thing said.
        // Each message is one line: no title or file name in it can forge another.
        for warning in diagnostics.warnings { stderr.write("coolcal: warning: \(PrintableText.clean(warning))\n") }
        if let failure { stderr.write(failure) }
        return status.rawValue
    }
}
