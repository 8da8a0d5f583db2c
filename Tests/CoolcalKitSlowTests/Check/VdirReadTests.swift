import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalCalendars
@testable import CoolcalState
@testable import CoolcalCheck
@testable import CoolcalTestSupport
@testable import CoolcalScanTests

/// A vdir is read on every core, through the pre-filter, with the kept shells of its
/// files parsed once (`ParseCache`): the answer must be that of the plain reference —
/// every file parsed whole by libical, one after another, in name order — the same
/// occurrences, no warning the reference lacks, and the same first error.
@Suite struct VdirReadTests {
    static let shell = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
    static let newYork = """
        BEGIN:VTIMEZONE\r\nTZID:America/New_York\r\nBEGIN:DAYLIGHT\r\nTZOFFSETFROM:-0500\r\nTZOFFSETTO:-0400\r\n\
        DTSTART:19700308T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU\r\nEND:DAYLIGHT\r\nBEGIN:STANDARD\r\n\
        TZOFFSETFROM:-0400\r\nTZOFFSETTO:-0500\r\nDTSTART:19701101T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU\r\n\
        END:STANDARD\r\nEND:VTIMEZONE\r\n
        """
    /// A zone libical must not expand (60 transitions an hour): the reading warns about it.
    static let dense = """
        BEGIN:VTIMEZONE\r\nTZID:Dense\r\nBEGIN:STANDARD\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0100\r\n\
        DTSTART:19700101T000000\r\nRRULE:FREQ=YEARLY;BYMINUTE=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\r\n\
        END:STANDARD\r\nEND:VTIMEZONE\r\n
        """

    /// A vdir of `PreFilterTests`' awkward events, a few per file, most files in the
    /// shells of a vdirsyncer export (New York's zone, or none), some with a zone the
    /// reading warns about, some with a master and its overrides split over files.
    static func vdir(seed: UInt64, files: Int, broken: [Int: String] = [:]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-vdir-\(seed)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let text = PreFilterTests.calendar(seed: seed, count: files * 2, thisAndFuture: false)
        let events = text.components(separatedBy: "BEGIN:VEVENT\r\n").dropFirst().map {
            "BEGIN:VEVENT\r\n" + $0.components(separatedBy: "END:VCALENDAR")[0]
        }
        var rng = PreFilterTests.Seeded(state: seed)
        var at = 0
        for i in 0..<files {
            let take = Int.random(in: 1...3, using: &rng)
            let body = events[min(at, events.count)..<min(at + take, events.count)].joined()
            at += take
            let zone = [Self.newYork, "", Self.newYork, Self.dense][Int.random(in: 0..<4, using: &rng)]
            let file = broken[i] ?? (Self.shell + zone + body + "END:VCALENDAR\r\n")
            try file.write(toFile: dir + "/" + String(format: "%05d.ics", i), atomically: false, encoding: .utf8)
        }
        return dir
    }

    struct Answer: Equatable {
        var occurrences: [String] = []
        var warnings: [String] = []
        var error: String?
    }

    /// The reference: each file parsed whole, in order, then expanded.
    static func reference(_ dir: String, _ window: TimeWindow) throws -> Answer {
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".ics") }.sorted()
        var files: [ICalCalendar] = []
        do {
            for name in names {
                let path = dir + "/" + name
                files.append(try ICalReader.read(ICalReader.wholeFile(path), file: path))
            }
        } catch {
            return Answer(error: "\(error)")
        }
        return expand(files, dir, window)
    }

    static func expand(_ files: [ICalCalendar], _ dir: String, _ window: TimeWindow) -> Answer {
        let diagnostics = Diagnostics()
        let loaded = LoadedCalendar(name: "v", color: nil, files: files)
        let zone = TimeZone(identifier: "Europe/Berlin") ?? .current
        let found = OccurrenceExpander(options: ExpansionOptions(floatingZone: zone), diagnostics: diagnostics)
            .occurrences(in: window, calendars: [loaded])
        return Answer(occurrences: found.map {
            "\($0.uid ?? "-") \($0.recurrenceID?.jsonString ?? "-") \($0.start.jsonString) \($0.end.jsonString) \($0.summary ?? "-") \($0.busy)"
        }, warnings: diagnostics.warnings + files.flatMap(\.warnings))
    }

    /// The path `conflicts` takes: `CalendarReader` on the directory, with `workers` threads.
    static func fast(_ dir: String, _ window: TimeWindow, workers: Int) -> Answer {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".ics") }.sorted()
        var files: [ICalCalendar] = []
        for outcome in CalendarReader.outcomes(names.map { dir + "/" + $0 }, window: window, verbose: false, workers: workers) {
            switch outcome {
            case .read(let file, _): files.append(file)
            case .failed(let error, _): return Answer(error: "\(error)")
            case .skipped: break
            }
        }
        return expand(files, dir, window)
    }

    static func expectContract(_ dir: String, _ window: TimeWindow, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let full = try reference(dir, window)
        for workers in [1, 2, 4] {
            let fast = fast(dir, window, workers: workers)
            #expect(fast.error == full.error, "workers \(workers)", sourceLocation: sourceLocation)
            #expect(fast.occurrences == full.occurrences, "workers \(workers), window \(window)", sourceLocation: sourceLocation)
            let extra = Set(fast.warnings).subtracting(full.warnings)
            #expect(extra.isEmpty, "warnings only the fast read gives: \(extra)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [UInt64(1), 2])
    func parallelReadAgreesWithTheFullParse(seed: UInt64) throws {
        let dir = try Self.vdir(seed: seed, files: 240)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var rng = PreFilterTests.Seeded(state: seed * 31)
        var seen = 0
        for _ in 0..<6 {
            let start = 1_672_531_200 + Int64.random(in: 0..<(700 * 86_400), using: &rng)
            let window = TimeWindow(start: start, end: start + Int64.random(in: 0...(30 * 86_400), using: &rng))
            try Self.expectContract(dir, window)
            seen += try Self.reference(dir, window).occurrences.count
        }
        #expect(seen > 20, "the windows saw real events")
        let warned = try Self.reference(dir, TimeWindow(start: 1_672_531_200, end: 1_672_531_200 + 86_400)).warnings
        #expect(warned.contains { $0.contains("Dense") }, "some files warn about their zone: \(warned.prefix(2))")
    }

    /// Broken files in the middle: the first in file order is the error, however the
    /// threads meet them.
    @Test func firstErrorInFileOrderWins() throws {
        let broken = [
            70: Self.shell + "BEGIN:VEVENT\r\nUID:cut\r\nDTSTART:20230301T100000Z\r\n",
            71: "this is not a calendar\r\n",
            200: "\u{0}binary",
        ]
        let dir = try Self.vdir(seed: 5, files: 240, broken: broken)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let window = TimeWindow(start: 1_672_531_200, end: 1_672_531_200 + 30 * 86_400)
        let full = try Self.reference(dir, window)
        #expect(full.error?.contains("00070.ics") == true, "\(full.error ?? "no error")")
        #expect(full.error?.contains("truncated") == true, "\(full.error ?? "no error")")
        for _ in 0..<5 { try Self.expectContract(dir, window) }
    }

    /// Notes (`-v`) come in file order, whatever thread read the file.
    @Test func notesInFileOrder() throws {
        let dir = try Self.vdir(seed: 9, files: 60)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted().map { dir + "/" + $0 }
        let window = TimeWindow(start: 1_672_531_200, end: 1_672_531_200 + 86_400)
        func notes(_ workers: Int) -> [String] {
            CalendarReader.outcomes(names, window: window, verbose: true, workers: workers).flatMap { outcome -> [String] in
                if case .read(_, let notes) = outcome { return notes }
                return ["?"]
            }
        }
        let one = notes(1)
        #expect(one.count == 60)
        #expect(one.first?.hasPrefix(dir + "/00000.ics: ") == true)
        #expect(notes(2) == one)
    }
}
