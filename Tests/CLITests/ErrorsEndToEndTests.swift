import Foundation
import Testing

/// Bad input of every kind: the documented status, a message naming the file on
/// stderr, nothing on stdout.
@Suite struct ErrorsEndToEndTests {
    let calendar = Binary.sample("work.ics")

    func expectError(_ run: Run, _ status: Int32, _ message: String) {
        #expect(run.status == status)
        #expect(run.stdout == "")
        #expect(run.stderr == "coolcal: error: \(message)\n")
    }

    @Test func missingFiles() throws {
        expectError(try Binary.run(["conflicts", "nope.json", calendar]), 66,
                    "nope.json: no such file or directory, nor an invitation in the inbox with this number, id or UID")
        expectError(try Binary.run(["conflicts", Binary.sample("invite.json"), "nope.ics"]), 66,
                    "nope.ics: no such file or directory")
        expectError(try Binary.run(["events", "nope.ics"]), 66, "nope.ics: no such file or directory")
    }

    @Test func badInvitation() throws {
        let path = try Binary.temp("bad.json", Data(#"{"title": "T", "start": "2022-08-20T10:00:00Z", "end": "2022-08-20T09:00:00Z", "id": 3}"#.utf8))
        expectError(try Binary.run(["conflicts", path, calendar]), 65,
                    "\(path): \"end\" 2022-08-20T09:00:00Z is before \"start\" 2022-08-20T10:00:00Z")
        expectError(try Binary.run(["conflicts", "-", calendar], stdin: "{oops"), 65,
                    "<stdin>: not valid JSON: invalid value at line 1, column 2")
    }

    @Test(arguments: [
        ("garbage.ics", Data("this is not a calendar\n".utf8), "not an iCalendar file (line 1 is not BEGIN:VCALENDAR)"),
        ("truncated.ics", Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20220820T100000Z\r\nEND:VEVENT\r\nBEGIN:VEV".utf8),
         "not a readable iCalendar file: truncated (BEGIN:VCALENDAR has no END:VCALENDAR)"),
        ("binary.ics", Data([0x42, 0x45, 0x00, 0xFF, 0x13]), "not an iCalendar file (it contains NUL bytes: binary or UTF-16?)"),
    ])
    func unreadableCalendar(_ name: String, _ contents: Data, _ message: String) throws {
        let path = try Binary.temp(name, contents)
        expectError(try Binary.run(["conflicts", Binary.sample("invite.json"), path]), 65, "\(path): \(message)")
    }

    @Test func badFileInsideAVdirIsNamed() throws {
        let good = try Binary.temp("good.ics", try Data(contentsOf: URL(fileURLWithPath: calendar)))
        let dir = URL(fileURLWithPath: good).deletingLastPathComponent().path
        try Data("nonsense".utf8).write(to: URL(fileURLWithPath: dir + "/zz.ics"))
        expectError(try Binary.run(["events", dir]), 65,
                    "\(dir)/zz.ics: not an iCalendar file (line 1 is not BEGIN:VCALENDAR)")
    }

    @Test func usageErrorsPrintUsage() throws {
        let run = try Binary.run(["conflicts", "--bufer", "1h", "a", "b"])
        #expect(run.status == 64)
        #expect(run.stdout == "")
        #expect(run.stderr == """
        coolcal: error: unknown option '--bufer'; did you mean '--buffer'?
        Usage: coolcal conflicts [options] INVITE [CAL...]
        See 'coolcal help conflicts'.

        """)
        let tz = try Binary.run(["events", "--tz", "Mars/Olympus", calendar])
        #expect(tz.status == 64)
        #expect(tz.stderr.hasPrefix("coolcal: error: unknown time zone 'Mars/Olympus'"))
        let window = try Binary.run(["events", "--from", "2022-08-21", "--to", "2022-08-20", calendar])
        #expect(window.status == 64)
        #expect(window.stderr.hasPrefix("coolcal: error: --to must be after --from\n"))
    }

    @Test func unknownZoneIsAWarningNotAShift() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:m\r\nSUMMARY:Rover\r\nDTSTART;TZID=Mars/Olympus:20220820T100000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let path = try Binary.temp("mars.ics", Data(text.utf8))
        let run = try Binary.run(["events", "--json", "--from", "2022-08-20", path], env: ["TZ": "Europe/Berlin"])
        #expect(run.status == 0)
        #expect(run.stderr == "coolcal: warning: mars.ics: event \"Rover\" (m): unknown time zone \"Mars/Olympus\"; its times are read in Europe/Berlin\n")
        let events = try #require(try Binary.json(run.stdout)["events"] as? [[String: Any]])
        #expect(events.first?["start"] as? String == "2022-08-20T08:00:00Z")
    }

    @Test func badConfigFile() throws {
        let home = try Binary.configHome("buffer = forever\n")
        let run = try Binary.run(["events", calendar], env: ["XDG_CONFIG_HOME": home])
        #expect(run.status == 78)
        #expect(run.stderr == "coolcal: error: \(home)/coolcal/config: line 1: buffer 'forever' is not a duration\n")
    }

    @Test func helpAndVersion() throws {
        let help = try Binary.run(["help", "conflicts"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("Usage: coolcal conflicts [options] INVITE [CAL...]\n"))
        #expect(help.stdout.contains("--buffer DURATION"))
        #expect(try Binary.run(["conflicts", "--help"]).stdout == help.stdout)
        let version = try Binary.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("coolcal "))
    }
}
