import Foundation
import Testing

/// `coolcal review` in a real terminal (ReviewTerminalTests, and a test in a few other
/// suites): tmux (its own server socket) runs it in a pane; keys go in with
/// `send-keys`, the screen comes out with `capture-pane -p`. The pane's shell saves
/// `stty -a` before and after, so a terminal left in raw mode shows. (It was
/// ReviewTerminalTests' `Pane` until the slow tier took that suite, #47.)
final class TerminalPane {
    let dir: String
    let socket: String

    /// Three invitations in a fresh inbox (Alpha oldest, Gamma newest), or what
    /// `fill` puts in the state `DIR/state`, then `review CAL` in a `width` × `height`
    /// tmux pane, wrapped in `stty -a` before and after.
    init(width: Int = 100, height: Int = 40, fill: ((String) throws -> Void)? = nil) throws {
        dir = try Spawn.directory()
        socket = "coolcal-review-\(UUID().uuidString.prefix(8))"
        try FileManager.default.copyItem(atPath: Binary.sample("work.ics"), toPath: dir + "/work.ics")
        try FileManager.default.copyItem(atPath: Binary.sample("work.ics"), toPath: dir + "/twin.ics")
        if let fill { try fill(dir) }
        for (id, title, day) in fill == nil ? [(101, "Alpha lunch", 22), (102, "Beta review", 20), (103, "Gamma party", 21)] : [] {
            let payload = #"{"title": "\#(title)", "start": "2022-08-\#(day)T17:00:00Z", "end": "2022-08-\#(day)T18:00:00Z", "id": \#(id)}"#
            let file = dir + "/invite-\(id).json"
            try payload.write(toFile: file, atomically: true, encoding: .utf8)
            for state in ["state", "twin-state"] {
                let run = try Binary.run(["notify", "--state", dir + "/" + state, file])
                #expect(run.status == 0, "\(run.stderr)")
            }
            usleep(20_000)
        }
        let env = "export PATH=/usr/bin:/bin TZ=UTC LANG=en_US.UTF-8 HOME='\(dir)' XDG_CONFIG_HOME='\(dir)/no-config' "
            + "COOLCAL_SERVER=\(Self.server) COOLCAL_SERVER_TIMEOUT=1 TERM=screen"
        let script = "\(env)\ncd '\(dir)'\nstty -a > before.txt\n'\(Binary.path)' review --state '\(dir)/state' '\(dir)/work.ics' 2> err.txt\n"
            + "rc=$?\nstty -a > after.txt\necho $rc > rc.txt\nexec sleep 120\n"
        try script.write(toFile: dir + "/run.sh", atomically: true, encoding: .utf8)
        #expect(tmux(["new-session", "-d", "-x", String(width), "-y", String(height), "sh '\(dir)/run.sh'"]) == 0)
    }

    deinit {
        _ = tmux(["kill-server"])
        // tmux leaves its socket file behind.
        unlink("/tmp/tmux-\(getuid())/\(socket)")
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Nothing listens there: answers stay queued in the outbox.
    static let server = "http://127.0.0.1:9/"

    @discardableResult
    func tmux(_ args: [String]) -> Int32 {
        guard let pid = try? ChildProgram.start(["/usr/bin/tmux", "-L", socket] + args, stdout: dir + "/tmux.out") else { return -1 }
        return ChildProgram.wait(pid)
    }

    var screen: String {
        tmux(["capture-pane", "-p"])
        return ChildProgram.read(dir + "/tmux.out")
    }

    /// Polls the screen (at most ~15 s) until it holds every one of `texts`.
    func waitFor(_ texts: String...) -> Bool {
        for _ in 0..<300 {
            let now = screen
            if texts.allSatisfy(now.contains) { return true }
            usleep(50_000)
        }
        return false
    }

    func keys(_ keys: String...) { tmux(["send-keys"] + keys) }

    /// The exit status the pane's shell saw (polled, at most ~15 s).
    func status() -> String? {
        for _ in 0..<300 {
            let rc = ChildProgram.read(dir + "/rc.txt")
            if rc.hasSuffix("\n") { return String(rc.dropLast()) }
            usleep(50_000)
        }
        return nil
    }

    func file(_ name: String) -> String { ChildProgram.read(dir + "/" + name) }
}
