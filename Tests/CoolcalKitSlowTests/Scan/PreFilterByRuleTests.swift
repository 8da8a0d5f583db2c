import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalCalendars
@testable import CoolcalScan
@testable import CoolcalScanTests

/// Issue #30: the pre-filter judges rules with BY parts by the days they allow
/// (`RuleDays`): it drops such a series when no allowed day near the window can hold an
/// instance. It must never change an answer: random BY-rules (`ByRuleRecurrenceTests`'
/// generator, with BYHOUR/BYMINUTE now and then) from awkward starts, in UTC, New York,
/// Sydney and floating time, all-day too, over many short windows, give the same
/// occurrences read through the filter as by the full parse, and the same warnings but
/// those of series with no instance in the window — and the filter drops most of the
/// bytes, or the test would show nothing.
@Suite struct PreFilterByRuleTests {
    typealias Random = FastRecurrenceTests.Random

    static func calendar(_ r: inout Random, count: Int) -> String {
        var out = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
        for i in 0..<count {
            let start = FastRecurrenceTests.start(&r, years: 2019...2024)
            let form = r.int(0...4)
            let seconds = start.secondsAsUTC
            var rule = ByRuleRecurrenceTests.rule(&r, count: r.chance(30))
            if !rule.contains("COUNT"), r.chance(30) {
                rule += ";UNTIL=" + FastRecurrenceTests.stamp(CivilDateTime(utcSeconds: seconds + Int64(r.int(10...900)) * 86_400), date: form == 3)
                    + (form == 0 ? "Z" : "")
            }
            let length = form == 3 ? ";VALUE=DATE:" + FastRecurrenceTests.stamp(CivilDateTime(utcSeconds: seconds + 86_400), date: true)
                : PreFilterTests.stamp(seconds + Int64(r.pick([15, 60, 120, 600])) * 60, form)
            out += "BEGIN:VEVENT\r\nUID:b\(i)@t\r\nDTSTAMP:20230101T000000Z\r\nSUMMARY:Rule \(i)\r\nDTSTART"
                + PreFilterTests.stamp(seconds, form) + "\r\nDTEND" + length + "\r\nRRULE:" + rule + "\r\nEND:VEVENT\r\n"
        }
        return out + "END:VCALENDAR\r\n"
    }

    @Test(arguments: [UInt64(31), 32, 33])
    func byRulesAreDroppedOnlyWhenTheyCannotReach(seed: UInt64) throws {
        var r = Random(state: seed)
        let text = Self.calendar(&r, count: 300)
        var compared = 0, dropped = 0, total = 0
        for _ in 0..<14 {
            let start = 1_577_836_800 + Int64(r.int(0...(6 * 365))) * 86_400 + Int64(r.int(0...95)) * 900
            let window = TimeWindow(start: start, end: start + Int64(r.pick([1, 4, 5, 24, 72])) * 3600)
            let zone = r.pick(["Europe/Berlin", "America/New_York", "UTC"])
            let full = try PreFilterTests().occurrences(text, window, filtered: false, tz: zone)
            let fast = try PreFilterTests().occurrences(text, window, filtered: true, tz: zone)
            #expect(full.0 == fast.0, "window \(window) in \(zone)")
            // A warning about a series is lost only with the series, when none of its
            // instances is in the window (a rule libical cannot expand, starting after it).
            #expect(Set(fast.1).isSubset(of: full.1), "window \(window)")
            for lost in Set(full.1).subtracting(fast.1) {
                let uid = lost.split(separator: "(").dropFirst().first?.split(separator: ")").first.map(String.init) ?? "?"
                #expect(!full.0.contains { $0.hasPrefix(uid + " ") }, "\(lost) lost in window \(window), which holds an instance")
            }
            compared += full.0.count
            let kept = PreFilterRun.filter(Data(text.utf8), window: window)
            dropped += text.utf8.count - kept.count
            total += text.utf8.count
        }
        #expect(compared > 10, "the windows saw instances")
        // Most series cannot reach a window of hours: the filter drops most of the bytes.
        #expect(dropped * 2 > total, "the filter dropped \(dropped) of \(total) bytes")
    }
}
