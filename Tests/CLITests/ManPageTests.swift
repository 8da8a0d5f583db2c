import Foundation
import Testing

/// Issue #46 item 8: the man page's SYNOPSIS names every option `--help` shows (but
/// `-h`/`--help` itself), and its EXAMPLES run as written (`ManExamplesTests`).
@Suite struct ManPageTests {
    static let commands = ["conflicts", "events", "accept", "decline", "reply", "comment", "merge", "process", "notify", "review",
                           "inbox", "responses", "outbox", "known", "config", "completions", "help"]

    static func manPage() throws -> String {
        try String(contentsOf: Binary.root.appendingPathComponent("man/coolcal.1"), encoding: .utf8)
    }

    /// The options in the SYNOPSIS lines of `command` (each `.Nm` block that starts with
    /// `.Cm command`), as `--long` and `-s`.
    static func synopsisOptions(_ command: String, in man: String) -> Set<String> {
        let lines = man.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: ".Sh SYNOPSIS"),
              let end = lines[start...].firstIndex(where: { $0.hasPrefix(".Sh ") && $0 != ".Sh SYNOPSIS" }) else { return [] }
        var options = Set<String>()
        var mine = false
        for (i, line) in lines[start..<end].enumerated() {
            let index = start + i
            if line == ".Nm" { mine = index + 1 < end && lines[index + 1] == ".Cm \(command)"; continue }
            guard mine else { continue }
            // `Fl -accept | -decline`: every dash word after `Fl` is a flag, up to another macro.
            var flags = false, afterFl = false
            for word in line.split(separator: " ").map(String.init) {
                if word == "Fl" || word == ".Fl" {
                    flags = true
                    afterFl = true
                } else if flags && (afterFl || word.hasPrefix("-")) {
                    options.insert("-" + word)
                    afterFl = false
                } else if word != "|" {
                    flags = false
                }
            }
        }
        return options
    }

    /// The options `coolcal COMMAND --help` lists.
    static func helpOptions(_ command: String) throws -> Set<String> {
        let help = try Binary.run([command, "--help"])
        #expect(help.status == 0)
        var options = Set<String>()
        var inOptions = false
        for line in help.stdout.components(separatedBy: "\n") {
            if line == "Options:" { inOptions = true; continue }
            if inOptions && !line.hasPrefix(" ") { inOptions = false }
            guard inOptions else { continue }
            // "  -q, --quiet   ..." or "      --spool DIR   ...": the leading dash words.
            // (A short option, then the long one; the help text may name others after it.)
            for word in line.split(whereSeparator: { $0 == " " || $0 == "," }) {
                guard word.hasPrefix("-") else { break }
                options.insert(String(word))
                if word.hasPrefix("--") { break }
            }
        }
        return options.subtracting(["-h", "--help"])
    }

    @Test(arguments: commands) func everyHelpOptionIsInTheSynopsis(_ command: String) throws {
        let help = try Self.helpOptions(command)
        let synopsis = Self.synopsisOptions(command, in: try Self.manPage())
        #expect(!synopsis.isEmpty || help.isEmpty, "\(command): no SYNOPSIS lines found")
        #expect(help.subtracting(synopsis).isEmpty, "\(command): --help options missing from the SYNOPSIS: \(help.subtracting(synopsis).sorted())")
    }
}
