import Foundation
import Testing

/// Issue #46 item 7: one human time format. With `tz = Europe/Berlin` (and TZ=UTC in the
/// environment), `accept --if-free`'s not-accepted list and `merge`'s line show local times
/// as `conflicts` does; the machine lines — `process`'s outcome line, every `--json`, the
/// spool's `.outcome` — keep UTC.
@Suite struct LocalTimesTests {
    typealias T = OrganizerBindingTests

    /// Alice is known (an old event of hers); Lunch, 10:30–11:00 UTC on 3 March 2031, is
    /// 11:30 AM–12:00 PM in Berlin (CET, +01).
    static let calendar = HeldMergeTests.calendarKnowingAlice.replacingOccurrences(of: "END:VCALENDAR", with: [
        "BEGIN:VEVENT", "UID:lunch@example.org", "DTSTAMP:20260101T090000Z",
        "DTSTART:20310303T103000Z", "DTEND:20310303T110000Z", "SUMMARY:Lunch", "END:VEVENT", "END:VCALENDAR",
    ].joined(separator: "\r\n"))

    struct Desk {
        let root: String
        let env: [String: String]
        var calendar: String { root + "/cal.ics" }

        init() throws {
            root = try Spawn.directory()
            try Data(LocalTimesTests.calendar.utf8).write(to: URL(fileURLWithPath: root + "/cal.ics"))
            // Planning, 10:00–11:00 UTC: 11:00 AM in Berlin.
            try Data(T.message().utf8).write(to: URL(fileURLWithPath: root + "/invite.ics"))
            try FileManager.default.createDirectory(atPath: root + "/spool", withIntermediateDirectories: true)
            try Data(T.message().utf8).write(to: URL(fileURLWithPath: root + "/spool/1.ics"))
            env = ["XDG_CONFIG_HOME": try Binary.configHome("tz = Europe/Berlin\n"), "COOLCAL_STATE": root + "/state"]
        }

        func run(_ args: [String]) throws -> Run { try Binary.run(args, env: env) }
    }

    @Test func acceptsListIsLocal() throws {
        let d = try Desk()
        let run = try d.run(["accept", "--if-free", "--me", T.me, d.root + "/invite.ics", d.calendar])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdout == """
            not accepted: Planning (id binding-1@example.org): 1 conflict in the window
              Mar 3, 2031, 11:30\u{202F}AM\u{2009}–\u{2009}12:00\u{202F}PM  Lunch  [cal.ics]
              times in Europe/Berlin

            """, "\(run.stdout)")
    }

    @Test func mergesLineIsLocalAndItsJSONAndNotesUTC() throws {
        let d = try Desk()
        let report = try d.run(["merge", "--policy", "report", "--json", "--me", T.me, "--spool", d.root + "/spool", d.calendar])
        #expect(report.status == 0, "\(report.stderr)")
        let outcome = try #require((try Binary.json(report.stdout)["outcomes"] as? [[String: Any]])?.first)
        #expect(outcome["start"] as? String == "2031-03-03T10:00:00Z")
        #expect(outcome["detail"] as? String == "1 conflict: Lunch 2031-03-03T10:30:00Z")
        let merge = try d.run(["merge", "--me", T.me, "--spool", d.root + "/spool", d.calendar])
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(merge.stdout == """
            busy      1.ics  Planning  Mar 3, 2031, 11:00\u{202F}AM  (1 conflict: Lunch Mar 3, 2031, 11:30\u{202F}AM; not accepted)
            times in Europe/Berlin

            """, "\(merge.stdout)")
        // The spool's note is for programs: UTC.
        let note = try String(contentsOfFile: d.root + "/spool/done/1.ics.outcome", encoding: .utf8)
        let conflicts = (try Binary.json(note)["report"] as? [String: Any])?["conflicts"] as? [[String: Any]]
        #expect(conflicts?.first?["start"] as? String == "2031-03-03T10:30:00Z", "\(note)")
    }

    @Test func processOutcomeLineHasNoLocalTime() throws {
        let d = try Desk()
        func args(_ state: String) -> [String] { ["--recipient", T.me, "--state", d.root + "/" + state, d.calendar] }
        let mail = Data(T.mail(T.message(), from: "Alice <alice@example.org>").utf8)
        let line = try ProcessRun.run(args("state-line"), message: mail, env: d.env)
        #expect(line.status == 0, "\(line.stderr)")
        #expect(line.text == "no_action (busy: 1 conflict; not accepted)\n")
        let json = try ProcessRun.run(["--json"] + args("state-json"), message: mail, env: d.env)
        let object = try Binary.json(json.text)
        #expect(object["outcome"] as? String == "no_action" && object["detail"] as? String == "busy: 1 conflict; not accepted")
    }
}
