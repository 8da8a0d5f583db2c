import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalCalendars

/// sabre/vobject's time-range and free/busy expectations: `inrange.jsonl`
/// (`VEvent::isInTimeRange`: does the event have an occurrence in [start, end)?) and
/// `freebusy.jsonl` (`FreeBusyGenerator`: the busy periods in a window), answered from the
/// occurrences `OccurrenceExpander` gives in that window.
@Suite struct PeerRangeTests {
    static func instant(_ side: Any?) -> Int64? {
        guard let side = side as? [String: Any], let text = side["utc"] as? String,
              let t = PeerTime.parse(text), t.utc || t.hasTime else { return nil }
        return t.fields.secondsAsUTC
    }

    /// The event is in the range when coolcal gives it an occurrence there; floating times
    /// are read in the range's own zone (as sabre reads them in the zone of `start`).
    func inRange(_ c: [String: Any]) throws -> PeerOutcome {
        guard let text = c["cal"] as? String, let from = PeerRangeTests.instant(c["start"]),
              let to = PeerRangeTests.instant(c["end"]), let outcome = c["outcome"] as? Bool,
              let tz = (c["start"] as? [String: Any])?["tz"] as? String, let zone = TimeZone(identifier: tz) else {
            return .notTranslatable("a field the harness needs is missing")
        }
        let found = PeerExpansion.occurrences(try PeerExpansion.calendar(text), from: from, to: to, zone: zone)
        let got = !found.occurrences.isEmpty
        return got == outcome ? .passed
            : .failed("expected \(outcome ? "in" : "not in") range, coolcal \(found.occurrences.map(\.start.jsonString))")
    }

    @Test func sabreInTimeRange() throws {
        guard let cases = try PeerCorpus.cases("inrange.jsonl") else { return }
        var tally = PeerTally("inrange.jsonl")
        for c in cases {
            let name = c["test"] as? String ?? "?"
            tally.record(name, PeerKnownDifferences.judge(name, try inRange(c), got: nil))
        }
        tally.report()
    }

    /// The window's busy time as sabre writes it: each busy occurrence cut to the window,
    /// tentative ones as `FBTYPE=BUSY-TENTATIVE`, overlapping or touching periods of one
    /// type joined, in order. A zero-length occurrence (a DATE-TIME DTSTART alone) holds no
    /// busy time, so no period.
    static func freeBusy(_ occurrences: [Occurrence], from: Int64, to: Int64) -> [String] {
        var periods: [(type: String, start: Int64, end: Int64)] = []
        for o in occurrences where o.busy && o.endInstant > o.startInstant {
            let type = o.isTentative ? ";FBTYPE=BUSY-TENTATIVE" : ""
            periods.append((type, max(o.startInstant, from), min(o.endInstant, to)))
        }
        periods.sort { ($0.start, $0.end) < ($1.start, $1.end) }
        var joined: [(type: String, start: Int64, end: Int64)] = []
        for p in periods {
            if let i = joined.lastIndex(where: { $0.type == p.type }), joined[i].end >= p.start {
                joined[i].end = max(joined[i].end, p.end)
            } else {
                joined.append(p)
            }
        }
        return joined.map { p in
            "FREEBUSY\(p.type):\(PeerTime.ical(CivilDateTime(utcSeconds: p.start), utc: true))/"
                + PeerTime.ical(CivilDateTime(utcSeconds: p.end), utc: true)
        }
    }

    func freeBusy(_ c: [String: Any]) throws -> PeerOutcome {
        guard let input = c["input"] as? String, let expected = c["expected"] as? String,
              let from = (c["start"] as? String).flatMap(PeerTime.parse)?.fields.secondsAsUTC,
              let to = (c["end"] as? String).flatMap(PeerTime.parse)?.fields.secondsAsUTC else {
            return .notTranslatable("a field the harness needs is missing")
        }
        if !(c["vavailability"] is NSNull) {
            return .notTranslatable("VAVAILABILITY (RFC 7953): coolcal does not model availability")
        }
        if input.contains("BEGIN:VFREEBUSY") {
            return .notTranslatable("a VFREEBUSY as input: coolcal reads events only")
        }
        let zone = try #require(TimeZone(identifier: c["tz"] as? String ?? "UTC"))
        let found = PeerExpansion.occurrences(try PeerExpansion.calendar(input), from: from, to: to, zone: zone)
        let got = PeerRangeTests.freeBusy(found.occurrences, from: from, to: to)
        let want = expected.split(whereSeparator: \.isNewline).map(String.init)
        return got == want ? .passed : .failed("expected \(want), coolcal \(got)")
    }

    @Test func sabreFreeBusyGenerator() throws {
        guard let cases = try PeerCorpus.cases("freebusy.jsonl") else { return }
        var tally = PeerTally("freebusy.jsonl")
        for c in cases {
            let name = c["test"] as? String ?? "?"
            tally.record(name, PeerKnownDifferences.judge(name, try freeBusy(c), got: nil))
        }
        tally.report()
    }
}
