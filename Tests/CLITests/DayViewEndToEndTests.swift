import Foundation
import Testing

/// `conflicts --day-view` through the binary: the day view drawn into a pipe at the
/// width COLUMNS says (expected text written by hand), and none without the flag.
@Suite struct DayViewEndToEndTests {
    func files() throws -> (invite: String, calendar: String) {
        let invite = try Binary.temp("invite.json", Data("""
            {"title": "Family Reunion", "start": "2026-06-10T12:00:00Z", "end": "2026-06-10T13:00:00Z", "id": 12}
            """.utf8))
        let calendar = try Binary.temp("cal.ics", Data(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n"
            + "BEGIN:VEVENT\r\nUID:standup@test\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260610T123000Z\r\n"
            + "DTEND:20260610T130000Z\r\nSUMMARY:Standup\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").utf8))
        return (invite, calendar)
    }

    /// 11:30 to 13:30 in 15-minute rows; the invitation 12:00–13:00 wrapped into its
    /// rows, the standup beside it in the second lane.
    static let at40 = """
          Wed, Jun 10
          11:30 AM

          12:00 PM #Family
                   #Reunion
                   #              |Standup
                   #              |[cal.ics]
           1:00 PM


        """

    @Test func dayViewAt40ColumnsInAPipe() throws {
        let (invite, calendar) = try files()
        let run = try Binary.run(["conflicts", "--day-view", "--buffer", "30m", invite, calendar],
                                 env: ["LANG": "C", "COLUMNS": "40"])
        #expect(run.status == 1)
        #expect(run.stderr == "")
        #expect(run.stdout.contains("  times in UTC\n\n" + Self.at40 + "\nBusy: 1 conflict\n"))
        #expect(!run.stdout.contains("\u{1B}"), "no escapes into a pipe")
    }

    @Test func widerColumnsWidenTheLanes() throws {
        let (invite, calendar) = try files()
        let run = try Binary.run(["conflicts", "--day-view", "--buffer", "30m", invite, calendar],
                                 env: ["LANG": "C", "COLUMNS": "132"])
        // 132 − 2 − 8 − 1 = 121 columns for two lanes of 60 and a space.
        #expect(run.stdout.contains("\n  12:00 PM #Family Reunion\n"))
        #expect(run.stdout.contains("\n           #" + String(repeating: " ", count: 60) + "|Standup\n"))
    }

    @Test func withoutTheFlagAPipeGetsTodaysShape() throws {
        let (invite, calendar) = try files()
        let run = try Binary.run(["conflicts", "--buffer", "30m", invite, calendar], env: ["LANG": "C", "COLUMNS": "40"])
        #expect(run.status == 1)
        #expect(!run.stdout.contains("#Family"))
        #expect(run.stdout.contains("  times in UTC\n\nBusy: 1 conflict\n"))
    }

    /// On a real terminal (a pty from script(1), sized to 40 columns by stty) the
    /// window size wins over COLUMNS=132, no --day-view is needed, and NO_COLOR keeps
    /// the escapes out.
    @Test func theTerminalsOwnWidthWinsOverCOLUMNS() throws {
        let (invite, calendar) = try files()
        let command = "stty cols 40 rows 60; exec '\(Binary.path)' conflicts --buffer 30m '\(invite)' '\(calendar)'"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-q", "-e", "-c", command, "/dev/null"]
        process.environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C", "COLUMNS": "132", "NO_COLOR": "1",
                               "HOME": Binary.home, "XDG_CONFIG_HOME": "/nonexistent", "TERM": "xterm"]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        // The terminal's line discipline writes CR LF.
        let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        #expect(text.contains("  times in UTC\n\n" + Self.at40 + "\nBusy: 1 conflict\n"))
        #expect(!text.contains("\u{1B}["))
    }
}
