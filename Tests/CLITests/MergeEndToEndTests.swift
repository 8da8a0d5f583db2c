import Foundation
import Testing

/// `coolcal merge` over a spool: policies, idempotent re-runs, nothing lost.
@Suite struct MergeEndToEndTests {
    struct Setup {
        let spool: String
        let calendar: String
        let original: Data
    }

    /// A spool with the busy reunion, a free dentist, a second dentist right after the
    /// first (busy only once the first is accepted), and a broken payload.
    func setup() throws -> Setup {
        let cal = try Binary.temp("work.ics", try Data(contentsOf: URL(fileURLWithPath: Binary.sample("work.ics"))))
        let spool = URL(fileURLWithPath: cal).deletingLastPathComponent().appendingPathComponent("spool").path
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Binary.sample("invite.json"), toPath: spool + "/a-reunion.json")
        try FileManager.default.copyItem(atPath: Binary.sample("invite-free.json"), toPath: spool + "/b-dentist.json")
        try Data(#"{"title": "Dentist 2", "start": "2022-08-23T09:30:00-07:00", "end": "2022-08-23T10:00:00-07:00", "id": 14}"#.utf8)
            .write(to: URL(fileURLWithPath: spool + "/c-dentist2.json"))
        try Data("junk".utf8).write(to: URL(fileURLWithPath: spool + "/d-bad.json"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: spool + "/.hidden"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: spool + "/e-partial.json.tmp"))
        return Setup(spool: spool, calendar: cal, original: try Data(contentsOf: URL(fileURLWithPath: cal)))
    }

    func listing(_ dir: String) -> [String] {
        (FileManager.default.enumerator(atPath: dir)?.allObjects as? [String] ?? []).filter { !$0.hasSuffix(".lock") }.sorted()
    }

    func calendarText(_ s: Setup) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: s.calendar)), as: UTF8.self)
    }

    @Test func acceptIfFreeIsTheDefault() throws {
        let s = try setup()
        let run = try Binary.run(["merge", "--me", "me@example.com", "--spool", s.spool, s.calendar, Binary.sample("family.ics")])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines == [
            "busy      a-reunion.json  Family Reunion  Aug 20, 2022, 4:00\u{202F}PM  (3 conflicts: Breakfast with Sam Aug 20, 2022, 1:30\u{202F}PM, On-call handover (moved) Aug 20, 2022, 5:30\u{202F}PM, Team offsite planning Aug 20, 2022, 8:30\u{202F}PM; not accepted)",
            "accepted  b-dentist.json  Dentist  Aug 23, 2022, 4:00\u{202F}PM  (0 conflicts; written to \(s.calendar))",
            "busy      c-dentist2.json  Dentist 2  Aug 23, 2022, 4:30\u{202F}PM  (1 conflict: Dentist Aug 23, 2022, 4:00\u{202F}PM; not accepted)",
            "failed    d-bad.json",
            "times in UTC",
        ])
        #expect(run.stderr == "coolcal: warning: \(s.spool)/d-bad.json: neither a JSON push payload, an iCalendar invitation (BEGIN:VCALENDAR) nor an e-mail message (not valid JSON: invalid value at line 1, column 1)\n")
        #expect(listing(s.spool) == [
            ".hidden", "done", "done/a-reunion.json", "done/a-reunion.json.outcome", "done/b-dentist.json",
            "done/b-dentist.json.outcome", "done/c-dentist2.json", "done/c-dentist2.json.outcome",
            "e-partial.json.tmp", "failed", "failed/d-bad.json", "failed/d-bad.json.reason",
        ])
        let text = try calendarText(s)
        #expect(text.contains("X-COOLCAL-INVITE-ID:13\r\n"))
        #expect(!text.contains("X-COOLCAL-INVITE-ID:12\r\n"))
        #expect(!text.contains("X-COOLCAL-INVITE-ID:14\r\n"))
        let outcome = try Binary.json(String(contentsOfFile: s.spool + "/done/b-dentist.json.outcome", encoding: .utf8))
        #expect(outcome["outcome"] as? String == "accepted")
        #expect(((outcome["report"] as? [String: Any])?["invite"] as? [String: Any])?["id"] as? Int == 13)
        // A second run finds nothing to do and changes nothing.
        let calendarAfterFirst = try Data(contentsOf: URL(fileURLWithPath: s.calendar))
        let again = try Binary.run(["merge", "--me", "me@example.com", "--spool", s.spool, s.calendar, Binary.sample("family.ics")])
        #expect(again.status == 0)
        #expect(again.stdout == "")
        #expect(try Data(contentsOf: URL(fileURLWithPath: s.calendar)) == calendarAfterFirst)
    }

    @Test func acceptAllAndDeclineBusy() throws {
        let all = try setup()
        _ = try Binary.run(["merge", "--me", "me@example.com", "--policy", "accept-all", "--spool", all.spool, all.calendar])
        let text = try calendarText(all)
        for id in [12, 13, 14] { #expect(text.contains("X-COOLCAL-INVITE-ID:\(id)\r\n")) }
        let decline = try setup()
        let run = try Binary.run(["merge", "--me", "me@example.com", "--policy", "decline-busy", "--spool", decline.spool, decline.calendar])
        #expect(run.stdout.hasPrefix("declined  a-reunion.json"))
        #expect(run.stdout.contains("declined  c-dentist2.json"))
        let outcome = try Binary.json(String(contentsOfFile: decline.spool + "/done/a-reunion.json.outcome", encoding: .utf8))
        #expect(outcome["outcome"] as? String == "declined")
    }

    /// Events already in the calendar (accepted one by one before) are found by the
    /// search merge runs beside the read for all its invitations at once: each stays once.
    @Test func storedCopiesAreFoundForTheWholeSpool() throws {
        let s = try setup()
        for invite in [s.spool + "/a-reunion.json", s.spool + "/c-dentist2.json"] {
            #expect(try Binary.run(["accept", invite, s.calendar]).status == 0)
        }
        let run = try Binary.run(["merge", "--me", "me@example.com", "--policy", "accept-all", "--spool", s.spool, s.calendar])
        #expect(run.status == 0)
        let text = try calendarText(s)
        for id in [12, 13, 14] {
            #expect(text.components(separatedBy: "X-COOLCAL-INVITE-ID:\(id)\r\n").count == 2, "invitation \(id) once")
        }
    }

    @Test func reportWritesAndMovesNothing() throws {
        let s = try setup()
        let before = listing(s.spool)
        let run = try Binary.run(["merge", "--me", "me@example.com", "--policy", "report", "--spool", s.spool, s.calendar])
        #expect(run.status == 0)
        #expect(run.stdout.contains("busy      a-reunion.json"))
        #expect(run.stdout.contains("free      b-dentist.json"))
        #expect(run.stdout.contains("free      c-dentist2.json"), "nothing was accepted, so the second is free")
        #expect(listing(s.spool) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: s.calendar)) == s.original)
    }

    @Test func badCalendarStopsBeforeAnythingMoves() throws {
        let s = try setup()
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: s.calendar))
        let before = listing(s.spool)
        let run = try Binary.run(["merge", "--me", "me@example.com", "--spool", s.spool, s.calendar])
        #expect(run.status == 65)
        #expect(listing(s.spool) == before)
        let usage = try Binary.run(["merge", "--me", "me@example.com", "--policy", "maybe", "--spool", s.spool, s.calendar])
        #expect(usage.status == 64)
        #expect(usage.stderr.hasPrefix("coolcal: error: --policy must be one of accept-if-free, accept-all, decline-busy, report, not 'maybe'\n"))
    }

    @Test func killedMergeLosesNothing() throws {
        for trial in 0..<8 {
            let s = try setup()
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Binary.path)
            p.arguments = ["merge", "--me", "me@example.com", "--me", "me@example.com", "--policy", "accept-all", "--spool", s.spool, s.calendar]
            p.environment = ["XDG_CONFIG_HOME": "/nonexistent", "HOME": Binary.home]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            usleep(useconds_t(trial * 15_000))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            // Every invitation is pending or finished, never both, never gone.
            let names = ["a-reunion.json", "b-dentist.json", "c-dentist2.json", "d-bad.json"]
            for name in names {
                let places = [s.spool + "/" + name, s.spool + "/done/" + name, s.spool + "/failed/" + name]
                    .filter { FileManager.default.fileExists(atPath: $0) }
                #expect(places.count == 1, "\(name) is in \(places)")
            }
            // Finishing the run answers the rest; the calendar holds each accepted event once.
            let rerun = try Binary.run(["merge", "--me", "me@example.com", "--policy", "accept-all", "--spool", s.spool, s.calendar])
            #expect(rerun.status == 0)
            let text = try calendarText(s)
            for id in [12, 13, 14] {
                #expect(text.components(separatedBy: "X-COOLCAL-INVITE-ID:\(id)\r\n").count == 2)
            }
        }
    }
}
