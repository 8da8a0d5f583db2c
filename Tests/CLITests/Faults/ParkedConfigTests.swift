import Foundation
import Testing

/// Issue #45: the config's `parked = DIR` (a leading `~/` is HOME) is where `process` parks
/// when the state's `parked/` cannot take the message, and `coolcal config` shows it, or
/// the default `${XDG_STATE_HOME:-~/.local/state}/coolcal/parked`.
@Suite struct ParkedConfigTests {
    func row(_ env: [String: String]) throws -> (value: String?, source: String?) {
        let run = try Binary.run(["config", "--json"], env: env)
        #expect(run.status == 0, "\(run.stderr)")
        let parked = try Binary.json(run.stdout)["parked"] as? [String: Any]
        return (parked?["value"] as? String, parked?["source"] as? String)
    }

    @Test func theConfigsParkedDirectory() throws {
        let d = try FaultDesk()
        #expect(try row(["HOME": d.root]) == (d.root + "/.local/state/coolcal/parked", "default"))
        #expect(try row(["HOME": d.root, "XDG_STATE_HOME": d.xdgState]) == (d.fallback, "XDG_STATE_HOME"))
        let config = try Binary.configHome("parked = ~/kept\n")
        #expect(try row(["HOME": d.root, "XDG_CONFIG_HOME": config]) == (d.root + "/kept", "config file"))
        // The state's path a file: parked in the config's directory.
        try Data("a file\n".utf8).write(to: URL(fileURLWithPath: d.state))
        let run = try d.deliver(FaultDesk.invitation("kept@example.org"), env: ["XDG_CONFIG_HOME": config])
        #expect(run.status == 0 && run.stdout.hasSuffix("; parked, answered once fixed)\n"), "\(run.stdout)\(run.stderr)")
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: d.root + "/kept/new")) ?? []
        #expect(kept.count == 1 && d.parked(fallback: true).isEmpty, "\(kept)")
        // Fixed: the next delivery answers it from there.
        unlink(d.state)
        let next = try d.deliver(FaultDesk.invitation("kept-next@example.org", start: "20310310T100000Z"), env: ["XDG_CONFIG_HOME": config])
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        #expect(try d.count("kept@example.org") == 1)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: d.root + "/kept/new")) ?? []).isEmpty)
    }
}
