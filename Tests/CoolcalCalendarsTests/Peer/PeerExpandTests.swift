import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalCalendars
@testable import CoolcalTestSupport

/// sabre/vobject's `VCalendar::expand` expectations (`expand.jsonl`: a calendar, a window, a
/// zone, and the expanded calendar sabre writes) compared with `OccurrenceExpander`'s
/// occurrences; and `eventiter.jsonl`, the inputs of sabre's `EventIterator` tests.
@Suite struct PeerExpandTests {
    /// One VEVENT of an expanded calendar: UID, DTSTART, and DTEND and RECURRENCE-ID where
    /// written, in coolcal's JSON forms (`2011-12-02`, `2011-12-03T12:01:02Z`).
    struct Instance: Equatable, CustomStringConvertible {
        var uid = "", start = "", end: String?, recurrenceID: String?
        var description: String { "\(uid) \(start)/\(end ?? "-") rid=\(recurrenceID ?? "-")" }
    }

    /// The VEVENTs of sabre's output (lines unfolded; VALARMs and the rest passed over).
    static func instances(of text: String) -> [Instance]? {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n ", with: "")
            .split(separator: "\n")
        var found: [Instance] = [], current: Instance?, depth = 0
        for line in lines {
            if line == "BEGIN:VEVENT" { current = Instance(); depth = 0; continue }
            if line.hasPrefix("BEGIN:") { depth += 1; continue }
            if line.hasPrefix("END:") && depth > 0 { depth -= 1; continue }
            if line == "END:VEVENT", let c = current { found.append(c); current = nil; continue }
            guard current != nil, depth == 0, let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].split(separator: ";").first.map(String.init) ?? ""
            let value = String(line[line.index(after: colon)...])
            let json: () -> String? = {
                guard let t = PeerTime.parse(value) else { return nil }
                return t.hasTime ? (t.utc ? t.fields.utcString : nil) : t.fields.dateString
            }
            switch name {
            case "UID": current?.uid = value
            case "DTSTART": guard let v = json() else { return nil }; current?.start = v
            case "DTEND": guard let v = json() else { return nil }; current?.end = v
            case "RECURRENCE-ID": guard let v = json() else { return nil }; current?.recurrenceID = v
            default: break
            }
        }
        return found.sorted { ($0.start, $0.uid) < ($1.start, $1.uid) }
    }

    func expand(_ c: [String: Any]) throws -> PeerOutcome {
        guard let input = c["input"] as? String, let output = c["output"] as? String,
              let from = PeerRangeTests.instant(c["start"]), let to = PeerRangeTests.instant(c["end"]),
              let zone = (c["tz"] as? String).flatMap(TimeZone.init(identifier:)) else {
            return .notTranslatable("a field the harness needs is missing")
        }
        guard let want = PeerExpandTests.instances(of: output) else {
            return .notTranslatable("the expected calendar has a floating or unreadable time")
        }
        let found = PeerExpansion.occurrences(try PeerExpansion.calendar(input), from: from, to: to, zone: zone)
        let got = found.occurrences.map { o in
            Instance(uid: o.uid ?? "", start: o.start.jsonString, end: o.end.jsonString, recurrenceID: o.recurrenceID?.jsonString)
        }.sorted { ($0.start, $0.uid) < ($1.start, $1.uid) }
        // sabre writes DTEND only where the event had one: compare the end where it is written.
        let same = got.count == want.count && zip(got, want).allSatisfy { g, w in
            g.uid == w.uid && g.start == w.start && (w.end == nil || g.end == w.end) && g.recurrenceID == w.recurrenceID
        }
        return same ? .passed : .failed("expected \(want), coolcal \(got)")
    }

    @Test func sabreExpand() throws {
        guard let cases = try PeerCorpus.cases("expand.jsonl") else { return }
        var tally = PeerTally("expand.jsonl")
        for c in cases {
            let name = c["test"] as? String ?? "?"
            tally.record(name, PeerKnownDifferences.judge(name, try expand(c), got: nil))
        }
        tally.report()
    }

    /// `eventiter.jsonl` records what sabre's EventIterator tests read, not what they expect:
    /// the expectations are in sabre's PHP test code. A case whose expectation another dump
    /// records (same test name) is run there; the others cannot be translated from the data.
    @Test func sabreEventIterator() throws {
        guard let cases = try PeerCorpus.cases("eventiter.jsonl") else { return }
        var elsewhere: [String: String] = [:]
        for file in ["inrange.jsonl", "expand.jsonl", "freebusy.jsonl", "rrule.jsonl"] {
            for c in try PeerCorpus.cases(file) ?? [] {
                if let name = c["test"] as? String { elsewhere[name] = file }
            }
        }
        var tally = PeerTally("eventiter.jsonl")
        for c in cases {
            let name = c["test"] as? String ?? "?"
            // Every case at least reads: a calendar libical cannot parse would be a finding.
            guard let text = c["cal"] as? String, (try? PeerExpansion.calendar(text)) != nil else {
                tally.record(name, .failed("the calendar does not read"))
                continue
            }
            if let file = elsewhere[name] {
                tally.record(name, .notTranslatable("its expectation is recorded in \(file), run there"))
            } else {
                tally.record(name, .notTranslatable("input only: the dump records no expected instances (they are in sabre's PHP code)"))
            }
        }
        tally.report()
    }
}
