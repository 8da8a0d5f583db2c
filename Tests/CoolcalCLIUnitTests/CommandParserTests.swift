import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalSchedule
@testable import CoolcalCLI
@testable import CoolcalTestSupport

@Suite struct CommandParserTests {
    /// The command a line parses to, as its unit type.
    private func parsed<T: CommandUnit>(_ args: [String], as _: T.Type) throws -> T {
        guard case .run(let command) = try CommandParser.parse(args) else { throw UsageError("not a command", command: nil) }
        return try #require(command as? T)
    }

    @Test func conflictsWithEveryOption() throws {
        let command = try parsed([
            "conflicts", "--json", "--tz", "Europe/Berlin", "--me", "a@x", "--me=b@x", "--buffer", "90m",
            "-q", "-v", "--color=never", "--suggest", "3", "--hours", "08:30-17:00", "--weekends", "invite.json", "a.ics", "dir",
        ], as: ConflictsCommand.self)
        #expect(command.invite == "invite.json")
        #expect(command.calendars == ["a.ics", "dir"])
        #expect(command.common.json && command.common.quiet && command.common.verbose)
        #expect(command.common.tz == "Europe/Berlin")
        #expect(command.common.me == ["a@x", "b@x"])
        #expect(command.common.color == .never)
        #expect(command.common.command == "conflicts")
        #expect(command.buffer == Buffer(days: 0, seconds: 5400))
        #expect(command.suggest == 3)
        #expect(command.hours == WorkingHours(parsing: "08:30-17:00"))
        #expect(command.weekends)
    }

    @Test func dashIsStdinAndDoubleDashEndsOptions() throws {
        let command = try parsed(["conflicts", "-", "--", "--odd.ics"], as: ConflictsCommand.self)
        #expect(command.invite == "-")
        #expect(command.calendars == ["--odd.ics"])
        #expect(command.common == CommonOptions(command: "conflicts"))
    }

    @Test func typedValuesOfOtherCommands() throws {
        let merge = try parsed(["merge", "--spool", "s", "--policy", "decline-busy", "-q", "a.ics"], as: MergeCommand.self)
        #expect(merge.policy == .declineBusy && merge.spoolDirectory == "s" && merge.common.quiet)
        let reply = try parsed(["reply", "--tentative", "--comment", "maybe", "x.ics"], as: ReplyCommand.self)
        #expect(reply.partstat == "TENTATIVE" && reply.comment == "maybe")
        let events = try parsed(["events", "--from", "2022-08-20", "--to", "2022-08-21T00:00:00Z"], as: EventsCommand.self)
        #expect(events.from == .local(CivilDateTime(year: 2022, month: 8, day: 20)))
        #expect(events.to == .instant(1_661_040_000))
        // Issue #46: window words and a local date-time.
        let words = try parsed(["events", "--from", "Tomorrow", "--to", "+7d"], as: EventsCommand.self)
        #expect(words.from == .tomorrow && words.to == .days(7))
        #expect(try parsed(["events", "--from", "today"], as: EventsCommand.self).from == .today)
        #expect(try parsed(["events", "--from", "2022-08-20T09:30"], as: EventsCommand.self).from
                == .local(CivilDateTime(year: 2022, month: 8, day: 20, hour: 9, minute: 30)))
        #expect(try parsed(["events", "--from", "2022-08-20T09:30:15"], as: EventsCommand.self).from
                == .local(CivilDateTime(year: 2022, month: 8, day: 20, hour: 9, minute: 30, second: 15)))
        for bad in ["+d", "-1d", "+2w", "2022-08-20T9:30", "2022-08-20T24:00", "yesterday"] {
            #expect(throws: UsageError.self) { try parsed(["events", "--from", bad], as: EventsCommand.self) }
        }
        #expect(try parsed(["inbox", "open", "3"], as: InboxCommand.self).open == "3")
        #expect(try parsed(["completions", "fish"], as: CompletionsCommand.self).shell == .fish)
    }

    @Test func helpAndVersion() throws {
        func kind(_ args: [String]) throws -> String {
            switch try CommandParser.parse(args) {
            case .help(let name): return "help " + (name ?? "-")
            case .version: return "version"
            case .run(let command): return "run " + type(of: command).spec.name
            }
        }
        #expect(try kind([]) == "help -")
        #expect(try kind(["--help"]) == "help -")
        #expect(try parsed(["help", "events"], as: HelpCommand.self).topic == "events")
        #expect(try kind(["conflicts", "--help"]) == "help conflicts")
        #expect(try kind(["events", "-h"]) == "help events")
        #expect(try kind(["--version"]) == "version")
        #expect(try kind(["-V"]) == "version")
        #expect(try CommandParser.commandName(["accept", "-v", "i", "c"]) == "accept")
    }

    /// Every command has -v/--verbose and -h/--help, and -V is never a command's option.
    @Test func everyCommandHasVerboseAndHelp() {
        for spec in CommandTable.all {
            #expect(spec.options.contains { $0.long == "verbose" && $0.short == "v" }, "\(spec.name) lacks -v")
            #expect(spec.options.contains { $0.long == "help" && $0.short == "h" }, "\(spec.name) lacks -h")
            #expect(!spec.options.contains { $0.short == "V" }, "\(spec.name) takes -V")
            #expect(Set(spec.options.map(\.long)).count == spec.options.count, "\(spec.name) declares an option twice")
        }
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
        (["conflicts", "--suggest", "0", "a", "b"], "--suggest needs a number from 1 to 100, not '0'", "conflicts"),
        (["conflicts", "--hours", "9-5", "a", "b"], "--hours '9-5' is not a range like 09:00-18:00", "conflicts"),
        (["merge", "--spool", "s", "--policy", "maybe", "a"], "--policy must be one of accept-if-free, accept-all, decline-busy, report, not 'maybe'", "merge"),
        (["events", "--from", "yesterday"], "--from 'yesterday' is not today, tomorrow, +Nd, a date (2022-08-20), a local date-time "
            + "(2022-08-20T09:00) or one with an offset (2022-08-20T08:00:00Z)", "events"),
        (["inbox", "open"], "inbox takes nothing, or 'open N'", "inbox"),
    ] as [([String], String, String?)])
    func usageErrors(_ args: [String], _ message: String, _ command: String?) {
        #expect(throws: UsageError(message, command: command)) { try CommandParser.commandName(args) }
    }

    /// Every option the parser knows is documented in the man page.
    @Test func manPageCoversEveryOption() throws {
        let root = Checkout.root
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
