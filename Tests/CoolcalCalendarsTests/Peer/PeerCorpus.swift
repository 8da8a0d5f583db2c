import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalCalendars
@testable import CoolcalTestSupport

/// The peer expectation suites beside the checkout (`../shared/corpora/peer-vobject/dump`):
/// sabre/vobject's and ical.js's own test cases recorded as JSON lines, read in place.
enum PeerCorpus {
    static let directory: URL? = {
        Checkout.corpus("peer-vobject/dump")
    }()

    /// The cases of one file, or nil (with a printed notice) when the corpus is absent.
    static func cases(_ name: String) throws -> [[String: Any]]? {
        guard let directory else {
            print("peer corpus: ../shared/corpora/peer-vobject/dump is absent; \(name) skipped")
            return nil
        }
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw TestFailure("\(name): a line that is not a JSON object")
            }
            return object
        }
    }
}

/// What became of one peer case.
enum PeerOutcome {
    case passed
    case failed(String)
    /// coolcal deliberately differs; the reason says why (and, where there is one, the
    /// RFC reading was checked instead of the peer's).
    case knownDifferent(String)
    case notTranslatable(String)
}

/// The counts of one file: cases run, passed, known to differ (by reason), not
/// translatable (by reason), and the failures with what went wrong.
struct PeerTally {
    let file: String
    private(set) var run = 0, passed = 0
    private(set) var known: [String: Int] = [:]
    private(set) var untranslatable: [String: Int] = [:]
    private(set) var failures: [String] = []
    /// How the translation changed cases that then passed (e.g. DTSTART added), by note.
    private(set) var notes: [String: Int] = [:]

    init(_ file: String) { self.file = file }

    mutating func note(_ what: String) { notes[what, default: 0] += 1 }

    mutating func record(_ name: String, _ outcome: PeerOutcome) {
        switch outcome {
        case .passed: run += 1; passed += 1
        case .failed(let why): run += 1; failures.append("\(name): \(why)")
        case .knownDifferent(let reason): run += 1; known[reason, default: 0] += 1
        case .notTranslatable(let reason): untranslatable[reason, default: 0] += 1
        }
    }

    var knownCount: Int { known.values.reduce(0, +) }
    var untranslatableCount: Int { untranslatable.values.reduce(0, +) }

    /// Prints the counts, then checks that nothing failed.
    func report() {
        var lines = ["peer \(file): \(run + untranslatableCount) cases, \(run) run, \(passed) passed, "
                     + "\(knownCount) known-different, \(untranslatableCount) not translatable, \(failures.count) failed"]
        for (reason, n) in known.sorted(by: { $0.key < $1.key }) { lines.append("  known-different x\(n): \(reason)") }
        for (reason, n) in untranslatable.sorted(by: { $0.key < $1.key }) { lines.append("  not translatable x\(n): \(reason)") }
        for (what, n) in notes.sorted(by: { $0.key < $1.key }) { lines.append("  translated x\(n): \(what)") }
        for failure in failures { lines.append("  FAILED \(failure)") }
        print(lines.joined(separator: "\n"))
        #expect(failures.isEmpty, "\(file): \(failures.count) failed:\n\(failures.joined(separator: "\n"))")
    }
}

/// Expanding a peer case's calendar with coolcal's own API (`OccurrenceExpander`).
enum PeerExpansion {
    /// 2583-01-01T00:00:00Z: libical's iterator, and so coolcal's, gives nothing from here.
    static let end = CivilDateTime(year: 2583, month: 1, day: 1).secondsAsUTC

    static func calendar(_ text: String) throws -> ICalCalendar {
        try ICalReader.read(Data(text.utf8), file: "peer.ics")
    }

    /// The occurrences overlapping [from, to), floating times and dates read in `zone`.
    static func occurrences(_ calendar: ICalCalendar, from: Int64, to: Int64, zone: TimeZone,
                            perEvent: Int = 100_000) -> (occurrences: [Occurrence], warnings: [String]) {
        let diagnostics = Diagnostics()
        let options = ExpansionOptions(floatingZone: zone, maxOccurrencesPerEvent: perEvent)
        let found = OccurrenceExpander(options: options, diagnostics: diagnostics)
            .occurrences(in: TimeWindow(start: from, end: to), calendars: [LoadedCalendar(name: "peer.ics", color: nil, files: [calendar])])
        return (found, diagnostics.warnings)
    }

    /// The first `n` occurrences from `from` on (windows growing from a year), or every one
    /// up to 2583 when `n` is nil: what an iterator of the series gives from there.
    static func first(_ n: Int?, _ calendar: ICalCalendar, from: Int64, zone: TimeZone) -> (occurrences: [Occurrence], warnings: [String]) {
        guard let n else { return occurrences(calendar, from: from, to: end, zone: zone, perEvent: 2_000) }
        var span: Int64 = 366 * 86_400
        while true {
            let to = min(end, from + span)
            let found = occurrences(calendar, from: from, to: to, zone: zone)
            if found.occurrences.count >= n || to == end {
                return (Array(found.occurrences.prefix(n)), found.warnings)
            }
            span *= 8
        }
    }
}

/// Times as the peers write them.
enum PeerTime {
    /// `2011-10-07 12:00:00`, `2011-10-07`, `2012-01-01T09:00:00`, `…Z`, `20110101T110000Z`,
    /// `20111202`: the wall-clock fields, whether a time was given, whether it is UTC.
    static func parse(_ text: String) -> (fields: CivilDateTime, hasTime: Bool, utc: Bool)? {
        let digits = text.filter(\.isNumber).map { Int(String($0)) ?? 0 }
        func number(_ range: Range<Int>) -> Int { range.reduce(0) { $0 * 10 + digits[$1] } }
        guard digits.count == 8 || digits.count == 14 else { return nil }
        let hasTime = digits.count == 14
        let fields = CivilDateTime(year: number(0..<4), month: number(4..<6), day: number(6..<8),
                                   hour: hasTime ? number(8..<10) : 0, minute: hasTime ? number(10..<12) : 0,
                                   second: hasTime ? number(12..<14) : 0)
        return fields.isValid ? (fields, hasTime, text.hasSuffix("Z")) : nil
    }

    /// `20111007T120000` (with `Z` when `utc`), or `20111007` for a date.
    static func ical(_ t: CivilDateTime, date: Bool = false, utc: Bool = false) -> String {
        let d = t.dateString.filter(\.isNumber)
        if date { return d }
        return d + "T" + String(t.utcString.dropFirst(11).prefix(8)).filter(\.isNumber) + (utc ? "Z" : "")
    }

    /// The wall-clock fields of an occurrence's start in `zone` (a date's own fields).
    static func local(_ o: Occurrence, _ zone: ZoneRules) -> CivilDateTime {
        if case .date(let d) = o.start { return d }
        return zone.localFields(ofUTC: o.startInstant)
    }

    /// `2011-10-07 12:00:00`.
    static func sabre(_ t: CivilDateTime) -> String {
        t.dateString + " " + String(t.utcString.dropFirst(11).prefix(8))
    }
}
