import CoolcalCalDAV
import Foundation
import Testing
@testable import CLITests

/// `coolcal config --check` (issue 49): each calendar line looked at after the settings;
/// a CalDAV server asked whether it schedules (the Cyrus side is in
/// `CalendarInvitationCyrusTests`).
@Suite struct ConfigCheckTests {
    static func lines(_ out: String) -> [String] {
        out.split(separator: "\n").map(String.init).filter { $0.hasPrefix("check: ") || $0.hasPrefix("note: a server") }
    }

    @Test func localCalendarsFileMissingVdirAndTree() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-check-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = FileManager.default
        try files.createDirectory(atPath: root + "/tree/home", withIntermediateDirectories: true)
        try files.createDirectory(atPath: root + "/tree/work", withIntermediateDirectories: true)
        try files.createDirectory(atPath: root + "/vdir", withIntermediateDirectories: true)
        for path in ["/tree/home/a.ics", "/tree/work/b.ics", "/vdir/c.ics", "/cal.ics"] {
            try Data("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8).write(to: URL(fileURLWithPath: root + path))
        }
        let config = try Binary.configHome(["cal.ics", "new.ics", "vdir", "tree"].map { "calendar = \(root)/\($0)\n" }.joined())
        let run = try Binary.run(["config", "--check"], env: ["XDG_CONFIG_HOME": config])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.lines(run.stdout) == [
            "check: \(root)/cal.ics: a file, writable",
            "check: \(root)/new.ics: not there yet (accept creates it); its folder is writable",
            "check: \(root)/vdir: a folder of events (vdir), writable",
            "check: \(root)/tree: a folder of 2 calendars (a vdirsyncer tree: home, work), writable; merge and accept cannot write to it itself",
        ], "\(run.stdout)")
        // Without --check nothing is looked at.
        let plain = try Binary.run(["config"], env: ["XDG_CONFIG_HOME": config])
        #expect(Self.lines(plain.stdout).isEmpty)
        let json = try Binary.run(["config", "--check", "--json"], env: ["XDG_CONFIG_HOME": config])
        #expect(json.status == 64, "\(json.stderr)")
    }

    /// Radicale does not schedule: its DAV header has no calendar-auto-schedule, and it
    /// offers neither schedule-calendar-transp nor a scheduling inbox (nothing after
    /// "come by mail").
    @Test func aServerThatDoesNotSchedule() throws {
        let server = try RadicaleServer()
        let url = server.url("/alice/cal/")
        try CalDAVClient(calendar: url, environment: [:]).makeCalendar()
        let config = try Binary.configHome("calendar = \(url)\n")
        let run = try Binary.run(["config", "--check"], env: ["XDG_CONFIG_HOME": config])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = Self.lines(run.stdout)
        #expect(lines.count == 1, "\(run.stdout)")
        #expect(lines.first?.hasSuffix("the server does not schedule (no calendar-auto-schedule): invitations come by mail") == true,
                "\(run.stdout)")
    }

    /// A scheduling server (`PlainWebServer`'s hand-written answers): the calendar's
    /// schedule-calendar-transp and the inbox's schedule-default-calendar-URL, this
    /// calendar or another.
    @Test func transpAndTheCalendarForNewInvitations() throws {
        let web = try PlainWebServer()
        let base = "http://127.0.0.1:\(web.server.port)"
        let config = try Binary.configHome("calendar = \(base)/transp/\ncalendar = \(base)/opaque/\n")
        let run = try Binary.run(["config", "--check"], env: ["XDG_CONFIG_HOME": config])
        #expect(run.status == 0, "\(run.stderr)")
        let schedules = "a CalDAV calendar; the server schedules (calendar-auto-schedule): invitations arrive in the calendar itself"
        #expect(Self.lines(run.stdout) == [
            "check: \(base)/transp/: \(schedules); schedule-calendar-transp: transparent (its events are free time); "
                + "new invitations go to \(base)/opaque/ (not this calendar)",
            "check: \(base)/opaque/: \(schedules); schedule-calendar-transp: opaque; "
                + "new invitations go to \(base)/opaque/ (this calendar)",
            "note: a server above schedules: the invitations it puts in your calendars wait there, not in your mail; "
                + "'calendar-invitations = yes' lets merge find and answer them",
        ], "\(run.stdout)")
    }

    /// A server nothing listens on: a finding, and 75.
    @Test func anUnreachableServerIs75() throws {
        let port = try ServerProcess.freePort()
        let config = try Binary.configHome("calendar = http://127.0.0.1:\(port)/cal/\n")
        let run = try Binary.run(["config", "--check"], env: ["XDG_CONFIG_HOME": config])
        #expect(run.status == 75, "\(run.stdout) \(run.stderr)")
        #expect(Self.lines(run.stdout).first?.hasPrefix("check: http://127.0.0.1:\(port)/cal/: error: ") == true, "\(run.stdout)")
    }
}
