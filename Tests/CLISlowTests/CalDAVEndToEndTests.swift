import Foundation
import Glibc
import Testing
@testable import CLITests

/// CalDAV calendars end to end: the built binary against a real Radicale server.
@Suite struct CalDAVEndToEndTests {
    /// The calendar files and the collections they are uploaded to.
    static let calendars: [(file: String, collection: String)] = [
        (Binary.sample("work.ics"), "/alice/work/"),
        (Binary.sample("family.ics"), "/alice/family/"),
        (Binary.sample("vdir"), "/alice/vdir/"),
    ]

    /// Uploads the sample calendars (a vdir: each of its files).
    static func uploadSamples(_ server: RadicaleServer, user: String? = nil, password: String? = nil) throws {
        for (file, collection) in calendars {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory)
            let files = isDirectory.boolValue
                ? try FileManager.default.contentsOfDirectory(atPath: file).sorted().map { file + "/" + $0 } : [file]
            try CalDAVUpload.upload(files, to: server.url(collection, user: user, password: password))
        }
    }

    /// The JSON document without `calendar` fields, keys sorted, and the calendar
    /// names that were removed.
    static func withoutCalendars(_ text: String) throws -> (json: String, calendars: Set<String>) {
        var names: Set<String> = []
        func strip(_ value: Any) -> Any {
            if var object = value as? [String: Any] {
                if let name = object.removeValue(forKey: "calendar") as? String { names.insert(name) }
                // The display name follows the label (`work.ics` and the collection `work`).
                object.removeValue(forKey: "calendar_name")
                return object.mapValues(strip)
            }
            if let array = value as? [Any] { return array.map(strip) }
            return value
        }
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        let data = try JSONSerialization.data(withJSONObject: strip(object), options: [.sortedKeys])
        return (String(decoding: data, as: UTF8.self), names)
    }

    @Test func sameAnswersAsTheFiles() throws {
        let server = try RadicaleServer()
        try Self.uploadSamples(server)
        let dst = try Binary.temp("after-dst.json", Data("""
            {"title": "After DST", "start": "2022-11-12T09:20:00-08:00", "end": "2022-11-12T10:00:00-08:00", "id": 40}
            """.utf8))
        let cases: [[String]] = [
            ["conflicts", "--json", "--me", "me@example.com", Binary.sample("invite.json")],
            ["conflicts", "--json", Binary.sample("invite.json")],
            ["conflicts", "--json", "--buffer", "0", dst],          // a weekly instance after the DST change
            ["conflicts", "--json", "--tz", "Europe/Berlin", Binary.sample("invite.ics")],
            ["conflicts", "--json", "--tz", "Australia/Sydney", Binary.sample("invite-free.json")],
            ["events", "--json", "--from", "2022-06-01", "--to", "2023-01-01"],   // every instance, the EXDATE, the override
            // The floating yoga class is 04:30Z on 25 August at UTC+14; Radicale takes
            // floating times as UTC (18:30Z), outside the window: the widened query finds it.
            ["events", "--json", "--tz", "Pacific/Kiritimati", "--from", "2022-08-25T00:00:00Z", "--to", "2022-08-25T12:00:00Z"],
            ["events", "--json", "--tz", "Pacific/Pago_Pago", "--from", "2022-08-26T00:00:00Z", "--to", "2022-08-26T12:00:00Z"],
        ]
        for args in cases {
            let files = try Binary.run(args + Self.calendars.map(\.file))
            let urls = try Binary.run(args + Self.calendars.map { server.url($0.collection) })
            #expect(urls.status == files.status, "\(args)")
            #expect(urls.stderr == files.stderr, "\(args)")
            let expected = try Self.withoutCalendars(files.stdout)
            let actual = try Self.withoutCalendars(urls.stdout)
            #expect(actual.json == expected.json, "\(args)")
            #expect(actual.calendars.isSubset(of: ["work", "family", "vdir"]), "\(args)")
            #expect(actual.calendars.count == expected.calendars.count, "\(args)")
        }
        let yoga = try Binary.run(cases[6] + [server.url("/alice/vdir/")])
        #expect(yoga.stdout.contains("\"summary\" : \"Yoga class (floating time)\"") || yoga.stdout.contains("Yoga class"))
        #expect(try Self.withoutCalendars(yoga.stdout).calendars == ["vdir"])

        // Text output: the collection's last path segment, like a vdir's name.
        let text = try Binary.run(["conflicts", Binary.sample("invite.json"), server.url("/alice/work/")])
        #expect(text.status == 1)
        #expect(text.stdout.contains("On-call handover (moved)  [work]"))
    }

    @Test func notifyReadsTheWholeCollection() throws {
        // notify only checks that its calendars can be read: a REPORT without time-range.
        let server = try RadicaleServer()
        try CalDAVUpload.upload([Binary.sample("work.ics")], to: server.url("/alice/work/"))
        let state = URL(fileURLWithPath: try Binary.temp("x", Data())).deletingLastPathComponent().path + "/state"
        let ok = try Binary.run(["notify", "--state", state, Binary.sample("invite.json"), server.url("/alice/work/")])
        #expect(ok.status == 0 && ok.stderr == "")
        #expect(ok.stdout.contains(#""category":"INVITATION""#))
        let port = try ServerProcess.freePort()
        let down = try Binary.run(["notify", "--state", state, Binary.sample("invite.json"),
                                   "http://alice:Sekr3t-notify@127.0.0.1:\(port)/alice/work/"])
        #expect(down.status == 0)
        #expect(down.stdout.contains(#""category":"""#))
        #expect(down.stderr == "coolcal: warning: http://127.0.0.1:\(port)/alice/work/: cannot reach the server: connection refused; shown as a plain notification\n")
    }

    @Test func wrongOrMissingCredentialsAre77() throws {
        let server = try RadicaleServer(auth: true)
        try Self.uploadSamples(server, user: RadicaleServer.user, password: RadicaleServer.password)
        let invite = Binary.sample("invite.json")

        let wrong = try Binary.run(["conflicts", invite, server.url("/alice/work/", user: "alice", password: "wrong-Geheimnis")])
        #expect(wrong.status == 77)
        #expect(wrong.stdout == "")
        #expect(wrong.stderr == "coolcal: error: \(server.origin)/alice/work/: the server refused the credentials for alice from the URL (HTTP 401 Unauthorized)\n")
        #expect(!wrong.stderr.contains("wrong-Geheimnis"))

        // A HOME without .netrc (a temporary one: URLSession makes ~/.cache there).
        let home = URL(fileURLWithPath: try Binary.temp("empty", Data())).deletingLastPathComponent().path
        let none = try Binary.run(["conflicts", invite, server.url("/alice/work/")], env: ["HOME": home])
        #expect(none.status == 77)
        #expect(none.stderr.contains("the server wants credentials (HTTP 401 Unauthorized); give them in ~/.netrc"))

        let netrc = try Binary.temp("netrc", Data("machine 127.0.0.1 login alice password wrong-Geheimnis\n".utf8))
        chmod(netrc, 0o600)
        let viaNetrc = try Binary.run(["conflicts", invite, server.url("/alice/work/")], env: ["NETRC": netrc])
        #expect(viaNetrc.status == 77)
        #expect(viaNetrc.stderr.contains("refused the credentials for alice from \(netrc)"))
        #expect(!viaNetrc.stderr.contains("wrong-Geheimnis"))
    }

    @Test func credentialsFromTheURLAndFromNetrc() throws {
        let server = try RadicaleServer(auth: true)
        try Self.uploadSamples(server, user: RadicaleServer.user, password: RadicaleServer.password)
        let args = ["conflicts", "--json", Binary.sample("invite.json")]
        let expected = try Self.withoutCalendars(try Binary.run(args + [Binary.sample("work.ics")]).stdout).json
        let secrets = [RadicaleServer.password, RadicaleServer.encode(RadicaleServer.password)]

        func check(_ run: Run, warning: String? = nil) throws {
            #expect(run.status == 1)
            #expect(try Self.withoutCalendars(run.stdout).json == expected)
            #expect(run.stderr == (warning.map { "coolcal: warning: \($0)\n" } ?? ""))
            for secret in secrets { #expect(!run.stdout.contains(secret) && !run.stderr.contains(secret)) }
        }

        try check(try Binary.run(args + [server.url("/alice/work/", user: RadicaleServer.user, password: RadicaleServer.password)]))

        let line = "machine 127.0.0.1 login alice password \"\(RadicaleServer.password)\"\n"
        let netrc = try Binary.temp("netrc", Data(("# coolcal\nmachine example.com login bob password x\n" + line).utf8))
        chmod(netrc, 0o600)
        try check(try Binary.run(args + [server.url("/alice/work/")], env: ["NETRC": netrc]))
        // ~/.netrc when NETRC is not set; a login in the URL picks the entry.
        let home = URL(fileURLWithPath: netrc).deletingLastPathComponent().path
        try FileManager.default.moveItem(atPath: netrc, toPath: home + "/.netrc")
        try check(try Binary.run(args + [server.url("/alice/work/", user: "alice")], env: ["HOME": home]))
        // Readable by others: used, with a warning.
        chmod(home + "/.netrc", 0o644)
        try check(try Binary.run(args + [server.url("/alice/work/")], env: ["HOME": home]),
                  warning: "\(home)/.netrc holds passwords and is readable by others (chmod 600 \(home)/.netrc)")
        // The `default` entry.
        let fallback = try Binary.temp("netrc", Data("default login alice password \(RadicaleServer.password)\n".utf8))
        chmod(fallback, 0o600)
        try check(try Binary.run(args + [server.url("/alice/work/")], env: ["NETRC": fallback]))
    }

    @Test func closedPortIs75Quickly() throws {
        let port = try ServerProcess.freePort()
        let url = "http://alice:Sekr3t-closed@127.0.0.1:\(port)/alice/work/"
        let started = Date()
        // A long timeout: "quickly" means without waiting for it, however loaded the machine.
        let run = try Binary.run(["conflicts", Binary.sample("invite.json"), url], env: ["COOLCAL_SERVER_TIMEOUT": "60"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(run.status == 75)
        #expect(run.stderr == "coolcal: error: http://127.0.0.1:\(port)/alice/work/: cannot reach the server: connection refused\n")
        #expect(!run.stderr.contains("Sekr3t-closed"))
        #expect(elapsed < 30, "took \(elapsed) s: it waited for the 60 s timeout")
    }

    @Test func stalledServerIs75WithinTheTimeout() throws {
        // Listens, but never accepts nor answers: the request times out.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = ServerProcess.loopback(0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(bound == 0 && listen(fd, 8) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let started = Date()
        let run = try Binary.run(["events", "http://127.0.0.1:\(port)/cal/"], env: ["COOLCAL_SERVER_TIMEOUT": "1"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(run.status == 75)
        #expect(run.stderr.hasPrefix("coolcal: error: http://127.0.0.1:\(port)/cal/: "))
        #expect(run.stderr.contains("timed out after 1 s") || run.stderr.contains("no answer within"))
        // The message says the 1 s timeout fired; the bound is the documented whole-exchange
        // limit, twelve times the timeout (man: COOLCAL_SERVER_TIMEOUT).
        #expect(elapsed >= 1 && elapsed < 12, "took \(elapsed) s")
    }

    @Test func notACalendarIs65() throws {
        let server = try RadicaleServer(auth: true)
        try CalDAVUpload.upload([Binary.sample("work.ics")],
                                to: server.url("/alice/work/", user: RadicaleServer.user, password: RadicaleServer.password))
        let invite = Binary.sample("invite.json")
        let cases: [(String, String)] = [
            ("/alice/", "not a CalDAV calendar: a user's principal, not a calendar (name one of its calendar collections)"),
            ("/", "not a CalDAV calendar: a WebDAV collection, but not a calendar"),
            ("/alice/nope/", "not a CalDAV calendar: no such collection (HTTP 404)"),
        ]
        for (path, message) in cases {
            let run = try Binary.run(["conflicts", invite, server.url(path, user: RadicaleServer.user, password: RadicaleServer.password)])
            #expect(run.status == 65, "\(path)")
            #expect(run.stdout == "")
            #expect(run.stderr == "coolcal: error: \(server.origin)\(path): \(message)\n")
            #expect(!run.stderr.contains(RadicaleServer.password))
        }
        // A resource, not a collection.
        let resource = try Binary.run(["events", server.url("/alice/work/offsite-planning-8d3a7e41@work.example.com.ics",
                                                            user: RadicaleServer.user, password: RadicaleServer.password)])
        #expect(resource.status == 65)

        let web = try PlainWebServer()
        for (path, message) in [
            ("/", "not a CalDAV calendar: PROPFIND refused with HTTP 501 Not Implemented (not a WebDAV server?)"),
            ("/html/", "not a CalDAV calendar: PROPFIND answered HTTP 200 with text/html, not a WebDAV multistatus"),
            ("/moved/", "redirected to http://127.0.0.1:1/elsewhere/ (HTTP 301 Moved Permanently); coolcal does not follow redirects: use that URL"),
        ] {
            let run = try Binary.run(["conflicts", invite, "http://bob:Sekr3t-web@127.0.0.1:\(web.server.port)\(path)"])
            #expect(run.status == 65, "\(path)")
            #expect(run.stderr == "coolcal: error: http://127.0.0.1:\(web.server.port)\(path): \(message)\n")
            #expect(!run.stderr.contains("Sekr3t"))
        }
        let bad = try Binary.run(["events", "http://alice:Sekr3t-bad@/x/"])
        #expect(bad.status == 64)
        #expect(bad.stderr == "coolcal: error: http:///x/: the URL has no host\n")
    }
}
