import Foundation
import Testing
@testable import CLITests

/// `notify --desktop` and `merge --notify` on a real session bus with a real
/// notification server. The harness: `dbus-daemon --session` started here, `Xvfb`
/// for a display, and Debian's `dunst` on both; an action is invoked the way dunst
/// offers it to a user, `dunstctl context`, which runs dunst's `dmenu` setting — a
/// script that records the menu it was given and picks the line with the label asked
/// for. `dbus-monitor` on the same bus records the `Notify` calls as sent. (Dates as
/// ICU writes them: U+202F before AM/PM, U+2009 around the dash.)
@Suite(.serialized) struct DesktopNotifyTests {
    /// The bus, the display and the server, killed when the test ends.
    final class Desk {
        let dir: String
        let address: String
        private var children: [pid_t] = []

        /// `pick`: the label the dmenu script chooses (Accept, Decline).
        init(pick: String) throws {
            dir = try Spawn.directory()
            children.append(try ChildProgram.start(["/usr/bin/dbus-daemon", "--session", "--nofork", "--print-address=1"], stdout: dir + "/bus"))
            address = try Self.firstLine(dir + "/bus")
            children.append(try ChildProgram.start(["/usr/bin/Xvfb", "-displayfd", "1", "-nolisten", "tcp"], stdout: dir + "/display"))
            let display = ":" + (try Self.firstLine(dir + "/display"))
            let script = dir + "/dmenu.sh"
            try "#!/bin/sh\ncat > '\(dir)/menu.txt'\ngrep -m1 '^#\(pick) ' '\(dir)/menu.txt'\n".write(toFile: script, atomically: true, encoding: .utf8)
            chmod(script, 0o755)
            try "[global]\n    dmenu = \(script)\n    markup = full\n".write(toFile: dir + "/dunstrc", atomically: true, encoding: .utf8)
            children.append(try ChildProgram.start(["/usr/bin/dbus-monitor", "--address", address,
                                            "interface='org.freedesktop.Notifications',member='Notify'"], stdout: dir + "/monitor.txt"))
            children.append(try ChildProgram.start(["/usr/bin/dunst", "-config", dir + "/dunstrc"], stdout: dir + "/dunst.log",
                                           env: ["DISPLAY": display, "DBUS_SESSION_BUS_ADDRESS": address, "HOME": dir]))
            // dunst owns the name once `dunstctl` gets an answer from it (at most ~10 s).
            for _ in 0..<100 where try ctl(["is-paused"]).status != 0 { usleep(100_000) }
            #expect(try ctl(["is-paused"]).stdout == "false\n", "dunst did not come up: \(log)")
        }

        deinit {
            for pid in children.reversed() {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                waitpid(pid, &status, 0)
            }
            try? FileManager.default.removeItem(atPath: dir)
        }

        var log: String { ChildProgram.read(dir + "/dunst.log") }
        var menu: String { ChildProgram.read(dir + "/menu.txt") }
        var notifyCalls: String { ChildProgram.read(dir + "/monitor.txt") }

        func ctl(_ args: [String]) throws -> (status: Int32, stdout: String) {
            let out = dir + "/ctl.out"
            let pid = try ChildProgram.start(["/usr/bin/dunstctl"] + args, stdout: out, env: ["DBUS_SESSION_BUS_ADDRESS": address])
            return (ChildProgram.wait(pid), ChildProgram.read(out))
        }

        /// Waits (a bounded number of polls) until dunst shows `n` notifications.
        func waitDisplayed(_ n: Int) throws -> Bool {
            for _ in 0..<200 {
                if try ctl(["count", "displayed"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(n)" { return true }
                usleep(50_000)
            }
            return false
        }

        /// The first line a child writes to `path` (polled, at most ~10 s).
        static func firstLine(_ path: String) throws -> String {
            for _ in 0..<200 {
                let text = ChildProgram.read(path)
                if let end = text.firstIndex(of: "\n") { return String(text[..<end]) }
                usleep(50_000)
            }
            throw CocoaError(.fileReadCorruptFile)
        }
    }

    /// coolcal started in the background (it waits for the button).
    static func coolcal(_ args: [String], env: [String: String], dir: String) throws -> pid_t {
        let shell = "exec '\(Binary.path)' " + args.map { "'\($0)'" }.joined(separator: " ") + " 2> '\(dir)/err'"
        return try ChildProgram.start(["/bin/sh", "-c", shell], stdout: dir + "/out",
                              env: ["TZ": "America/Los_Angeles", "LANG": "en_US.UTF-8", "HOME": dir, "XDG_CONFIG_HOME": dir + "/no-config"]
                                .merging(env) { $1 })
    }

    /// A payload whose title has the characters markup gives meaning to.
    static let payload = #"{"title": "Tom & Jerry's <b>reunion</b>", "start": "2022-08-20T08:00:00-08:00", "end": "2022-08-20T12:00:00-08:00", "id": 41}"#

    @Test func acceptOnTheDesktopWritesTheCalendar() throws {
        let desk = try Desk(pick: "Accept")
        let invite = desk.dir + "/invite.json", calendar = desk.dir + "/work.ics"
        try Self.payload.write(toFile: invite, atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: Binary.sample("work.ics"), toPath: calendar)
        let before = try Data(contentsOf: URL(fileURLWithPath: calendar))
        let run = try Self.coolcal(["notify", "--desktop", "--wait", "30", "--state", desk.dir + "/state", invite, calendar],
                                   env: ["DBUS_SESSION_BUS_ADDRESS": desk.address], dir: desk.dir)
        #expect(try desk.waitDisplayed(1), "the notification never showed: \(ChildProgram.read(desk.dir + "/err"))")
        #expect(try desk.ctl(["context"]).status == 0)
        #expect(ChildProgram.wait(run) == 0, "\(ChildProgram.read(desk.dir + "/err"))")
        // What dunst offered in its menu: both buttons of this notification.
        #expect(desk.menu.hasPrefix("#Decline (Tom &amp; Jerry&apos;s &lt;b&gt;reunion&lt;/b&gt;) ["), "menu: \(desk.menu)")
        #expect(desk.menu.contains(",decline]\n#Accept (Tom &amp; Jerry&apos;s &lt;b&gt;reunion&lt;/b&gt;) ["), "menu: \(desk.menu)")
        #expect(desk.menu.hasSuffix(",accept]"), "menu: \(desk.menu)")
        // What was sent: app name, the title and body escaped for dunst's markup, the actions.
        let call = desk.notifyCalls
        #expect(call.contains("string \"coolcal\""))
        #expect(call.contains("string \"Tom &amp; Jerry&apos;s &lt;b&gt;reunion&lt;/b&gt;\""), "\(call)")
        #expect(call.contains("string \"8/20/22, 9:00\u{202F}AM\u{2009}–\u{2009}1:00\u{202F}PM\ntimes in America/Los_Angeles\n2 conflicts\"\n"), "\(call)")
        #expect(call.contains("   array [\n      string \"accept\"\n      string \"Accept\"\n      string \"decline\"\n      string \"Decline\"\n   ]"), "\(call)")
        #expect(ChildProgram.read(desk.dir + "/out") == "accepted: Tom & Jerry's <b>reunion</b> (id 41): added to \(calendar)\n")
        let after = try Data(contentsOf: URL(fileURLWithPath: calendar))
        let text = String(decoding: after, as: UTF8.self)
        #expect(after.count > before.count && text.contains("UID:coolcal-invite-41@") && text.contains("X-COOLCAL-INVITE-ID:41"))
        #expect(text.contains("SUMMARY:Tom & Jerry's <b>reunion</b>\r\n"))
        let responses = try Binary.run(["responses", "--json", "--state", desk.dir + "/state"])
        #expect(responses.stdout.contains("\"invite_id\": \"41\",\n      \"answer\": \"accepted\""), "\(responses.stdout)")
    }

    @Test func declineOnTheDesktopRecordsTheAnswer() throws {
        let desk = try Desk(pick: "Decline")
        let invite = desk.dir + "/invite.json", calendar = desk.dir + "/work.ics"
        try Self.payload.write(toFile: invite, atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: Binary.sample("work.ics"), toPath: calendar)
        let before = try Data(contentsOf: URL(fileURLWithPath: calendar))
        let run = try Self.coolcal(["notify", "--desktop", "--state", desk.dir + "/state", invite, calendar],
                                   env: ["DBUS_SESSION_BUS_ADDRESS": desk.address], dir: desk.dir)
        #expect(try desk.waitDisplayed(1))
        #expect(try desk.ctl(["context"]).status == 0)
        #expect(ChildProgram.wait(run) == 0, "\(ChildProgram.read(desk.dir + "/err"))")
        #expect(ChildProgram.read(desk.dir + "/out") == "declined: Tom & Jerry's <b>reunion</b> (id 41)\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: calendar)) == before)
        let responses = try Binary.run(["responses", "--json", "--state", desk.dir + "/state"])
        #expect(responses.stdout.contains("\"invite_id\": \"41\",\n      \"answer\": \"declined\""), "\(responses.stdout)")
    }

    /// While it waits: no lock held (the calendar and the state are written by others
    /// at once, with no lock patience), and no CPU spent (a poll loop would spend the wait).
    @Test func unansweredWithinTheWaitIsClosed() throws {
        let desk = try Desk(pick: "Accept")
        let invite = desk.dir + "/invite.json", calendar = desk.dir + "/work.ics"
        try Self.payload.write(toFile: invite, atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: Binary.sample("work.ics"), toPath: calendar)
        let run = try Self.coolcal(["notify", "--desktop", "--wait", "3", "--state", desk.dir + "/state", invite, calendar],
                                   env: ["DBUS_SESSION_BUS_ADDRESS": desk.address], dir: desk.dir)
        #expect(try desk.waitDisplayed(1))
        let others = ["COOLCAL_LOCK_TIMEOUT": "0"]
        let accept = try Binary.run(["accept", "--state", desk.dir + "/state", Binary.sample("invite-free.json"), calendar], env: others)
        #expect(accept.status == 0, "\(accept.stderr)")
        let comment = try Binary.run(["comment", "--state", desk.dir + "/state", "41", "still thinking"], env: others)
        #expect(comment.status == 0, "\(comment.stderr)")
        var status: Int32 = 0
        var usage = rusage()
        while wait4(run, &status, 0, &usage) < 0 && errno == EINTR {}
        #expect(status == 0)
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        #expect(cpu < 1.0, "notify spent \(cpu) s of CPU in a 3 s wait")
        #expect(ChildProgram.read(desk.dir + "/out") == "not answered: Tom & Jerry's <b>reunion</b> (id 41): no answer within 3 s\n")
        #expect(try desk.waitDisplayed(0), "coolcal left its notification open")
    }

    @Test func noSessionBusIsAWarningAndTheTextNotification() throws {
        let dir = try Spawn.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try Binary.run(["notify", "--desktop", "--state", dir + "/state", Binary.sample("invite.json")],
                                 env: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(dir)/no-bus", "TZ": "America/Los_Angeles"])
        #expect(run.status == 0)
        #expect(run.stderr.hasPrefix("coolcal: warning: no session bus ("), "\(run.stderr)")
        #expect(run.stderr.hasSuffix("); shown as a text notification\n"), "\(run.stderr)")
        let aps = try #require(try Binary.json(run.stdout)["aps"] as? [String: Any])
        let alert = try #require(aps["alert"] as? [String: Any])
        #expect(alert["body"] as? String == "Family Reunion\n8/20/22, 9:00\u{202F}AM\u{2009}–\u{2009}1:00\u{202F}PM\ntimes in America/Los_Angeles")
    }

    @Test func mergeNotifyPostsEachOutcome() throws {
        let desk = try Desk(pick: "Accept")
        let spool = desk.dir + "/spool", calendar = desk.dir + "/work.ics"
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Binary.sample("invite.json"), toPath: spool + "/a-reunion.json")
        try FileManager.default.copyItem(atPath: Binary.sample("work.ics"), toPath: calendar)
        let run = try Binary.run(["merge", "--notify", "--me", "me@example.com", "--spool", spool, "--state", desk.dir + "/state", calendar],
                                 env: ["DBUS_SESSION_BUS_ADDRESS": desk.address, "TZ": "America/Los_Angeles"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try desk.waitDisplayed(1))
        #expect(desk.notifyCalls.contains("string \"Family Reunion\"\n   string \"8/20/22, 9:00\u{202F}AM\u{2009}–\u{2009}1:00\u{202F}PM\ntimes in America/Los_Angeles\nbusy: 2 conflicts: On-call handover (moved) Aug 20, 2022, 10:30\u{202F}AM, Team offsite planning Aug 20, 2022, 1:30\u{202F}PM; not accepted\"\n   array [\n   ]"),
                "\(desk.notifyCalls)")
        // Without a bus (cron): nothing said.
        try FileManager.default.copyItem(atPath: Binary.sample("invite-free.json"), toPath: spool + "/b-dentist.json")
        let cron = try Binary.run(["merge", "--notify", "--me", "me@example.com", "--spool", spool, "--state", desk.dir + "/state", calendar],
                                  env: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(desk.dir)/no-bus"])
        #expect(cron.status == 0 && cron.stderr.isEmpty, "\(cron.stderr)")
    }
}
