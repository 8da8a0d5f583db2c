import Foundation
import Testing
@testable import CoolcalWriting
@testable import CoolcalCLI
@testable import CoolcalTestSupport

/// `merge -q` as cron runs it (only what needs a person is printed), and `merge`/`accept`
/// taking their spool and calendars from the config file. In-process `CLI.run`, with the
/// clock set by the test, against a port on 127.0.0.1 where nothing listens.
@Suite(.serialized) struct MergeQuietTests {
    struct Result { var status: Int32; var out: String; var err: String }

    static let samples = Checkout.root.appendingPathComponent("samples")
    /// 2026-03-02T00:00:00Z.
    static let t0 = Date(timeIntervalSince1970: 1_772_409_600)

    func run(_ args: [String], _ env: [String: String], at now: Date = t0) -> Result {
        let out = StringSink(), err = StringSink()
        var variables = ["TZ": "UTC", "LANG": "en_US.UTF-8", "XDG_CONFIG_HOME": "/nonexistent"]
        variables.merge(env) { $1 }
        let status = CLI.run(args, environment: RunEnvironment(variables: variables, stdoutIsTerminal: false, now: now),
                             stdout: out, stderr: err)
        return Result(status: status, out: out.text, err: err.text)
    }

    /// A home with work.ics, a spool of the busy reunion and the free dentist, a state.
    func home() throws -> (dir: URL, spool: String, calendar: String, state: String) {
        let dir = URL(fileURLWithPath: stateDirectory("merge-quiet"))
        let spool = dir.appendingPathComponent("spool")
        try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: true)
        let calendar = dir.appendingPathComponent("work.ics")
        try FileManager.default.copyItem(at: Self.samples.appendingPathComponent("work.ics"), to: calendar)
        try FileManager.default.copyItem(at: Self.samples.appendingPathComponent("invite.json"), to: spool.appendingPathComponent("1.json"))
        try FileManager.default.copyItem(at: Self.samples.appendingPathComponent("invite-free.json"),
                                         to: spool.appendingPathComponent("2.json"))
        return (dir, spool.path, calendar.path, dir.appendingPathComponent("state").path)
    }

    /// A server URL on a port that was free a moment ago: every request is refused.
    func downServer(_ dir: URL) throws -> String {
        let probe = try TestHTTPServer(home: dir.appendingPathComponent("probe"))
        let port = probe.port
        probe.stop()
        return "http://127.0.0.1:\(port)"
    }

    @Test func quietTellsOnlyWhatNeedsAPerson() throws {
        let h = try home()
        let env = ["COOLCAL_STATE": h.state, "COOLCAL_SERVER": try downServer(h.dir), "COOLCAL_SERVER_TIMEOUT": "2"]
        let first = run(["merge", "-q", "--me", "me@example.com", "--spool", h.spool, h.calendar], env)
        #expect(first.status == 0)
        // The accepted dentist says nothing; the reunion stayed busy.
        #expect(first.out == "busy      1.json  Family Reunion  Aug 20, 2022, 4:00\u{202F}PM  (2 conflicts: On-call handover (moved) Aug 20, 2022, 5:30\u{202F}PM, Team offsite planning Aug 20, 2022, 8:30\u{202F}PM; not accepted)\n" + "times in UTC\n")
        // The answer waits for a server that is down: not yet worth a mail.
        #expect(first.err == "")
        #expect(run(["outbox"], env).out.hasPrefix("queued  accept 13"))
        let later = run(["merge", "-q", "--me", "me@example.com", "--spool", h.spool, h.calendar], env, at: Self.t0.addingTimeInterval(23 * 3600))
        #expect(later.status == 0 && later.out == "" && later.err == "")
        // More than a day later it is.
        let dayLater = run(["merge", "-q", "--me", "me@example.com", "--spool", h.spool, h.calendar], env, at: Self.t0.addingTimeInterval(25 * 3600))
        #expect(dayLater.status == 0 && dayLater.out == "")
        #expect(dayLater.err.hasPrefix("coolcal: warning: 1 answer has waited in the outbox for more than 24 hours "
                                       + "(the oldest since Mar 2, 2026, 12:00\u{202F}AM in UTC; last: "))
        #expect(dayLater.err.hasSuffix("); 'coolcal outbox' lists them\n"))
    }

    @Test func withoutQuietEveryLineAndEveryQueuedWarning() throws {
        let h = try home()
        let server = try downServer(h.dir)
        let env = ["COOLCAL_STATE": h.state, "COOLCAL_SERVER": server, "COOLCAL_SERVER_TIMEOUT": "2"]
        let run = run(["merge", "--me", "me@example.com", "--spool", h.spool, h.calendar], env)
        #expect(run.status == 0)
        #expect(run.out == "busy      1.json  Family Reunion  Aug 20, 2022, 4:00\u{202F}PM  (2 conflicts: On-call handover (moved) Aug 20, 2022, 5:30\u{202F}PM, Team offsite planning Aug 20, 2022, 8:30\u{202F}PM; not accepted)\n"
                + "accepted  2.json  Dentist  Aug 23, 2022, 4:00\u{202F}PM  (0 conflicts; written to \(h.calendar))\ntimes in UTC\n")
        #expect(run.err.contains("1 answer queued for \(server)"))
    }

    @Test func mergeAndAcceptTakeSpoolAndCalendarsFromTheConfig() throws {
        let h = try home()
        let config = h.dir.appendingPathComponent("config/coolcal")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        // `~/` is HOME, as in a crontab.
        try Data("me = me@example.com\nspool = ~/spool\ncalendar = ~/work.ics\ncalendar = \(Self.samples.path)/family.ics\n".utf8)
            .write(to: config.appendingPathComponent("config"))
        let env = ["COOLCAL_STATE": h.state, "HOME": h.dir.path, "XDG_CONFIG_HOME": h.dir.appendingPathComponent("config").path]
        let merged = run(["merge", "-q"], env)
        #expect(merged.status == 0)
        // family.ics is read too: 3 conflicts, not the 2 of work.ics alone.
        #expect(merged.out == "busy      1.json  Family Reunion  Aug 20, 2022, 4:00\u{202F}PM  (3 conflicts: Breakfast with Sam Aug 20, 2022, 1:30\u{202F}PM, On-call handover (moved) Aug 20, 2022, 5:30\u{202F}PM, Team offsite planning Aug 20, 2022, 8:30\u{202F}PM; not accepted)\n" + "times in UTC\n")
        let calendar = try String(contentsOfFile: h.calendar, encoding: .utf8)
        #expect(calendar.contains("X-COOLCAL-INVITE-ID:13\r\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: h.spool + "/done").sorted()
                == ["1.json", "1.json.outcome", "2.json", "2.json.outcome"])
        // accept with no CAL writes into the first calendar line, and --if-free reads the second.
        let busy = run(["accept", "--if-free", Self.samples.appendingPathComponent("invite.json").path], env)
        #expect(busy.status == 1)
        #expect(busy.out.hasPrefix("not accepted: Family Reunion (id 12): 3 conflicts in the window\n"))
        let accepted = run(["accept", Self.samples.appendingPathComponent("invite.json").path], env)
        #expect(accepted.status == 0)
        #expect(accepted.out == "accepted: Family Reunion (id 12): added to \(h.calendar)\n")
    }

    @Test func noSpoolOrCalendarAnywhereIsAUsageError() throws {
        let h = try home()
        let before = try Data(contentsOf: URL(fileURLWithPath: h.calendar))
        let env = ["COOLCAL_STATE": h.state, "HOME": h.dir.path]
        let noSpool = run(["merge", h.calendar], env)
        #expect(noSpool.status == 64)
        #expect(noSpool.err.hasPrefix("coolcal: error: missing --spool DIR (or 'spool = DIR' in the config file, or --calendar-invitations)\n"))
        let noCalendar = run(["merge", "--spool", h.spool], env)
        #expect(noCalendar.status == 64)
        #expect(noCalendar.err.hasPrefix("coolcal: error: missing a calendar (name one, or add 'calendar = PATH' to the config file)\n"))
        // With spool and calendar but no `me`: 78, naming the key.
        let noMe = run(["merge", "--spool", h.spool, h.calendar], env)
        #expect(noMe.status == 78)
        #expect(noMe.err.hasPrefix("coolcal: error: merge: no 'me' set: merge answers only invitations addressed to you; add 'me = ADDRESS' to the config file (or give --me ADDRESS)\n"))
        // Nothing was read or moved.
        #expect(try FileManager.default.contentsOfDirectory(atPath: h.spool).sorted() == ["1.json", "2.json"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: h.calendar)) == before)
    }
}
