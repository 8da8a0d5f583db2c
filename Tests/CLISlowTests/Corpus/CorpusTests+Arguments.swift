import Foundation
import Testing
@testable import CLITests

extension CorpusTests {
    // Options and operands.
    static let arguments: [CorpusCase] = [
        // 99999h is a duration by the man page's rules (each number at most 100000), but over the cap of a year.
        .init(.none, .args(["conflicts", "--buffer", "99999h", "invite.json", "work.ics"]), 64,
              stderr: .usage("--buffer '99999h' is longer than the limit of 366 days", "conflicts")),
        .init(.none, .args(["conflicts", "--buffer", "100001h", "invite.json", "work.ics"]), 64,
              stderr: .usage("--buffer '100001h' is not a duration (e.g. 2h, 90m, 1h30m, 0)", "conflicts")),
        .init(.none, .args(["conflicts", "--buffer", "-1h", "invite.json", "work.ics"]), 64,
              stderr: .usage("--buffer '-1h' is not a duration (e.g. 2h, 90m, 1h30m, 0)", "conflicts")),
        .init(.none, .args(["conflicts", "--buffer", "1.5h", "invite.json", "work.ics"]), 64,
              stderr: .usage("--buffer '1.5h' is not a duration (e.g. 2h, 90m, 1h30m, 0)", "conflicts")),
        .init(.none, .args(["conflicts", "--buffer", "99999999999999999999999h", "invite.json", "work.ics"]), 64,
              stderr: .usage("--buffer '99999999999999999999999h' is not a duration (e.g. 2h, 90m, 1h30m, 0)", "conflicts")),
        .init(.none, .args(["conflicts", "--buffer=2h=3", "invite.json", "work.ics"]), 64,
              stderr: .usage("--buffer '2h=3' is not a duration (e.g. 2h, 90m, 1h30m, 0)", "conflicts")),
        .init(.none, .args(["conflicts", "--suggest", "0", "invite.json", "work.ics"]), 64,
              stderr: .usage("--suggest needs a number from 1 to 100, not '0'", "conflicts")),
        .init(.none, .args(["conflicts", "--suggest", "101", "invite.json", "work.ics"]), 64,
              stderr: .usage("--suggest needs a number from 1 to 100, not '101'", "conflicts")),
        .init(.none, .args(["conflicts", "--suggest", "99999999999999999999", "invite.json", "work.ics"]), 64,
              stderr: .usage("--suggest needs a number from 1 to 100, not '99999999999999999999'", "conflicts")),
        .init(.none, .args(["conflicts", "--suggest", "100", "--hours", "00:00-24:00", "--weekends", "invite.json", "work.ics"]), 1,
              stdout: .contains("Free slots:")),
        .init(.none, .args(["conflicts", "--hours", "18:00-09:00", "--suggest", "1", "invite.json", "work.ics"]), 64,
              stderr: .usage("--hours '18:00-09:00' is not a range like 09:00-18:00", "conflicts")),
        .init(.none, .args(["events", "--from", "2022-08-21", "--to", "2022-08-20", "work.ics"]), 64,
              stderr: .usage("--to must be after --from", "events")),
        .init(.none, .args(["events", "--from", "2022-08-20", "--to", "2022-08-20", "work.ics"]), 64,
              stderr: .usage("--to must be after --from", "events")),
        .init(.none, .args(["events", "--from", "2022-13-01", "work.ics"]), 64,
              stderr: .usage("--from '2022-13-01' is not today, tomorrow, +Nd, a date (2022-08-20), a local date-time (2022-08-20T09:00) "
                     + "or one with an offset (2022-08-20T08:00:00Z)", "events")),
        .init(.none, .args(["events", "--to", "10000-01-01", "work.ics"]), 64,
              stderr: .usage("--to '10000-01-01' is not today, tomorrow, +Nd, a date (2022-08-20), a local date-time (2022-08-20T09:00) "
                     + "or one with an offset (2022-08-20T08:00:00Z)", "events")),
        .init(.none, .args(["events", "--from"]), 64, stderr: .usage("option '--from' needs a value (TIME)", "events")),
        // The whole representable range: bounded, and the weekly series ends at 2582 with a warning.
        .init(.none, .args(["events", "--from", "0001-01-01", "--to", "9999-12-31", "work.ics"]), 0,
              stderr: .exact(#"coolcal: warning: work.ics: event "On-call handover" (oncall-handover-5b1f0c2e@work.example.com): RRULE FREQ=WEEKLY;BYDAY=SA is expanded only up to 2582-12-31 (libical's limit); later instances are left out"# + "\n"),
              stdout: .contains("On-call handover")),
        .init(.none, .args(["conflicts", "--frobnicate", "invite.json", "work.ics"]), 64,
              stderr: .usage("unknown option '--frobnicate'", "conflicts")),
        .init(.none, .args(["conflicts", "-xyz", "invite.json", "work.ics"]), 64,
              stderr: .usage("unknown option '-xyz'", "conflicts")),
        .init(.none, .args(["frobnicate", "invite.json"]), 64,
              stderr: .exact("coolcal: error: unknown command 'frobnicate'\nUsage: coolcal COMMAND [options] ARGS...\nSee 'coolcal help'.\n")),
        .init(.none, .args(["conflicts", "--json", "--json", "invite.json", "work.ics"]), 64,
              stderr: .usage("option '--json' given more than once", "conflicts")),
        .init(.none, .args(["conflicts", "--tz", "../../etc/passwd", "invite.json", "work.ics"]), 64,
              stderr: .usage("unknown time zone '../../etc/passwd' (use an IANA name such as Europe/Berlin)", "conflicts")),
        .init(.none, .args(["conflicts", "--color", "sometimes", "invite.json", "work.ics"]), 64,
              stderr: .usage("--color must be auto, always or never, not 'sometimes'", "conflicts")),
        .init(.none, .args(["conflicts", "invite.json", "-"]), 64,
              stderr: .usage("only the invitation can be read from standard input", "conflicts")),
        .init(.none, .args(["accept", "invite.json"]), 64,
              stderr: .usage("missing a calendar to write to (name one, or add 'calendar = PATH' to the config file)", "accept")),
        .init(.none, .args(["accept", "invite.json", "-"]), 64,
              stderr: .usage("only the invitation can be read from standard input", "accept")),
    ]

    // State directory cases (COOLCAL_STATE is {dir}/state).
    static let state: [CorpusCase] = [
        .init(.none, .args(["notify", "invite.json"]), 73,
              stderr: .exact("coolcal: error: {dir}/state: not a directory\n"), setup: .stateFile("state/state-is-a-file")),
        .init(.none, .args(["notify", "--state", "{dir}/state/sub", "invite.json"]), 73,
              stderr: .exact("coolcal: error: {dir}/state/sub: cannot create the state directory: Not a directory\n"),
              setup: .stateFile("state/state-is-a-file")),
        .init(.none, .args(["inbox"]), 73,
              stderr: .exact("coolcal: error: {dir}/state: not a directory\n"), setup: .stateFile("state/state-is-a-file")),
        .init(.none, .args(["decline", "invite.json"]), 73,
              stderr: .exact("coolcal: error: {dir}/state: not a directory\n"), setup: .stateFile("state/state-is-a-file")),
        // Documented: the calendar is written and the line printed before the state fails:
        // exit 2, written but the answer not recorded (#45).
        .init(.none, .args(["accept", "invite.json", "work.ics"]), 2,
              stderr: .exact("coolcal: error: written to work.ics; the answer is not recorded: {dir}/state: not a directory; run again to record and mail it\n"),
              stdout: .exact("accepted: Family Reunion (id 12): added to work.ics\n"),
              writes: .acceptedInto("work.ics"), setup: .stateFile("state/state-is-a-file")),
        .init(.none, .args(["notify", "invite.json"]), 73,
              stderr: .exact("coolcal: error: {dir}/state/state.db: file is not a database\n"),
              setup: .stateDB("state/not-a-database.db")),
        .init(.none, .args(["responses"]), 73,
              stderr: .exact("coolcal: error: {dir}/state/state.db: file is not a database\n"),
              setup: .stateDB("state/not-a-database.db")),
        .init(.none, .args(["notify", "invite.json"]), 73,
              stderr: .exact("coolcal: error: {dir}/state/state.db: unable to open database file\n"),
              setup: .stateDBDirectory),
        // Refused before anything is changed: a newer coolcal's database, another program's.
        .init(.none, .args(["inbox"]), 73,
              stderr: .exact("coolcal: error: {dir}/state/state.db: written by a newer coolcal (schema 999); upgrade coolcal\n"),
              setup: .stateDB("state/newer-version.db")),
        .init(.none, .args(["notify", "invite.json"]), 73,
              stderr: .exact("coolcal: error: {dir}/state/state.db: not a coolcal state database; not modified\n"),
              setup: .stateDB("state/foreign-schema.db")),
        // A stored row that cannot be read back: 74, documented.
        .init(.none, .args(["responses", "--json"]), 0, stdout: .contains(#""responses": []"#), writes: .state,
              setup: .stateDB("state/wrong-columns.db")),
        .init(.none, .args(["inbox", "open", "7"]), 74,
              stderr: .exact("coolcal: error: {dir}/state/state.db: damaged state: start of '7' is 'yesterday'\n"),
              writes: .state, setup: .stateDB("state/wrong-columns.db")),
    ]
}
