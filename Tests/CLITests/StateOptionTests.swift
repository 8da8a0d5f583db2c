import Foundation
import Testing

/// Issue #31: `--state` on the commands that read the state, `conflicts` among them: an
/// INVITE operand naming an inbox entry is looked up in that state, not the default one.
@Suite struct StateOptionTests {
    @Test func conflictsFindsAnInboxEntryInTheStateNamed() throws {
        let dir = try Spawn.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let payload = #"{"title": "Budget review", "start": "2022-08-22T17:00:00Z", "end": "2022-08-22T18:00:00Z", "id": 77}"#
        try payload.write(toFile: dir + "/invite.json", atomically: true, encoding: .utf8)
        let env = ["XDG_DATA_HOME": dir + "/default-data"]
        #expect(try Binary.run(["notify", "--state", dir + "/state", dir + "/invite.json"], env: env).status == 0)
        let named = try Binary.run(["conflicts", "--state", dir + "/state", "--json", "1", Binary.sample("work.ics")], env: env)
        #expect(named.status == 0 || named.status == 1, "\(named.stderr)")
        let invitation = try Binary.json(named.stdout)["invite"] as? [String: Any]
        #expect(invitation?["title"] as? String == "Budget review", "\(named.stdout)")
        // The default state (empty here) has no entry 1: 66, as for any INVITE that names nothing.
        let unnamed = try Binary.run(["conflicts", "1", Binary.sample("work.ics")], env: env)
        #expect(unnamed.status == 66, "\(unnamed.stdout)\(unnamed.stderr)")
    }

    /// Settled: `--state` on every command but `help` and `completions`, so one wrapper
    /// can pass it to any; `events` takes it and reads or creates nothing there.
    @Test func everyCommandButHelpAndCompletionsTakesState() throws {
        let usage = try Binary.run(["--help"]).stdout
        let commands = usage.components(separatedBy: "Commands:\n").last?.components(separatedBy: "\n\n").first?
            .split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) } ?? []
        #expect(commands.count >= 15, "\(usage)")
        for command in commands where !["help", "completions"].contains(command) {
            let help = try Binary.run(["help", command])
            #expect(help.stdout.contains("--state DIR"), "\(command) takes no --state")
        }
        let dir = try Spawn.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let events = try Binary.run(["events", "--state", dir + "/state", "--from", "2022-08-20T00:00:00Z", "--to", "2022-08-21T00:00:00Z",
                                     Binary.sample("work.ics")])
        #expect(events.status == 0, "\(events.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/state"))
    }
}
