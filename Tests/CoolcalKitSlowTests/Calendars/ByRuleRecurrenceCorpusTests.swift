import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalCalendars
@testable import CoolcalTestSupport

/// The RRULEs real calendars' events and peer test suites write (`../shared/corpora`: mail-real's
/// invitations, peer-vobject's recorded cases), read in place: how many of the distinct
/// ones the civil walks take, and for each one `ByRuleRecurrence` takes, its starts
/// against libical's from awkward starts (with skips) and whole expansions with the
/// civil walks on and off.
@Suite struct ByRuleRecurrenceCorpusTests {
    static let root: URL? = {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/corpora")
        return FileManager.default.fileExists(atPath: dir.path) ? dir : nil
    }()

    /// The RRULE values of the VEVENTs in a text (not a VTIMEZONE's): quoted-printable
    /// undone, lines unfolded.
    static func rules(inText raw: String) -> [String] {
        let text = raw.replacingOccurrences(of: "=\r\n", with: "").replacingOccurrences(of: "=\n", with: "")
            .replacingOccurrences(of: "=0D=0A", with: "\n").replacingOccurrences(of: "=3D", with: "=")
            .replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\n ", with: "")
            .replacingOccurrences(of: "\r\n\t", with: "")
        var inEvent = false, found: [String] = []
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            if line.hasPrefix("BEGIN:VEVENT") { inEvent = true }
            if line.hasPrefix("END:VEVENT") { inEvent = false }
            guard inEvent, line.hasPrefix("RRULE:") || line.hasPrefix("RRULE;") , let at = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: at)...].trimmingCharacters(in: .whitespaces)
            if !value.isEmpty { found.append(value) }
        }
        return found
    }

    /// Every string in a JSON value: a `rule` field is a rule; others may hold calendars.
    static func rules(inJSON value: Any, key: String? = nil) -> [String] {
        switch value {
        case let s as String: return key == "rule" ? [s] : rules(inText: s)
        case let a as [Any]: return a.flatMap { rules(inJSON: $0) }
        case let d as [String: Any]: return d.flatMap { rules(inJSON: $0.value, key: $0.key) }
        default: return []
        }
    }

    /// The distinct RRULE values of the corpora, or nil (with a notice) when they are absent.
    static func corpusRules() throws -> [String]? {
        guard let root else {
            print("by-rule corpus: ../shared/corpora is absent; skipped")
            return nil
        }
        var found = Set<String>()
        let files = FileManager.default
        for name in try files.contentsOfDirectory(atPath: root.appendingPathComponent("mail-real").path) where name.hasSuffix(".eml") {
            let data = try Data(contentsOf: root.appendingPathComponent("mail-real/" + name))
            found.formUnion(rules(inText: String(decoding: data, as: UTF8.self)))
        }
        let dump = root.appendingPathComponent("peer-vobject/dump")
        for name in try files.contentsOfDirectory(atPath: dump.path) where name.hasSuffix(".jsonl") {
            let text = try String(contentsOf: dump.appendingPathComponent(name), encoding: .utf8)
            for line in text.split(separator: "\n") {
                found.formUnion(rules(inJSON: try JSONSerialization.jsonObject(with: Data(line.utf8))))
            }
        }
        return found.sorted()
    }

    @Test func corpusRulesAreWalkedAsLibicalWalksThem() throws {
        guard let texts = try Self.corpusRules() else { return }
        let usual = CivilDateTime(year: 2024, month: 1, day: 5, hour: 9)
        var plain = 0, byRule = 0, libical = 0, unreadable = 0, compared = 0, expanded = 0
        var r = FastRecurrenceTests.Random(state: 3031)
        var takenRules: [String] = [], leftRules: [String] = [], plainRules: [String] = []
        for text in texts {
            guard let rule = try? ByRuleRecurrenceTests.event(text, usual, isDate: false) else {
                unreadable += 1
                continue
            }
            if CivilRecurrence(rule: rule, start: usual, isDate: false) != nil {
                plain += 1
                plainRules.append(rule.textWithoutUntil)
                continue
            }
            guard ByRuleRecurrence(rule: rule, start: usual, isDate: false) != nil else {
                libical += 1
                leftRules.append(rule.textWithoutUntil)
                continue
            }
            byRule += 1
            takenRules.append(rule.textWithoutUntil)
            // Awkward starts, each with and without a skip.
            for n in 0..<24 {
                let isDate = n % 6 == 5
                let start = n == 0 ? usual : FastRecurrenceTests.start(&r, years: 1900...2199)
                let skip = rule.hasCount || n % 2 == 0 ? nil
                    : CivilDateTime(utcSeconds: start.secondsAsUTC + Int64(r.int(0...3_000)) * 86_400 + Int64(r.int(0...86_399)))
                guard let (a, b) = ByRuleRecurrenceTests.compare(rule, start, isDate: isDate, skip: skip, limit: 200) else { continue }
                #expect(a == b, "\(text) from \(FastRecurrenceTests.stamp(start, date: isDate))")
                compared += 1
            }
            // Whole expansions: the rule as written (UNTIL too), in two zones and windows.
            let body = "BEGIN:VEVENT\r\nUID:c\r\nDTSTAMP:20240101T000000Z\r\nDTSTART;TZID=Europe/Berlin:20210328T023000\r\n"
                + "DURATION:PT1H\r\nRRULE:\(text)\r\nEXDATE;TZID=Europe/Berlin:20220327T023000\r\nEND:VEVENT\r\n"
            let calendar = try FastRecurrenceTests.read(body)
            for (zone, from) in [("America/New_York", "2023-01-01T00:00:00Z"), ("Europe/Berlin", "2021-03-01T00:00:00Z")] {
                let start = try utc(from)
                let window = TimeWindow(start: start, end: start + 400 * 86_400)
                let tz = try #require(TimeZone(identifier: zone))
                let fast = FastRecurrenceTests.expansion(calendar, window, zone: tz, civil: true, maxSteps: 400_000, queryBudget: 1_000_000)
                let slow = FastRecurrenceTests.expansion(calendar, window, zone: tz, civil: false, maxSteps: 400_000, queryBudget: 1_000_000)
                #expect(fast.occurrences == slow.occurrences, "\(text) in \(zone)")
                #expect(fast.warnings == slow.warnings, "\(text) in \(zone)")
                expanded += 1
            }
        }
        print("by-rule corpus: \(texts.count) distinct RRULEs: \(plain) simple (CivilRecurrence), \(byRule) walked by ByRuleRecurrence, "
              + "\(libical) left to libical, \(unreadable) unreadable; \(compared) iterator comparisons, \(expanded) expansions")
        print("by-rule corpus: without UNTIL, as libical writes them, \(Set(plainRules).count) simple, \(Set(takenRules).count) walked by "
              + "ByRuleRecurrence, \(Set(leftRules).count) left to libical (from 2024-01-05T09:00)")
        print("by-rule corpus, left to libical (as libical writes them): " + Set(leftRules).sorted().joined(separator: " | "))
        #expect(byRule > 20, "the corpora hold BY-rules the walker takes")
        #expect(compared > 20 * byRule, "most starts were compared")
        #expect(!takenRules.contains { $0.contains("BYHOUR") || $0.contains("BYYEARDAY") })
    }
}
