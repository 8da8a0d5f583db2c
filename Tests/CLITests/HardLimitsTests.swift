import CoolcalModel
import CoolcalSupport
import CoolcalZones
import CoolcalScan
import CoolcalDesktop
import CoolcalMail
import CoolcalICal
import CoolcalCalendars
import CoolcalInvite
import CoolcalState
import CoolcalCalDAV
import CoolcalSchedule
import CoolcalWriting
import CoolcalSpool
import CoolcalRSVP
import CoolcalCheck
import CoolcalAnswering
import CoolcalOutput
import CoolcalCLI
import Foundation
import Testing

/// libical's slow paths are bounded (rules that never match, sparse sub-daily rules,
/// dense VTIMEZONE observances, properties with huge parameter lists), and a limit
/// never turns into "free". CPU time is the child's own (`wait4`), not the wall clock.
@Suite struct HardLimitsTests {
    /// A directory with `invite.json` (samples/, 2022-08-20 16:00–20:00Z) and `cal.ics`.
    private func workspace(_ calendar: String) throws -> (dir: URL, root: URL) {
        let root = URL(fileURLWithPath: NSTemporaryDirectory()).resolvingSymlinksInPath()
            .appendingPathComponent("coolcal-limits-\(UUID().uuidString)")
        let dir = root.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Binary.sample("invite.json"), toPath: dir.appendingPathComponent("invite.json").path)
        try Data(calendar.utf8).write(to: dir.appendingPathComponent("cal.ics"))
        return (dir, root)
    }

    private func run(_ args: [String], calendar: String) throws -> (CorpusRun, URL) {
        let (dir, root) = try workspace(calendar)
        let run = try CorpusRunner.execute(args, in: dir, root: root)
        #expect(run.signal == nil, "coolcal \(args): killed by signal \(run.signal ?? 0)")
        return (run, dir)
    }

    private func calendar(_ events: String, zones: String = "") -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n\(zones)\(events)END:VCALENDAR\r\n"
    }

    private func event(_ uid: String, _ summary: String, start: String, end: String, _ extra: String = "") -> String {
        "BEGIN:VEVENT\r\nUID:\(uid)\r\nSUMMARY:\(summary)\r\nDTSTART:\(start)\r\nDTEND:\(end)\r\n\(extra)END:VEVENT\r\n"
    }

    static let cpuBound = 1.0

    @Test("a rule that can never match is answered within 1 s of CPU", arguments: ["SECONDLY", "MINUTELY", "HOURLY"])
    func neverMatchingRule(_ freq: String) throws {
        let cal = calendar(event("spin", "Spin", start: "20200101T030000Z", end: "20200101T040000Z",
                                 "RRULE:FREQ=\(freq);BYMONTH=2;BYMONTHDAY=30\r\n"))
        let (run, _) = try run(["conflicts", "invite.json", "cal.ics"], calendar: cal)
        #expect(run.cpuSeconds < Self.cpuBound, "FREQ=\(freq): \(run.cpuSeconds) s of CPU")
        #expect(run.status == 0)
        #expect(run.stderr.contains("event \"Spin\" (spin): RRULE FREQ=\(freq);BYMONTHDAY=30;BYMONTH=2 is not expanded (it can never match"), "\(run.stderr)")
    }

    /// Found by FuzzCalendar (10 s per input in a release build): libical walks month
    /// after month looking for a fifth day among two.
    @Test("a BYSETPOS past every period's set is answered within 1 s of CPU",
          arguments: ["FREQ=MONTHLY;BYMONTHDAY=10,-1;BYSETPOS=5", "FREQ=MONTHLY;BYDAY=2MO,-1FR;BYSETPOS=-3", "FREQ=WEEKLY;BYDAY=MO,WE;BYSETPOS=3"])
    func unreachableSetPosition(_ rule: String) throws {
        let cal = calendar(event("setpos", "Setpos", start: "20220120T100000Z", end: "20220120T110000Z", "RRULE:\(rule)\r\n"))
        let (run, _) = try run(["events", "--from", "2022-08-01T00:00:00Z", "--to", "2022-08-30T00:00:00Z", "cal.ics"], calendar: cal)
        #expect(run.cpuSeconds < Self.cpuBound, "\(rule): \(run.cpuSeconds) s of CPU")
        #expect(run.stderr.contains("is not expanded (it can never match: BYSETPOS="), "\(run.stderr)")
    }

    /// A BYSETPOS a period can reach still expands (the bound is not too tight).
    @Test func reachableSetPositionExpands() throws {
        let cal = calendar(event("last", "Last", start: "20220131T100000Z", end: "20220131T110000Z",
                                 "RRULE:FREQ=MONTHLY;BYMONTHDAY=10,-1;BYSETPOS=2\r\n"))
        let (run, _) = try run(["events", "--json", "--from", "2022-08-01T00:00:00Z", "--to", "2022-09-01T00:00:00Z", "cal.ics"], calendar: cal)
        #expect(run.stderr == "", "\(run.stderr)")
        #expect(run.stdout.contains("\"start\": \"2022-08-31T10:00:00Z\""), "\(run.stdout)")
    }

    @Test("a sparse sub-daily rule is refused, not walked for seconds")
    func sparseSubDailyRule() throws {
        let cal = calendar(event("sparse", "Sparse", start: "20200201T000000Z", end: "20200201T000100Z",
                                 "RRULE:FREQ=MINUTELY;BYMONTH=1\r\n"))
        let (run, _) = try run(["events", "--from", "2022-08-01T00:00:00Z", "--to", "2022-08-30T00:00:00Z", "cal.ics"], calendar: cal)
        #expect(run.cpuSeconds < Self.cpuBound, "\(run.cpuSeconds) s of CPU")
        #expect(run.stderr.contains("steps of its frequency apart, more than the 100,000 allowed"), "\(run.stderr)")
    }

    @Test("a VTIMEZONE with a dense observance rule from year 1 is ignored within 1 s of CPU")
    func denseZone() throws {
        let days = (1...31).map(String.init).joined(separator: ","), hours = (0...23).map(String.init).joined(separator: ",")
        let zone = "BEGIN:VTIMEZONE\r\nTZID:Dense/Zone\r\nBEGIN:STANDARD\r\nDTSTART:00010101T000000\r\nTZOFFSETFROM:+0100\r\n"
            + "TZOFFSETTO:+0000\r\nRRULE:FREQ=YEARLY;BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12;BYMONTHDAY=\(days);BYHOUR=\(hours)\r\n"
            + "END:STANDARD\r\nEND:VTIMEZONE\r\n"
        let cal = calendar("BEGIN:VEVENT\r\nUID:z\r\nSUMMARY:Zoned\r\nDTSTART;TZID=Dense/Zone:20220820T170000\r\n"
                           + "DTEND;TZID=Dense/Zone:20220820T180000\r\nEND:VEVENT\r\n", zones: zone)
        let (run, _) = try run(["conflicts", "invite.json", "cal.ics"], calendar: cal)
        #expect(run.cpuSeconds < Self.cpuBound, "\(run.cpuSeconds) s of CPU")
        #expect(run.stderr.contains("cal.ics: VTIMEZONE \"Dense/Zone\": an observance RRULE gives up to 8784 transitions a year (at most 12); the zone is ignored"), "\(run.stderr)")
        // The zone unknown, the time is read in --tz (UTC): 17:00Z overlaps; never a silent drop.
        #expect(run.status == 1)
        #expect(run.stderr.contains("unknown time zone"), "\(run.stderr)")
    }

    @Test("a property with 100,000 parameters skips its event, naming the line, within 1 s of CPU", arguments: [false, true])
    func hugeParameterList(folded: Bool) throws {
        var line = "X-FOO;" + Array(repeating: "X=1", count: 100_000).joined(separator: ";") + ":v"
        if folded {
            line = stride(from: 0, to: line.utf8.count, by: 74).map { i -> String in
                let chars = Array(line.utf8)
                return String(decoding: chars[i..<min(i + 74, chars.count)], as: UTF8.self)
            }.joined(separator: "\r\n ")
        }
        let cal = calendar(event("hostile", "Hostile", start: "20220820T160000Z", end: "20220820T170000Z", line + "\r\n")
                           + event("fine", "Fine", start: "20220820T170000Z", end: "20220820T180000Z"))
        let (run, _) = try run(["conflicts", "--json", "invite.json", "cal.ics"], calendar: cal)
        #expect(run.cpuSeconds < Self.cpuBound, "\(run.cpuSeconds) s of CPU")
        #expect(run.stderr.contains("cal.ics: line 9: a property with more than 1,000 parameters; the VEVENT it is in is skipped"), "\(run.stderr)")
        // Only that event: the rest of the file is read.
        let conflicts = try Binary.json(run.stdout)["conflicts"] as? [[String: Any]] ?? []
        #expect(conflicts.map { $0["uid"] as? String } == ["fine"])
        #expect(run.status == 1)
    }

    @Test("a component with more than 10,000 properties is skipped with a warning naming the line")
    func tooManyProperties() throws {
        let many = (0..<10_001).map { "X-A:\($0)\r\n" }.joined()
        let cal = calendar(event("many", "Many", start: "20220820T160000Z", end: "20220820T170000Z", many))
        let (run, _) = try run(["conflicts", "invite.json", "cal.ics"], calendar: cal)
        #expect(run.stderr.contains("cal.ics: line 10005: a component with more than 10,000 properties; the VEVENT it is in is skipped"), "\(run.stderr)")
        #expect(run.status == 0)
    }

    private static let endless = "RRULE:FREQ=SECONDLY;COUNT=2147483647\r\n"

    @Test("an expansion stopped by the step limit is busy and incomplete, in text and JSON")
    func truncatedIsBusy() throws {
        let cal = calendar(event("endless", "Endless", start: "20200101T000000Z", end: "20200101T000001Z", Self.endless))
        let (text, _) = try run(["conflicts", "invite.json", "cal.ics"], calendar: cal)
        #expect(text.status == 1, "a truncated answer must not be free: \(text.stdout)")
        #expect(text.stdout.contains("Endless  [cal.ics]  overlaps  (incomplete: expansion stopped at the 400,000-step limit)"), "\(text.stdout)")
        let (json, _) = try run(["conflicts", "--json", "invite.json", "cal.ics"], calendar: cal)
        #expect(json.status == 1)
        let doc = try Binary.json(json.stdout)
        #expect(doc["free"] as? Bool == false)
        let conflicts = doc["conflicts"] as? [[String: Any]] ?? []
        #expect(conflicts.count == 1)
        #expect(conflicts.first?["incomplete"] as? Bool == true)
        #expect(conflicts.first?["start"] as? String == "2022-08-20T14:00:00Z")
        #expect(conflicts.first?["end"] as? String == "2022-08-20T22:00:00Z")
        #expect(json.stdout.contains("\"overlaps_invite\": true,\n      \"incomplete\": true,\n      \"tentative\": false,\n"),
                "incomplete comes after the conflict's fields, the fields added later after it")
    }

    @Test("accept --if-free does not accept over a truncated expansion, and writes nothing")
    func acceptRefusesTruncated() throws {
        let cal = calendar(event("endless", "Endless", start: "20200101T000000Z", end: "20200101T000001Z", Self.endless))
        let (run, dir) = try run(["accept", "--if-free", "invite.json", "cal.ics"], calendar: cal)
        #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.hasPrefix("not accepted:"), "\(run.stdout)")
        #expect(try String(contentsOf: dir.appendingPathComponent("cal.ics"), encoding: .utf8) == cal)
    }

    @Test("an open-ended FREQ=MINUTELY;INTERVAL=4 from 2005 has its 2,520 instances in a week of 2026")
    func oldMinutelyRuleStartsAtTheWindow() throws {
        let cal = calendar(event("kalarm", "KAlarm", start: "20050101T000100Z", end: "20050101T000200Z",
                                 "RRULE:FREQ=MINUTELY;INTERVAL=4\r\n"))
        let (run, _) = try run(["events", "--json", "--from", "2026-03-02T00:00:00Z", "--to", "2026-03-09T00:00:00Z", "cal.ics"],
                               calendar: cal)
        #expect(run.status == 0, "\(run.stderr)")
        let events = try Binary.json(run.stdout)["events"] as? [[String: Any]] ?? []
        #expect(events.count == 2_520)
        #expect(events.allSatisfy { $0["incomplete"] as? Bool == false })
        // The INTERVAL's phase from DTSTART (minute 1 of every 4), not the window's.
        #expect(events.first?["start"] as? String == "2026-03-02T00:01:00Z")
        #expect(events.last?["start"] as? String == "2026-03-08T23:57:00Z")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }

    @Test("the pre-filter and the full parse agree on capped events and their warnings")
    func capsAgreeWithPreFilter() throws {
        let huge = "X-FOO;" + Array(repeating: "X=1", count: 2_000).joined(separator: ";") + ":v\r\n"
        let text = calendar(event("far", "Far", start: "20100101T000000Z", end: "20100101T010000Z", huge)
                            + event("near", "Near", start: "20220820T160000Z", end: "20220820T170000Z", huge)
                            + event("ok", "Ok", start: "20220820T170000Z", end: "20220820T180000Z"))
        let window = TimeWindow(start: 1_660_953_600, end: 1_661_040_000)
        let full = try ICalReader.read(Data(text.utf8), file: "c.ics")
        let filtered = try ICalReader.read(Data(text.utf8), file: "c.ics", window: window)
        #expect(full.events.map(\.uid) == ["ok"])
        #expect(filtered.events.map(\.uid) == ["ok"])
        #expect(full.warnings == filtered.warnings)
        #expect(full.warnings == ["c.ics: line 9: a property with more than 1,000 parameters; the VEVENT it is in is skipped",
                                  "c.ics: line 16: a property with more than 1,000 parameters; the VEVENT it is in is skipped"])
    }
}
