import Foundation
import Testing
@testable import CLITests

/// `coolcal review` in a real terminal: tmux (its own server socket) runs it in a
/// 100×40 pane; keys go in with `send-keys`, the screen comes out with
/// `capture-pane -p`. The pane's shell saves `stty -a` before and after, so a
/// terminal left in raw mode shows.
@Suite(.serialized) struct ReviewTerminalTests {
    /// The tmux pane `review` runs in (in CLITests: suites of the quick tier use it too).
    typealias Pane = TerminalPane

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
        let shell = ChildProgram.read(pane.dir + "/tmux.out").trimmingCharacters(in: .whitespacesAndNewlines)
        let children = ChildProgram.read("/proc/\(shell)/task/\(shell)/children").split(separator: " ")
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
