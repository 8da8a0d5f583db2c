import Foundation
import Testing
@testable import CLITests

/// vdirsyncer for real (PyPI `vdirsyncer`, pinned in Tests/CalDAV/requirements.txt):
/// two Radicale collections with display names, `vdirsyncer discover`, `sync` and
/// `metasync` into a vdir tree, and coolcal reading the tree's top folder.
@Suite(.serialized) struct VdirsyncerTests {
    @Test func syncedTreeIsReadFromItsTopFolder() throws {
        let server = try RadicaleServer()
        let python = try RadicaleServer.python()
        let home = try ServerProcess.temporaryHome("vdirsyncer")
        defer { try? FileManager.default.removeItem(at: home) }
        // Two collections the way a client makes them: MKCALENDAR with a displayname and
        // an Apple calendar-color, then one event each.
        let setup = """
            import sys, requests
            base = sys.argv[1]
            for name, display, color, start in [("work", "Work (Acme)", "#ff0000ff", "170000"),
                                                ("family", "Family", "#00ff00ff", "190000")]:
                body = ('<?xml version="1.0" encoding="utf-8"?><C:mkcalendar xmlns:D="DAV:" '
                        'xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:I="http://apple.com/ns/ical/">'
                        '<D:set><D:prop><D:displayname>%s</D:displayname><I:calendar-color>%s</I:calendar-color>'
                        '</D:prop></D:set></C:mkcalendar>' % (display, color))
                r = requests.request("MKCALENDAR", base + name + "/", data=body.encode(),
                                     headers={"Content-Type": "application/xml"})
                assert r.status_code == 201, (name, r.status_code, r.text)
                event = ("BEGIN:VCALENDAR\\r\\nVERSION:2.0\\r\\nPRODID:-//coolcal tests//EN\\r\\nBEGIN:VEVENT\\r\\n"
                         "UID:%s-1@example.com\\r\\nDTSTAMP:20220801T000000Z\\r\\nDTSTART:20220820T%sZ\\r\\n"
                         "DURATION:PT1H\\r\\nSUMMARY:%s meeting\\r\\nEND:VEVENT\\r\\nEND:VCALENDAR\\r\\n" % (name, start, name))
                r = requests.put(base + name + "/" + name + "-1.ics", data=event.encode(),
                                 headers={"Content-Type": "text/calendar"})
                assert r.status_code == 201, (name, r.status_code, r.text)
            """
        try Self.run(python, ["-c", setup, server.url("/alice/")], in: home)
        let top = home.appendingPathComponent("calendars").path
        let config = """
            [general]
            status_path = "\(home.path)/status/"

            [pair radicale]
            a = "remote"
            b = "local"
            collections = ["from a"]
            metadata = ["displayname", "color"]

            [storage remote]
            type = "caldav"
            url = "\(server.url("/alice/"))"

            [storage local]
            type = "filesystem"
            path = "\(top)/"
            fileext = ".ics"
            """
        let configPath = home.appendingPathComponent("config").path
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        // discover asks once per collection whether to create it locally.
        try Self.run(python, ["-m", "vdirsyncer", "-c", configPath, "discover"], in: home, stdin: "y\ny\n")
        try Self.run(python, ["-m", "vdirsyncer", "-c", configPath, "sync"], in: home)
        try Self.run(python, ["-m", "vdirsyncer", "-c", configPath, "metasync"], in: home)
        #expect(try String(contentsOfFile: top + "/work/displayname", encoding: .utf8).hasPrefix("Work (Acme)"))

        let events = try Binary.run(["events", "--json", "--from", "2022-08-20T00:00:00Z", "--to", "2022-08-21T00:00:00Z", top])
        #expect(events.status == 0)
        #expect(events.stderr == "")
        let list = try #require(try Binary.json(events.stdout)["events"] as? [[String: Any]])
        #expect(list.map { $0["summary"] as? String } == ["work meeting", "family meeting"])
        #expect(list.map { $0["calendar_name"] as? String } == ["Work (Acme)", "Family"])
        #expect(list.map { $0["calendar"] as? String } == ["calendars/work", "calendars/family"])

        let conflicts = try Binary.run(["conflicts", Binary.sample("invite.json"), top])
        #expect(conflicts.status == 1)
        #expect(conflicts.stdout.contains("Busy: 2 conflicts"))
        #expect(conflicts.stdout.contains("work meeting  [Work (Acme)]"))
        #expect(conflicts.stdout.contains("family meeting  [Family]"))
    }

    /// Runs a helper to the end; a failure throws with its output.
    static func run(_ executable: String, _ arguments: [String], in directory: URL, stdin: String = "") throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let log = directory.appendingPathComponent("helper.log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else { throw SetupError("cannot create \(log.path)") }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = handle
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw SetupError("\(arguments.prefix(3).joined(separator: " ")) failed (\(process.terminationStatus)):\n\(text)")
        }
    }
}
