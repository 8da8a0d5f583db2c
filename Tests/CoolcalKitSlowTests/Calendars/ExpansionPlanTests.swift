import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalCalendars
@testable import CoolcalTestSupport

/// `merge` expands prepared calendars (`ExpansionPlan`), skipping an event that does
/// not recur in a window its one instance misses: every window must still give what
/// expanding the calendars afresh gives — the same occurrences and the same warnings.
@Suite struct ExpansionPlanTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Shapes where skipping could go wrong: zones (known, unknown, a file's own), floating
    /// times, dates, lengths the reader corrects with a warning, an EXDATE on the only
    /// instance, overrides with and without a master, events touching a window's edge.
    static let mixed = [
        "BEGIN:VTIMEZONE\r\nTZID:Custom/Far\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:+1300\r\nTZOFFSETTO:+1300\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n",
        vevent("utc", "DTSTART:20240310T090000Z", "DTEND:20240310T100000Z", "SUMMARY:utc"),
        vevent("zoned", "DTSTART;TZID=America/New_York:20240310T013000", "DTEND;TZID=America/New_York:20240310T033000"),
        vevent("far", "DTSTART;TZID=Custom/Far:20240311T080000", "DURATION:PT2H"),
        vevent("unknown", "DTSTART;TZID=Nowhere/Special:20240310T120000", "DTEND;TZID=Nowhere/Special:20240310T130000"),
        vevent("floating", "DTSTART:20240310T140000", "DTEND:20240310T150000"),
        vevent("day", "DTSTART;VALUE=DATE:20240312", "DTEND;VALUE=DATE:20240314"),
        vevent("day-bad-end", "DTSTART;VALUE=DATE:20240315", "DTEND;VALUE=DATE:20240315"),
        vevent("day-hours", "DTSTART;VALUE=DATE:20240316", "DURATION:PT10H"),
        vevent("backwards", "DTSTART:20240310T180000Z", "DTEND:20240310T170000Z"),
        vevent("negative", "DTSTART:20240310T190000Z", "DURATION:-PT1H"),
        vevent("point", "DTSTART:20240310T200000Z"),
        vevent("excluded", "DTSTART:20240310T210000Z", "DTEND:20240310T220000Z", "EXDATE:20240310T210000Z"),
        vevent("weekly", "DTSTART:20240304T110000Z", "DTEND:20240304T113000Z", "RRULE:FREQ=WEEKLY;COUNT=6"),
        vevent("weekly", "RECURRENCE-ID:20240318T110000Z", "DTSTART:20240318T160000Z", "DTEND:20240318T170000Z"),
        vevent("orphan", "RECURRENCE-ID:20240301T090000Z", "DTSTART:20240313T090000Z", "DTEND:20240313T100000Z"),
        "BEGIN:VEVENT\r\nRECURRENCE-ID:20240301T090000Z\r\nDTSTART:20240313T230000Z\r\nDTEND:20240314T000000Z\r\nEND:VEVENT\r\n",
        vevent("rdate", "DTSTART:20240310T050000Z", "DTEND:20240310T060000Z", "RDATE:20240317T050000Z"),
        vevent("rdate-before", "DTSTART:20240320T050000Z", "DTEND:20240320T060000Z", "RDATE:20240308T050000Z",
               "RRULE:FREQ=DAILY;COUNT=2"),
        vevent("daily-until", "DTSTART;TZID=Europe/Berlin:20240305T080000", "DTEND;TZID=Europe/Berlin:20240305T083000",
               "RRULE:FREQ=DAILY;INTERVAL=3;UNTIL=20240401T000000Z", "EXDATE;TZID=Europe/Berlin:20240311T080000"),
        vevent("weekly-count", "DTSTART;TZID=America/New_York:20240301T230000", "DURATION:PT3H", "RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=3"),
        vevent("monthly-until", "DTSTART;TZID=Custom/Far:20240115T100000", "DTEND;TZID=Custom/Far:20240115T110000",
               "RRULE:FREQ=MONTHLY;UNTIL=20240415T100000"),
        vevent("yearly-days", "DTSTART;VALUE=DATE:20220313", "DTEND;VALUE=DATE:20220314", "RRULE:FREQ=YEARLY;COUNT=3"),
        vevent("byday", "DTSTART:20240304T150000Z", "DTEND:20240304T160000Z", "RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=4"),
        vevent("second-tuesday", "DTSTART;TZID=Europe/Berlin:20240109T100000", "DURATION:PT1H",
               "RRULE:FREQ=MONTHLY;BYDAY=2TU;UNTIL=20240601T000000Z"),
        vevent("weekdays-until", "DTSTART:20240304T070000Z", "DURATION:PT30M", "RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;UNTIL=20240329T070000Z",
               "EXDATE:20240311T070000Z"),
        vevent("last-friday", "DTSTART;TZID=America/New_York:20240126T163000", "DURATION:PT1H",
               "RRULE:FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1;COUNT=5"),
        // A counted BY-rule walked once and replayed in each window, one whose zone is
        // unknown and one whose EXDATE's is (the warnings given again in every window).
        vevent("counted-weekdays", "DTSTART:20240301T080000Z", "DURATION:PT1H", "RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;COUNT=20",
               "EXDATE:20240311T080000Z"),
        vevent("counted-unknown", "DTSTART;TZID=Nowhere/Special:20240304T090000", "DURATION:PT1H",
               "RRULE:FREQ=WEEKLY;BYDAY=MO,TH;COUNT=8"),
        vevent("exdate-unknown", "DTSTART:20240304T100000Z", "DURATION:PT1H", "RRULE:FREQ=DAILY;BYDAY=MO,TU,WE;COUNT=9",
               "EXDATE;TZID=Nowhere/Else:20240306T100000"),
        vevent("endless", "DTSTART:20240306T170000Z", "DTEND:20240306T171500Z", "RRULE:FREQ=WEEKLY"),
        vevent("long-count", "DTSTART:19500101T000000Z", "DURATION:PT1M", "RRULE:FREQ=DAILY;COUNT=300000"),
        vevent("bad-rule", "DTSTART:20240311T050000Z", "DTEND:20240311T060000Z", "RRULE:FREQ=SOMETIMES"),
        vevent("no-start", "DTEND:20240310T060000Z"),
        vevent("revised", "SEQUENCE:1", "DTSTART:20240312T090000Z", "DTEND:20240312T100000Z"),
        vevent("revised", "SEQUENCE:0", "DTSTART:20240311T090000Z", "DTEND:20240311T100000Z"),
    ].joined()

    /// Windows on and around every instance a wide expansion finds (edges touching,
    /// zero-length, a minute in), and hours across the whole span.
    /// (The first `instances`: a corpus rule can have millions.)
    static func windows(for occurrences: [Occurrence], instances: Int = 12, days: Int64 = 30) -> [TimeWindow] {
        var result: [TimeWindow] = []
        for o in occurrences.prefix(instances) {
            let s = o.startInstant, e = o.endInstant
            result += [TimeWindow(start: s - 3600, end: s), TimeWindow(start: s, end: s), TimeWindow(start: s + 60, end: s + 120),
                       TimeWindow(start: e, end: e + 3600), TimeWindow(start: e - 1, end: e), TimeWindow(start: s - 86_400, end: e + 86_400)]
        }
        if let first = occurrences.prefix(instances).map(\.startInstant).min(),
           let last = occurrences.prefix(instances).map(\.endInstant).max() {
            result += stride(from: first - 7200, through: min(last, first + days * 86_400) + 7200, by: 5 * 3600)
                .map { TimeWindow(start: $0, end: $0 + 4 * 3600) }
        }
        return result
    }

    /// Expands `calendars` in `windows` both ways, as `merge` does (one expander for the
    /// run), and fails on the first window where the two differ.
    func compare(_ calendars: [LoadedCalendar], _ windows: [TimeWindow], _ what: String) {
        let options = Self.options
        let freshSaid = Diagnostics(), preparedSaid = Diagnostics()
        let fresh = OccurrenceExpander(options: options, diagnostics: freshSaid)
        let planned = OccurrenceExpander(options: options, diagnostics: preparedSaid)
        let prepared = planned.prepare(calendars)
        for window in windows {
            let a = fresh.occurrences(in: window, calendars: calendars).map { String(describing: $0) }
            let b = planned.occurrences(in: window, prepared: prepared).map { String(describing: $0) }
            guard a == b, freshSaid.warnings == preparedSaid.warnings else {
                Issue.record("\(what), window \(window.jsonString): \(a.count) vs \(b.count) occurrences; warnings \(freshSaid.warnings) vs \(preparedSaid.warnings)")
                return
            }
        }
    }

    /// A step limit of 20,000 (the same both ways): the corpus's pathological rules stop
    /// early, marked incomplete, instead of walking two million steps per window.
    static var options: ExpansionOptions { ExpansionOptions(floatingZone: TimeZone(identifier: "Europe/Berlin") ?? .current, maxSteps: 20_000) }

    static let wide = TimeWindow(start: 0, end: 4_102_444_800)  // 1970 to 2100

    @Test func theMixedCalendarGivesTheSameInEveryWindow() throws {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + Self.mixed + "END:VCALENDAR\r\n"
        let loaded = [LoadedCalendar(name: "mixed.ics", color: nil, files: [try ICalReader.read(Data(text.utf8), file: "mixed.ics")])]
        let all = OccurrenceExpander(options: Self.options, diagnostics: Diagnostics())
            .occurrences(in: Self.wide, calendars: loaded)
        #expect(all.count >= 20)
        // Around every instance from 2024 on (and the first of the 1950 series), and
        // hourly over March and April 2024.
        let windows = Self.windows(for: all.filter { $0.uid != "long-count" }, instances: 200, days: 60)
            + Self.windows(for: all.filter { $0.uid == "long-count" }, instances: 2, days: 0)
        #expect(windows.count > 600)
        compare(loaded, windows, "mixed.ics")
        // And the plan does skip: the events that do not recur (13 of them, the newer
        // "revised" only), the series of simple rules with an end (rdate, rdate-before,
        // daily-until, weekly-count, monthly-until, yearly-days) and those of BY-rules with
        // a known end (byday, second-tuesday, weekdays-until, counted-unknown) carry a reach; not the
        // overrides' series, the endless one, the one whose COUNT would walk more than half
        // the step limit, the BY-rule whose COUNT gives no end (last-friday: a month may
        // have no match for all the scan knows; counted-weekdays, exdate-unknown: walked in every
        // window, replayed), the bad rule, the one without DTSTART.
        let plan = ExpansionPlan(loaded, context: ExpansionContext(options: Self.options, diagnostics: Diagnostics()), forManyWindows: true)
        let reached = plan.calendars[0].files[0].series.filter { $0.reach != nil }.compactMap { $0.master?.uid }
        #expect(reached.count == 23, "\(reached)")
        #expect(!reached.contains("long-count") && !reached.contains("endless") && reached.contains("weekly-count"))
        #expect(["byday", "second-tuesday", "weekdays-until"].allSatisfy(reached.contains) && !reached.contains("last-friday"))
    }

    @Test func everyCorpusCalendarGivesTheSameInEveryWindow() throws {
        let folders = ["Tests/Corpus/calendars", "samples"].map { Self.root.appendingPathComponent($0) }
        var compared = 0
        for folder in folders {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".ics") {
                let path = folder.appendingPathComponent(name).path
                guard let data = FileManager.default.contents(atPath: path),
                      let file = try? ICalReader.read(data, file: name) else { continue }
                let loaded = [LoadedCalendar(name: name, color: nil, files: [file])]
                let all = OccurrenceExpander(options: Self.options, diagnostics: Diagnostics())
                    .occurrences(in: Self.wide, calendars: loaded)
                // A rule the step limit cuts (the SECONDLY ones) costs a second per window
                // in a debug build, and recurs (never skipped): one window is enough there.
                let cut = all.contains { $0.incomplete != nil }
                compare(loaded, cut ? Array(Self.windows(for: all, instances: 1).prefix(1)) : Self.windows(for: all, instances: 4, days: 3), name)
                compared += 1
            }
        }
        #expect(compared >= 40)
    }
}
