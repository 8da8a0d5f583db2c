import Foundation
import Testing

/// Help, usage errors, completions, config and the man page: what people who live in
/// a terminal compare with git and curl.
@Suite struct CommandLineTests {
    @Test func overviewHelp() throws {
        let run = try Binary.run(["help"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("""
        coolcal — does an invitation fit your calendar?

        Usage: coolcal COMMAND [options] ARGS...

        Commands:
          conflicts    report the busy events in an invitation's buffered window
          events       list the occurrences in a time window (an agenda)

        """))
        #expect(run.stdout.contains("  completions  print a shell completion script\n"))
        #expect(try Binary.run([]).stdout == run.stdout)
        #expect(try Binary.run(["--help"]).stdout == run.stdout)
    }

    @Test func commandHelpHasUsageOptionsAndAnExample() throws {
        let run = try Binary.run(["events", "--help"])
        #expect(run.stdout.hasPrefix("Usage: coolcal events [options] [CAL...]\n\nList the occurrences in a time window (an agenda).\n\nOptions:\n"))
        #expect(run.stdout.contains("      --from TIME         window start"))
        #expect(run.stdout.contains("\nExamples:\n  coolcal events --from 2022-08-20T00:00:00Z"))
    }

    @Test func typosGetSuggestions() throws {
        let command = try Binary.run(["evnets"])
        #expect(command.status == 64)
        #expect(command.stderr == "coolcal: error: unknown command 'evnets'; did you mean 'events'?\nUsage: coolcal COMMAND [options] ARGS...\nSee 'coolcal help'.\n")
        let option = try Binary.run(["conflicts", "--sugest", "3", "x.json"])
        #expect(option.stderr == "coolcal: error: unknown option '--sugest'; did you mean '--suggest'?\nUsage: coolcal conflicts [options] INVITE [CAL...]\nSee 'coolcal help conflicts'.\n")
        let value = try Binary.run(["conflicts", "--suggest", "lots", "x.json"])
        #expect(value.stderr.hasPrefix("coolcal: error: --suggest needs a number from 1 to 100, not 'lots'\n"))
    }

    @Test(arguments: [("bash", ["bash", "-n"]), ("zsh", ["zsh", "-n"]), ("fish", ["fish", "-n"])])
    func completionScriptsParse(_ shell: String, _ check: [String]) throws {
        let run = try Binary.run(["completions", shell])
        #expect(run.status == 0)
        for option in ["suggest", "if-free", "policy", "dry-run", "from"] {
            #expect(run.stdout.contains(option), "\(shell) script lacks --\(option)")
        }
        let path = try Binary.temp("coolcal.\(shell)", Data(run.stdout.utf8))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = check + [path]
        let err = Pipe()
        p.standardError = err
        try p.run()
        p.waitUntilExit()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(p.terminationStatus == 0, "\(check[0]) -n: \(message)")
    }

    @Test func bashCompletesOptionsAndPolicies() throws {
        let script = try Binary.temp("c.bash", Data(try Binary.run(["completions", "bash"]).stdout.utf8))
        func complete(_ words: [String]) throws -> String {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/bash")
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            p.arguments = ["-c", "source '\(script)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _coolcal; echo \"${COMPREPLY[*]}\""]
            let out = Pipe()
            p.standardOutput = out
            try p.run()
            p.waitUntilExit()
            return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }
        #expect(try complete(["coolcal", "con"]) == "conflicts config\n")
        #expect(try complete(["coolcal", "conflicts", "--bu"]) == "--buffer\n")
        #expect(try complete(["coolcal", "merge", "--policy", "de"]) == "decline-busy\n")
    }

    @Test func suggestionsInJSON() throws {
        let run = try Binary.run(["conflicts", "--json", "--suggest", "2", "--me", "me@example.com", Binary.sample("invite.json"),
                                  Binary.sample("work.ics"), Binary.sample("family.ics"), Binary.sample("vdir")],
                                 env: ["TZ": "America/Los_Angeles"])
        #expect(run.status == 1)
        let suggestions = try #require(try Binary.json(run.stdout)["suggestions"] as? [[String: String]])
        // Saturday's invitation: the next working day is Monday 2022-08-22, 09:00 PDT.
        #expect(suggestions == [
            ["start": "2022-08-22T16:00:00Z", "end": "2022-08-22T20:00:00Z"],
            ["start": "2022-08-22T20:00:00Z", "end": "2022-08-23T00:00:00Z"],
        ])
    }

    @Test func configShowsWhereEachSettingComesFrom() throws {
        let home = try Binary.configHome("me = me@example.com\nbuffer = 90m\ncalendar = ~/work.ics\nhours = 08:00-16:00\n")
        let run = try Binary.run(["config", "--tz", "Europe/Berlin"], env: ["XDG_CONFIG_HOME": home, "HOME": "/home/x"])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("tz            Europe/Berlin  (command line)"))
        #expect(lines.contains("me            me@example.com  (config file)"))
        #expect(lines.contains("buffer        1 h 30 min  (config file)"))
        #expect(lines.contains("calendar      /home/x/work.ics  (config file)"))
        #expect(lines.contains("hours         08:00-16:00  (config file)"))
        let json = try Binary.json(try Binary.run(["config", "--json"], env: ["XDG_CONFIG_HOME": home]).stdout)
        #expect((json["buffer"] as? [String: String]) == ["value": "1 h 30 min", "source": "config file"])
        // The config's key names the row; the old name stays one release, deprecated.
        #expect((json["calendar"] as? [String: String])?["source"] == "config file")
        #expect((json["calendars"] as? [String: String]) == (json["calendar"] as? [String: String]))
        #expect(lines.contains("lock-timeout  10 s  (default)"))
        #expect(lines.contains("server-timeout 5 s  (default)"))
        #expect(lines.contains("input-timeout 30 s  (default)"))
        #expect(!run.stdout.contains("lock timeout") && !run.stdout.contains("calendars"))
    }

    /// Issue #46 item 5: a first `calendar` naming a folder of calendars (vdirsyncer's top
    /// folder) reads fine, but merge cannot write there: `config` says so.
    @Test func configWarnsOfAFolderOfCalendars() throws {
        let top = try Spawn.directory() + "/calendars"
        for name in ["family", "work"] {
            try FileManager.default.createDirectory(atPath: top + "/" + name, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Binary.sample("family.ics"), toPath: top + "/\(name)/a.ics")
        }
        let home = try Binary.configHome("calendar = \(top)\n")
        let run = try Binary.run(["config"], env: ["XDG_CONFIG_HOME": home])
        #expect(run.status == 0)
        #expect(run.stderr == "coolcal: warning: calendar = \(top) holds 2 calendars in subfolders (family, work): merge and accept "
                + "write to the first calendar line and cannot write there; name one first, such as 'calendar = \(top)/family' "
                + "(the others may follow)\n")
        let named = try Binary.configHome("calendar = \(top)/work\ncalendar = \(top)\n")
        #expect(try Binary.run(["config"], env: ["XDG_CONFIG_HOME": named]).stderr == "", "a tree after the first is only read")
    }

    /// Issue #46: an unknown key in the config is ignored with a "did you mean".
    @Test func anUnknownConfigKeySuggestsTheKnownOne() throws {
        let home = try Binary.configHome("calendars = ~/work.ics\ncolour = red\n")
        let run = try Binary.run(["config"], env: ["XDG_CONFIG_HOME": home, "HOME": "/home/x"])
        #expect(run.status == 0)
        let config = home + "/coolcal/config"
        #expect(run.stderr == "coolcal: warning: \(config): line 1: unknown key 'calendars' ignored (did you mean 'calendar'?)\n"
                + "coolcal: warning: \(config): line 2: unknown key 'colour' ignored\n")
        #expect(run.stdout.contains("\ncalendar      (none)  (default)\n"))
    }

    /// A config file that is a FIFO is refused (78), not read until a writer comes.
    @Test func aConfigThatIsNotARegularFileIs78() throws {
        let home = try Binary.configHome("")
        let config = home + "/coolcal/config"
        try FileManager.default.removeItem(atPath: config)
        #expect(mkfifo(config, 0o600) == 0)
        let run = try Binary.run(["config"], env: ["XDG_CONFIG_HOME": home])
        #expect(run.status == 78)
        #expect(run.stderr == "coolcal: error: \(config): not a regular file (a FIFO)\n")
    }

    /// -v says on stderr what was read and decided, and changes nothing on stdout.
    @Test func verboseNotesGoToStderrOnly() throws {
        let args = ["conflicts", "--json", Binary.sample("invite.json"), Binary.sample("work.ics"), Binary.sample("vdir")]
        let plain = try Binary.run(args)
        let verbose = try Binary.run(args + ["-v"])
        #expect(verbose.status == plain.status && verbose.stdout == plain.stdout)
        #expect(plain.stderr == "")
        let notes = verbose.stderr.split(separator: "\n").map(String.init)
        #expect(notes.contains { $0.hasPrefix("coolcal: read ") && $0.hasSuffix("work.ics: 6 events parsed") })
        #expect(notes.contains { $0.hasPrefix("coolcal: read ") && $0.contains("vdir: 4 files") })
        #expect(notes.contains("coolcal: Family Reunion: busy (4 conflicts, 2 ignored)"), "\(notes)")
    }

    /// One precedence for every key: flag > environment > config file > default.
    @Test func flagBeatsEnvironmentBeatsConfig() throws {
        let home = try Binary.configHome("server = http://config.example/\n")
        func server(_ args: [String], _ env: [String: String]) throws -> [String: String]? {
            let run = try Binary.run(["config", "--json"] + args, env: env.merging(["XDG_CONFIG_HOME": home]) { $1 })
            return try Binary.json(run.stdout)["server"] as? [String: String]
        }
        #expect(try server([], [:]) == ["value": "http://config.example/", "source": "config file"])
        #expect(try server([], ["COOLCAL_SERVER": "http://env.example/"]) == ["value": "http://env.example/", "source": "COOLCAL_SERVER"])
        #expect(try server(["--server", "http://flag.example/"], ["COOLCAL_SERVER": "http://env.example/"])
                == ["value": "http://flag.example/", "source": "command line"])
        let timeout = try Binary.json(try Binary.run(["config", "--json"], env: ["COOLCAL_SERVER_TIMEOUT": "7"]).stdout)
        #expect((timeout["server-timeout"] as? [String: String]) == ["value": "7 s", "source": "COOLCAL_SERVER_TIMEOUT"])
        #expect((timeout["http timeout"] as? [String: String]) == ["value": "7 s", "source": "COOLCAL_SERVER_TIMEOUT"], "deprecated")
        #expect(timeout["lock-timeout"] != nil && timeout["input-timeout"] != nil && timeout["lock timeout"] != nil)
    }

    @Test func defaultCalendarsComeFromTheConfig() throws {
        let home = try Binary.configHome("calendar = \(Binary.sample("work.ics"))\n")
        let run = try Binary.run(["conflicts", "--json", Binary.sample("invite.json")], env: ["XDG_CONFIG_HOME": home])
        #expect(run.status == 1)
        let none = try Binary.run(["conflicts", Binary.sample("invite.json")])
        #expect(none.status == 64)
        #expect(none.stderr.hasPrefix("coolcal: error: missing a calendar (name one, or add 'calendar = PATH' to the config file)\n"))
    }

    @Test func manPageIsLintClean() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["mandoc", "-Tlint", "-W", "warning", Binary.root.appendingPathComponent("man/coolcal.1").path]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        p.waitUntilExit()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(p.terminationStatus == 0 && text.isEmpty, "mandoc: \(text)")
    }
}
