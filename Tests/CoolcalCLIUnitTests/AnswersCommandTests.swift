import Foundation
import Testing
@testable import CoolcalWriting
@testable import CoolcalCLI
@testable import CoolcalTestSupport

/// Answers through the command line (in-process `CLI.run`) against a real HTTP
/// server on 127.0.0.1: down, then up, then failing, then stalled.
@Suite(.serialized) struct AnswersCommandTests {
    struct Result { var status: Int32; var out: String; var err: String }

    func run(_ args: [String], _ env: [String: String]) -> Result {
        let out = StringSink(), err = StringSink()
        var variables = ["TZ": "UTC", "LANG": "en_US.UTF-8", "XDG_CONFIG_HOME": "/nonexistent"]
        variables.merge(env) { $1 }
        let status = CLI.run(args, environment: RunEnvironment(variables: variables, stdoutIsTerminal: false), stdout: out, stderr: err)
        return Result(status: status, out: out.text, err: err.text)
    }

    func files() throws -> (invite: String, calendar: String, state: String, home: URL) {
        let home = URL(fileURLWithPath: stateDirectory("answers")).deletingLastPathComponent()
            .appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let invite = home.appendingPathComponent("invite.json")
        try Data(#"{"title": "Family Reunion", "start": "2022-08-20T08:00:00-08:00", "end": "2022-08-20T12:00:00-08:00", "id": 12}"#.utf8).write(to: invite)
        let calendar = home.appendingPathComponent("cal.ics")
        try Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n".utf8).write(to: calendar)
        return (invite.path, calendar.path, home.appendingPathComponent("state").path, home)
    }

    @Test func downThenUpDeliversExactlyOnce() throws {
        let f = try files()
        // A port that nothing listens on: start a server to learn a free port, stop it.
        let probe = try TestHTTPServer(home: f.home.appendingPathComponent("probe"))
        let port = probe.port
        probe.stop()
        let env = ["COOLCAL_STATE": f.state, "COOLCAL_SERVER": "http://127.0.0.1:\(port)", "COOLCAL_SERVER_TIMEOUT": "2"]
        let down = run(["accept", f.invite, f.calendar], env)
        #expect(down.status == 0)
        #expect(down.err.contains("1 answer queued for http://127.0.0.1:\(port)"))
        #expect(run(["outbox"], env).out.hasPrefix("queued  accept 12  attempts 1"))
        #expect(run(["outbox", "flush"], env).status == 75)

        let server = try TestHTTPServer(home: f.home.appendingPathComponent("server"), port: port)
        defer { server.stop() }
        let flush = run(["outbox", "flush"], env)
        #expect(flush.status == 0)
        #expect(flush.out == "delivered 1, refused 0, still queued 0\n")
        #expect(run(["outbox", "flush"], env).out == "delivered 0, refused 0, still queued 0\n")
        // Accepting again changes nothing and sends nothing new.
        #expect(run(["accept", f.invite, f.calendar], env).status == 0)
        let requests = try server.requests()
        #expect(requests.count == 1)
        #expect(requests.first?["path"] as? String == "/invitations/12/accept")
        #expect(requests.first?["method"] as? String == "POST")
        #expect((requests.first?["key"] as? String)?.isEmpty == false)
        #expect(requests.first?["content_type"] as? String == "application/json")
        let responses = run(["responses", "--json"], env).out
        #expect(responses.contains("\"delivery\": \"delivered\""))
    }

    @Test func commentTextArrivesIntactAndFailuresAreKept() throws {
        let f = try files()
        let server = try TestHTTPServer(home: f.home.appendingPathComponent("server"))
        defer { server.stop() }
        let env = ["COOLCAL_STATE": f.state, "COOLCAL_SERVER": server.url.absoluteString]
        let text = "Grüße \"quoted\"\nline2 ✓ \\ back"
        #expect(run(["comment", f.invite, text], env).status == 0)
        let body = try #require(try server.requests().first?["body"] as? String)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: String])
        #expect(json == ["comment": text])

        try server.setMode("500")
        let busy = run(["decline", f.invite], env)
        #expect(busy.status == 0)
        #expect(busy.err.contains("1 answer queued"))
        try server.setMode("404")
        let refused = run(["outbox", "flush"], env)
        #expect(refused.status == 0)
        #expect(refused.out == "delivered 0, refused 1 (coolcal outbox retry), still queued 0\n")
        #expect(run(["outbox"], env).out.hasPrefix("failed  decline 12  attempts"))
    }

    @Test func aStalledServerDoesNotHang() throws {
        let f = try files()
        let server = try TestHTTPServer(home: f.home.appendingPathComponent("server"))
        defer { server.stop() }
        try server.setMode("stall")
        let env = ["COOLCAL_STATE": f.state, "COOLCAL_SERVER": server.url.absoluteString, "COOLCAL_SERVER_TIMEOUT": "1"]
        let started = Date()
        let result = run(["decline", f.invite], env)
        #expect(result.status == 0)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(result.err.contains("1 answer queued"))
    }
}
