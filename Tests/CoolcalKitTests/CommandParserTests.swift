import Foundation
import Testing
@testable import CoolcalKit

@Suite struct CommandParserTests {
    @Test func conflictsWithEveryOption() throws {
        let command = try CommandParser.parse([
            "conflicts", "--json", "--tz", "Europe/Berlin", "--me", "a@x", "--me=b@x", "--buffer", "90m",
            "-q", "--color=never", "invite.json", "a.ics", "dir",
        ])
        var expected = ConflictsRequest(invite: "invite.json", calendars: ["a.ics", "dir"])
        expected.common = CommonRequest(command: "conflicts", json: true, tz: "Europe/Berlin", me: ["a@x", "b@x"], color: .never)
        expected.buffer = Buffer(days: 0, seconds: 5400)
        expected.quiet = true
        #expect(command == .conflicts(expected))
    }

    @Test func dashIsStdinAndDoubleDashEndsOptions() throws {
        let command = try CommandParser.parse(["conflicts", "-", "--", "--odd.ics"])
        var expected = ConflictsRequest(invite: "-", calendars: ["--odd.ics"])
        expected.common.command = "conflicts"
        #expect(command == .conflicts(expected))
    }

    @Test func helpAndVersion() throws {
        #expect(try CommandParser.parse([]) == .help(nil))
        #expect(try CommandParser.parse(["--help"]) == .help(nil))
        #expect(try CommandParser.parse(["help", "events"]) == .help("events"))
        #expect(try CommandParser.parse(["conflicts", "--help"]) == .help("conflicts"))
        #expect(try CommandParser.parse(["events", "-h"]) == .help("events"))
        #expect(try CommandParser.parse(["--version"]) == .version)
    }

    @Test(arguments: [
        (["conflcts"], "unknown command 'conflcts'; did you mean 'conflicts'?", nil),
        (["frobnicate"], "unknown command 'frobnicate'", nil),
        (["conflicts", "--jsno", "a", "b"], "unknown option '--jsno'; did you mean '--json'?", "conflicts"),
        (["conflicts", "-x", "a", "b"], "unknown option '-x'", "conflicts"),
        (["conflicts"], "missing an invitation (and calendars, unless the config names some)", "conflicts"),
        (["conflicts", "--buffer", "soon", "a", "b"], "--buffer 'soon' is not a duration (e.g. 2h, 90m, 1h30m, 0)", "conflicts"),
        (["conflicts", "--buffer"], "option '--buffer' needs a value (DURATION)", "conflicts"),
        (["conflicts", "--buffer", "99999h", "a", "b"], "--buffer '99999h' is longer than the limit of 366 days", "conflicts"),
        (["accept", "--buffer", "53w", "a", "b"], "--buffer '53w' is longer than the limit of 366 days", "accept"),
        (["conflicts", "--json=yes", "a", "b"], "option '--json' takes no value", "conflicts"),
        (["conflicts", "--json", "--json", "a", "b"], "option '--json' given more than once", "conflicts"),
        (["conflicts", "--tz", "A", "--tz", "B", "a", "b"], "option '--tz' given more than once", "conflicts"),
        (["conflicts", "--color", "sometimes", "a", "b"], "--color must be auto, always or never, not 'sometimes'", "conflicts"),
        (["conflicts", "a", "-"], "only the invitation can be read from standard input", "conflicts"),
        (["completions", "tcsh"], "completions needs one of bash, zsh, fish", "completions"),
        (["config", "x"], "config takes no arguments", "config"),
        (["help", "nope"], "unknown command 'nope'", nil),
    ] as [([String], String, String?)])
    func usageErrors(_ args: [String], _ message: String, _ command: String?) {
        #expect(throws: UsageError(message, command: command)) { try CommandParser.parse(args) }
    }

    /// Every option the parser knows is documented in the man page.
    @Test func manPageCoversEveryOption() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let man = try String(contentsOf: root.appendingPathComponent("man/coolcal.1"), encoding: .utf8)
            .replacingOccurrences(of: "\\-", with: "-")
            .replacingOccurrences(of: "\\fB", with: "").replacingOccurrences(of: "\\fR", with: "")
            .replacingOccurrences(of: "\\fI", with: "")
        for spec in CommandTable.all {
            #expect(man.contains(spec.name), "man page lacks command \(spec.name)")
            for option in spec.options {
                let documented = man.contains("--\(option.long)") || man.contains("Fl -\(option.long)")
                #expect(documented, "man page lacks --\(option.long) of \(spec.name)")
            }
        }
    }
}
