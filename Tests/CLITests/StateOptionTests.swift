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
}
