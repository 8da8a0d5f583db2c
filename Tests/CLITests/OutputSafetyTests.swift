import Foundation
import Testing

/// What coolcal prints can be trusted line by line: no title forges a line, no URL
/// shows its password, dates are the proleptic Gregorian ones JSON writes, and no
/// invitation puts a year JSON cannot write into the output.
@Suite struct OutputSafetyTests {
    func state() throws -> [String: String] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-safety-\(UUID().uuidString)")
        return ["COOLCAL_STATE": dir.path]
    }

    func payload(title: String, start: String = "2022-08-20T08:00:00Z", end: String = "2022-08-20T09:00:00Z") -> String {
        let quoted = (try? JSONEncoder().encode(title)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
        return #"{"aps": {}, "title": \#(quoted), "start": "\#(start)", "end": "\#(end)", "id": 42}"#
    }

    /// A title's line break would let it write a second "accepted: …" line that a
    /// script or a log trusts.
    @Test(arguments: ["accept", "decline", "comment"])
    func aTitleCannotForgeALine(_ command: String) throws {
        let forged = "Lunch\naccepted: Board meeting (id 1): added to /etc/passwd"
        let invite = try Binary.temp("invite.json", Data(payload(title: forged).utf8))
        let calendar = try Binary.temp("cal.ics", Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:t\r\nEND:VCALENDAR\r\n".utf8))
        let args = command == "accept" ? [command, invite, calendar] : command == "comment" ? [command, invite, "hi"] : [command, invite]
        let run = try Binary.run(args, env: try state())
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count == 1, "\(run.stdout)")
        #expect(run.stdout.contains("Lunch accepted: Board meeting"))
    }

    /// Every message that shows a URL shows it without the password: servers from a
    /// flag, the environment and the config; CalDAV calendars that are down or not URLs.
    @Test func noPasswordInAnyMessage() throws {
        let secret = "s3cretpw"
        let invite = Binary.sample("invite.json")
        let home = try Binary.configHome("server = ftp://alice:\(secret)@config.example/\n")
        let runs: [(args: [String], env: [String: String], status: Int32)] = [
            (["decline", "-v", "--server", "ftp://alice:\(secret)@flag.example/", invite], try state(), 64),
            (["decline", "-v", invite], try state().merging(["COOLCAL_SERVER": "gopher://alice:\(secret)@env.example/"]) { $1 }, 64),
            (["decline", "-v", invite], try state().merging(["XDG_CONFIG_HOME": home]) { $1 }, 64),
            (["config", "-v"], ["XDG_CONFIG_HOME": home], 0),
            (["outbox", "flush", "-v", "--server", "http://alice:\(secret)@127.0.0.1:9/"], try state(), 0),
            (["conflicts", "-v", invite, "http://alice:\(secret)@127.0.0.1:9/cal/"],
             ["COOLCAL_SERVER_TIMEOUT": "2"], 75),
            (["conflicts", "-v", invite, "http://alice:pa/ss\(secret)@/cal/"], [:], 64),
            (["accept", "-v", invite, "http://alice:\(secret)@127.0.0.1:9/cal/"],
             try state().merging(["COOLCAL_SERVER_TIMEOUT": "2"]) { $1 }, 75),
        ]
        for run in runs {
            let result = try Binary.run(run.args, env: run.env)
            #expect(result.status == run.status, "\(run.args): \(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains(secret), "\(run.args) shows the password: \(result.stderr)")
            #expect(!(result.stdout + result.stderr).isEmpty, "\(run.args) said nothing")
        }
    }

    /// Text and JSON agree on a date before the Gregorian reform (Foundation's
    /// calendar would print 1500-03-01 as Feb 20, 1500, the Julian date).
    @Test func datesBefore1582AreProlepticGregorian() throws {
        let invite = try Binary.temp("old.json", Data(payload(title: "Old", start: "1500-03-01T10:00:00Z", end: "1500-03-01T11:00:00Z").utf8))
        let run = try Binary.run(["conflicts", invite, Binary.sample("work.ics")])
        #expect(run.stdout.contains("Mar 1, 1500, 10:00"), "\(run.stdout)")
        let json = try Binary.json(try Binary.run(["conflicts", "--json", invite, Binary.sample("work.ics")]).stdout)
        #expect((json["invite"] as? [String: Any])?["start"] as? String == "1500-03-01T10:00:00Z")
    }

    /// DURATION:P99999999W ends at the last instant JSON can write, not in year 1919845.
    @Test func aHugeDurationIsClamped() throws {
        let ics = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:t", "METHOD:REQUEST", "BEGIN:VEVENT", "UID:long@example.org",
                   "DTSTAMP:20220801T000000Z", "DTSTART:20220820T100000Z", "DURATION:P99999999W", "SUMMARY:Forever",
                   "END:VEVENT", "END:VCALENDAR"].map { $0 + "\r\n" }.joined()
        let invite = try Binary.temp("long.ics", Data(ics.utf8))
        let run = try Binary.run(["conflicts", "--json", invite, Binary.sample("work.ics")])
        let json = try Binary.json(run.stdout)
        let window = try #require(json["window"] as? [String: String])
        let end = try #require((json["invite"] as? [String: Any])?["end"] as? String)
        #expect(end == "9999-12-31T23:59:59Z")
        #expect(window["end"] == "9999-12-31T23:59:59Z")
        #expect((window["end"] ?? "") >= end)
        #expect(!run.stdout.contains("\"1919"), "a year past 9999 in \(run.stdout.prefix(400))")
    }
}
