import Foundation
import Testing

/// `coolcal review` in a real terminal: tmux (its own server socket) runs it in a
/// 100×40 pane; keys go in with `send-keys`, the screen comes out with
/// `capture-pane -p`. The pane's shell saves `stty -a` before and after, so a
/// terminal left in raw mode shows.
@Suite(.serialized) struct ReviewTerminalTests {
    final class Pane {
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
            guard let pid = try? DesktopNotifyTests.Desk.start(["/usr/bin/tmux", "-L", socket] + args, stdout: dir + "/tmux.out") else { return -1 }
            return DesktopNotifyTests.Desk.wait(pid)
        }

        var screen: String {
            tmux(["capture-pane", "-p"])
            return DesktopNotifyTests.read(dir + "/tmux.out")
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
                let rc = DesktopNotifyTests.read(dir + "/rc.txt")
                if rc.hasSuffix("\n") { return String(rc.dropLast()) }
                usleep(50_000)
            }
            return nil
        }

        func file(_ name: String) -> String { DesktopNotifyTests.read(dir + "/" + name) }
    }

    static func json(_ args: [String]) throws -> [[String: Any]] {
        let run = try Binary.run(args)
        let object = try Binary.json(run.stdout)
        return try #require((object["responses"] ?? object["outbox"] ?? object["entries"]) as? [[String: Any]], "\(run.stdout)")
    }

    @Test func acceptDeclineCommentAsTheCommandsDo() throws {
        let pane = try Pane()
        #expect(pane.waitFor("coolcal review: invitation 1 of 3 (inbox 3, id 103)", "Gamma party", "a accept  d decline"), "\(pane.screen)")
        pane.keys("a")
        #expect(pane.waitFor("accepted: Gamma party (id 103): added to", "invitation 2 of 3 (inbox 2, id 102)", "Beta review"), "\(pane.screen)")
        pane.keys("d")
        #expect(pane.waitFor("declined: Beta review (id 102)", "invitation 3 of 3 (inbox 1, id 101)", "Alpha lunch"), "\(pane.screen)")
        pane.keys("c")
        #expect(pane.waitFor("comment (Enter sends, Esc cancels):"), "\(pane.screen)")
        pane.keys("-l", "Running lat")
        pane.keys("BSpace")
        pane.keys("-l", "te")
        #expect(pane.waitFor("comment (Enter sends, Esc cancels): Running late"), "\(pane.screen)")
        pane.keys("Enter")
        // A comment leaves the invitation unanswered (as `inbox --unanswered` says): the end line counts it (issue #46).
        #expect(pane.waitFor("commented: Alpha lunch (id 101)", "1 still unanswered (coolcal review shows it again)", "3 of 3 answered"),
                "\(pane.screen)")
        pane.keys("q")
        #expect(pane.status() == "0", "\(pane.file("err.txt"))")
        // (rc.txt is written after after.txt.)
        #expect(pane.file("before.txt") == pane.file("after.txt") && pane.file("before.txt").contains(" icanon "))
        #expect(!pane.screen.contains("coolcal review: invitation"), "the alternate screen was not left")

        // The same answers given with the commands, on a twin calendar and state.
        let twin = ["--state", pane.dir + "/twin-state"]
        let env = ["COOLCAL_SERVER": Pane.server, "COOLCAL_SERVER_TIMEOUT": "1"]
        #expect(try Binary.run(["accept"] + twin + ["103", pane.dir + "/twin.ics"], env: env).status == 0)
        #expect(try Binary.run(["decline"] + twin + ["102"], env: env).status == 0)
        #expect(try Binary.run(["comment"] + twin + ["101", "Running late"], env: env).status == 0)
        // (Lines end in CRLF, one Character to Swift.)
        let stamp = { (text: String) in text.split(separator: "\r\n").filter { !$0.hasPrefix("DTSTAMP:") }.joined(separator: "\n") }
        let calendar = pane.file("work.ics")
        #expect(calendar.contains("UID:coolcal-invite-103@") && !calendar.contains("coolcal-invite-102@"))
        #expect(stamp(calendar) == stamp(pane.file("twin.ics")))
        let fields = { (rows: [[String: Any]], keys: [String]) in rows.map { row in keys.map { "\(row[$0] ?? "nil")" }.joined(separator: " ") }.sorted() }
        let answers = ["invite_id", "answer", "comment", "delivery"]
        let reviewed = try Self.json(["responses", "--json", "--state", pane.dir + "/state"])
        #expect(fields(reviewed, answers) == ["101 comment Running late queued", "102 declined <null> queued", "103 accepted <null> queued"])
        #expect(fields(reviewed, answers) == fields(try Self.json(["responses", "--json"] + twin), answers))
        let queued = try Self.json(["outbox", "--json", "--state", pane.dir + "/state"])
        let twinQueued = try Self.json(["outbox", "--json"] + twin)
        #expect(queued.count == 3)
        #expect(fields(queued, ["invite_id", "method", "state"]) == fields(twinQueued, ["invite_id", "method", "state"]))
    }

    @Test func controlCRestoresTheTerminal() throws {
        let pane = try Pane()
        #expect(pane.waitFor("invitation 1 of 3"), "\(pane.screen)")
        pane.keys("n")
        #expect(pane.waitFor("invitation 2 of 3 (inbox 2, id 102)"), "\(pane.screen)")
        // A resize (SIGWINCH) draws the screen again at the new width.
        pane.tmux(["resize-window", "-x", "60", "-y", "30"])
        #expect(pane.waitFor("coolcal review: invitation 2 of 3", "a accept  d decline  t tentative  x dismiss  q quit\ns new time  c comment  n next  p previous"),
                "\(pane.screen)")
        pane.tmux(["resize-window", "-x", "100", "-y", "40"])
        #expect(pane.waitFor("a accept  d decline  t tentative  s new time  c comment  x dismiss  n next  p previous  q quit"), "\(pane.screen)")
        pane.keys("C-c")
        #expect(pane.status() == "130")
        #expect(pane.file("before.txt") == pane.file("after.txt") && pane.file("before.txt").contains(" icanon "),
                "before:\n\(pane.file("before.txt"))\nafter:\n\(pane.file("after.txt"))")
        // Nothing was answered.
        #expect(try Self.json(["responses", "--json", "--state", pane.dir + "/state"]).isEmpty)
    }

    /// SIGINT and SIGTERM from outside (not the C-c byte): the handler restores the
    /// terminal and exits 128 + the signal.
    @Test(arguments: [(SIGINT, "130"), (SIGTERM, "143")])
    func signalsRestoreTheTerminal(_ signal: Int32, _ status: String) throws {
        let pane = try Pane()
        #expect(pane.waitFor("invitation 1 of 3"), "\(pane.screen)")
        // coolcal is the pane shell's only child.
        pane.tmux(["display-message", "-p", "#{pane_pid}"])
        let shell = DesktopNotifyTests.read(pane.dir + "/tmux.out").trimmingCharacters(in: .whitespacesAndNewlines)
        let children = DesktopNotifyTests.read("/proc/\(shell)/task/\(shell)/children").split(separator: " ")
        let pid = try #require(children.first.flatMap { pid_t($0) }, "no child of the pane's shell \(shell)")
        #expect(kill(pid, signal) == 0)
        #expect(pane.status() == status)
        #expect(pane.file("before.txt") == pane.file("after.txt") && pane.file("before.txt").contains(" icanon "))
        #expect(!pane.screen.contains("coolcal review: invitation"), "the alternate screen was not left")
    }

    @Test func withoutATerminalItRefuses() throws {
        let dir = try Spawn.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try Binary.run(["review", "--state", dir + "/state", Binary.sample("work.ics")])
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("coolcal: error: review needs a terminal on standard input and output; 'coolcal inbox --unanswered' lists"))
        #expect(run.stdout.isEmpty)
    }

    /// Issue #29: on a small terminal (40×10, 60×10) nothing wraps or scrolls: the header,
    /// the title (wide characters, two columns each, cut with `…`), its time, the sender,
    /// the hold and the keys stay on screen; the day view gives way first, and where it
    /// has a little room (60×16) it shows the invitation's own time, not the buffer.
    @Test(arguments: [(40, 10), (60, 10), (60, 16)])
    func aSmallTerminalKeepsTheHeaderTitleAndKeys(width: Int, height: Int) throws {
        let title = String(repeating: "会議室予約", count: 8)
        let pane = try Pane(width: width, height: height) { dir in
            let spool = dir + "/spool"
            try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
            try MailCorpus.gmail(MailCorpus.calendar(summary: title)).write(to: URL(fileURLWithPath: spool + "/invite.eml"))
            // From Alice, whom this fresh state does not know: held for the person.
            let merge = try Binary.run(["merge", "--me", "me@example.com", "--state", dir + "/state", "--spool", spool, dir + "/work.ics"])
            #expect(merge.status == 0, "\(merge.stderr)")
            #expect(merge.stdout.contains("held"), "\(merge.stdout)")
        }
        let keys = width < 60 ? ["a accept d decline t tent. x dismiss", "s new time c comment n/p move q quit"]
            : ["a accept  d decline  t tentative  x dismiss  q quit", "s new time  c comment  n next  p previous"]
        #expect(pane.waitFor(keys[1]), "\(pane.screen)")
        let rows = Array(pane.screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).prefix(height))
        // A line of `room` columns holds less than `room` characters; a longer one is cut, `…` last.
        let cut = { (text: String, room: Int) in text.count < room ? text : String(text.prefix(room - 2)) + "…" }
        #expect(rows.count == height)
        // The header's short form: the long one does not fit.
        #expect(rows.first == cut("1 of 1 (inbox 1, id corpus-1@example.com)", width), "\(rows)")
        // Forty wide characters: as many as fit in width - 2 columns.
        #expect(rows.dropFirst().first == String(title.prefix((width - 2) / 2)) + "…", "\(rows)")
        // (DateText writes thin spaces around the dash and a narrow one before AM.)
        #expect(rows.dropFirst(2).first == "  Mar 3, 2031, 10:00\u{2009}–\u{2009}11:00\u{202F}AM", "\(rows)")
        #expect(rows.contains("  " + cut("from: Alice Example <alice@example.com>", width - 2)), "\(rows)")
        #expect(rows.contains("  held for you: unknown sender"), "\(rows)")
        #expect(rows.contains("Free: nothing busy in the window"), "\(rows)")
        #expect(rows.suffix(2) == keys[...], "\(rows)")
        if height >= 16 {
            #expect(rows.contains { $0.hasPrefix("  10:00\u{202F}AM █") }, "the invitation's own time is not on screen: \(rows)")
            #expect(!rows.contains { $0.contains("8:00\u{202F}AM") }, "the buffer before it is: \(rows)")
        } else {
            #expect(!rows.contains("  Mon, Mar 3"), "a day view with no room for a row: \(rows)")
        }
        pane.keys("q")
        #expect(pane.status() == "0", "\(pane.file("err.txt"))")
    }
}
