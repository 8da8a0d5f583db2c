import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalSupport
@testable import CoolcalMail
@testable import CoolcalICal
@testable import CoolcalCalendars
@testable import CoolcalRSVP
@testable import CoolcalCLI
@testable import CoolcalScan
@testable import CoolcalScanTests

/// A calendar scanned in two parts on two threads (`ICalPreFilter+Split`) must give what
/// the sequential scan gives — kept bytes, skipped revisions, the shape's error and its
/// message, `finish()` nil or not — wherever it is cut: every line start of small
/// calendars of awkward shapes is tried, in memory and through a file.
@Suite struct SplitScanTests {
    /// What a scan ends with, as `ICalReader` uses it.
    struct Outcome: Equatable, CustomStringConvertible {
        var check: String
        var kept: Data?
        var skipped: [ICalRevision]

        init(_ scanned: ICalPreFilter) {
            var filter = scanned
            do {
                check = "text: \(try (filter.shape ?? InputShape()).check(file: "s.ics"))"
            } catch {
                check = "threw: \(error)"
            }
            kept = filter.finish()
            skipped = filter.skippedRevisions.all
        }

        var description: String {
            "\(check), kept \(kept.map { "\($0.count) bytes" } ?? "nil"), \(skipped.count) skipped"
        }
    }

    static let windows = [TimeWindow(start: 1_704_067_200, end: 1_704_067_200 + 20 * 86_400)] // 2024-01-01…21
    static let head = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
    static let zone = "BEGIN:VTIMEZONE\r\nTZID:Custom\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\n"
        + "TZOFFSETFROM:+0500\r\nTZOFFSETTO:+0500\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"

    static func event(_ uid: String, _ start: String, _ extra: String = "") -> String {
        "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20230101T000000Z\r\nDTSTART:\(start)\r\nDURATION:PT1H\r\n\(extra)END:VEVENT\r\n"
    }

    static func generated(_ seed: UInt64, thisAndFuture: Bool = false) -> String {
        PreFilterTests.calendar(seed: seed, count: 24, thisAndFuture: thisAndFuture)
    }

    /// Each text with the shape that the cuts must get through, by name.
    static let texts: [(String, String)] = {
        let some = (0..<6).map { event("s\($0)", "2023060\($0 + 1)T100000Z") }.joined()
        let inWindow = event("in", "20240105T100000Z", "SUMMARY:in\r\n")
        let end = "END:VCALENDAR\r\n"
        return [
            ("generated, CRLF, folded lines", generated(1)),
            ("generated, LF", generated(2).replacingOccurrences(of: "\r\n", with: "\n")),
            ("RANGE=THISANDFUTURE", generated(3, thisAndFuture: true)),
            ("a BOM, blank lines, a VTIMEZONE", "\u{FEFF}\r\n \r\n" + head + zone + some + zone + inWindow + some + end),
            // The override first, its master (whose instance it moves) after the cuts.
            ("override before its master", head + some
                + event("m", "20240301T100000Z", "RECURRENCE-ID:20240110T100000Z\r\n") + some
                + event("m", "20240103T100000Z", "RRULE:FREQ=WEEKLY;COUNT=4\r\n") + some + end),
            ("a NUL late", head + some + inWindow + some + event("nul", "20230801T100000Z", "X-A:a\u{0}b\r\n") + end),
            ("a NUL early", head + event("nul", "20230801T100000Z", "X-A:a\u{0}b\r\n") + some + some + end),
            ("a too-long line late", head + some + some + event("l", "20230801T100000Z", "X-L:" + String(repeating: "a", count: (1 << 20) + 10) + "\r\n") + end),
            ("two too-long lines", head + event("l", "20230801T100000Z", "X-L:" + String(repeating: "a", count: (1 << 20) + 10) + "\r\n")
                + some + some + event("k", "20230801T100000Z", "X-K:" + String(repeating: "b", count: (1 << 20) + 10) + "\r\n") + end),
            ("deep nesting late", head + some + some + event("d", "20230801T100000Z",
                String(repeating: "BEGIN:X-N\r\n", count: 101) + String(repeating: "END:X-N\r\n", count: 101)) + end),
            ("bad nesting late", head + some + inWindow + some + event("b", "20230801T100000Z", "END:VALARM\r\n") + some + end),
            ("a second VCALENDAR", head + some + end + head + inWindow + some + end),
            ("a second VCALENDAR inside", head + some + head + inWindow + some + end + end),
            ("truncated, no last line end", head + some + inWindow + some + "BEGIN:VEVENT\r\nUID:cut"),
            ("a line without a colon, a fold after a BEGIN", head + some + "X\r\n" + some
                + "BEGIN:VEVENT\r\n X-A:1\r\nUID:f\r\nDTSTART:20230801T100000Z\r\nEND:VEVENT\r\n" + some + end),
            // Continuation lines at the top level, after a line with no colon and after an
            // END: cuts there must see the flags of the line before.
            ("a fold after a nameless line", head + some + "X\r\n Y\r\n" + some + end),
            ("a fold after an END", head + some + event("g", "20230801T100000Z") + " Z:1\r\n" + some + end),
            ("lone CR and TZ lines", head + some + event("cr", "20230801T100000Z", "X-A:a\rb\r\nTZID:Custom\r\n") + some + end),
        ]
    }()

    /// Every offset a line starts at (and the end).
    static func lineStarts(_ data: Data) -> [Int] {
        [0] + data.indices.filter { data[$0] == 0x0A }.map { $0 + 1 }
    }

    static func sequential(_ data: Data, windows: [TimeWindow] = windows) -> Outcome {
        var filter = ICalPreFilter(windows: windows, shape: InputShape())
        data.withUnsafeBytes { filter.feed($0) }
        return Outcome(filter)
    }

    @Test(arguments: texts.indices)
    func everyCutInMemory(_ which: Int) {
        let (name, text) = Self.texts[which]
        let data = Data(text.utf8)
        let expected = Self.sequential(data)
        var splits = 0
        for cut in Self.lineStarts(data) {
            var filter = ICalPreFilter(windows: Self.windows, shape: InputShape())
            let scan = data.withUnsafeBytes { filter.feedAll($0, cut: cut) }
            if case .split = scan { splits += 1 }
            let got = Outcome(filter)
            #expect(got == expected, "\(name): cut at \(cut) (\(scan)): \(got), sequential \(expected)")
        }
        // Most texts have top-level events after their first long line or NUL: cuts
        // there are split, not fallen back.
        #expect(splits > 0 || name.contains("early") || name.contains("two too-long"), "\(name): no cut was split")
    }

    /// Several windows (`merge`'s read) and a window that keeps everything.
    @Test func everyCutForOtherWindows() {
        let data = Data(Self.generated(4).utf8)
        let several = [TimeWindow(start: 1_680_000_000, end: 1_680_300_000), TimeWindow(start: 1_700_000_000, end: 1_700_900_000)]
        for windows in [several, [TimeWindow(start: 0, end: 4_000_000_000)]] {
            let expected = Self.sequential(data, windows: windows)
            for cut in Self.lineStarts(data) {
                var filter = ICalPreFilter(windows: windows, shape: InputShape())
                _ = data.withUnsafeBytes { filter.feedAll($0, cut: cut) }
                #expect(Outcome(filter) == expected, "cut at \(cut)")
            }
        }
    }

    static func file(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "split-\(UUID().uuidString).ics"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Through a file, read by `pread` in pieces far smaller than a line (both parts at once).
    @Test(arguments: [0, 3, 5, 7, 14])
    func everyCutThroughAFile(_ which: Int) throws {
        let (name, text) = Self.texts[which]
        let path = try Self.file(text)
        defer { unlink(path) }
        let data = Data(text.utf8)
        let expected = Self.sequential(data)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 96, alignment: 16)
        defer { buffer.deallocate() }
        for cut in Self.lineStarts(data) {
            let input = try InputFile.open(path, accepting: .regularFiles)
            var filter = ICalPreFilter(windows: Self.windows, shape: InputShape())
            let scan = try filter.feedAll(input, cut: cut, buffer: buffer)
            #expect(Outcome(filter) == expected, "\(name): cut at \(cut) (\(scan))")
        }
    }

    /// The cut is the first exact `BEGIN:VEVENT` line at or after the middle.
    @Test func findsTheCut() throws {
        let text = "x\nBEGIN:VEVENTX\nbegin:vevent\nBEGIN:VEVENT \nBEGIN:VEVENT\r\n"
        let found = Array(text.utf8).withUnsafeBytes { SplitScan.cut(in: $0, windowStart: 100, from: 101) }
        #expect(found == 143)
        for none in ["x\nBEGIN:VEVENT", "x\nBEGIN:VEVENT\r", "BEGIN:VEVENT\r\n"] {
            #expect(Array(none.utf8).withUnsafeBytes { SplitScan.cut(in: $0, windowStart: 0, from: 1) } == nil, "\(none)")
        }
        // Four events of one length after a 17-byte head, 15 bytes of END after: the
        // middle is 16 + 2 events in; the third event starts a byte later.
        let one = Self.event("e", "20230801T100000Z")
        let calendar = "BEGIN:VCALENDAR\r\n" + String(repeating: one, count: 4) + "END:VCALENDAR\r\n"
        let path = try Self.file(calendar)
        defer { unlink(path) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
        defer { buffer.deallocate() }
        var filter = ICalPreFilter(windows: Self.windows, shape: InputShape())
        #expect(try filter.feedAll(InputFile.open(path, accepting: .regularFiles), buffer: buffer, splitFrom: 0)
            == .split(at: 17 + 2 * one.utf8.count))
        var small = ICalPreFilter(windows: Self.windows, shape: InputShape())
        #expect(try small.feedAll(InputFile.open(path, accepting: .regularFiles), buffer: buffer, splitFrom: 1 << 20) == .sequential)
        var inMemory = ICalPreFilter(windows: Self.windows, shape: InputShape())
        #expect(Data(calendar.utf8).withUnsafeBytes { inMemory.feedAll($0, splitFrom: 0) } == .split(at: 17 + 2 * one.utf8.count))
    }

    /// A cut inside an event, or inside a VTIMEZONE, falls back to the sequential scan.
    @Test func fallsBackWhereTheStateDiffers() {
        let text = Self.head + Self.zone + Self.event("a", "20230801T100000Z") + "END:VCALENDAR\r\n"
        let data = Data(text.utf8)
        let inZone = Self.head.utf8.count + "BEGIN:VTIMEZONE\r\n".utf8.count
        let inEvent = Self.head.utf8.count + Self.zone.utf8.count + "BEGIN:VEVENT\r\n".utf8.count
        let atEvent = Self.head.utf8.count + Self.zone.utf8.count
        for (cut, expected) in [(inZone, SplitScan.fellBack(at: inZone)), (inEvent, .fellBack(at: inEvent)), (atEvent, .split(at: atEvent))] {
            var filter = ICalPreFilter(windows: Self.windows, shape: InputShape())
            #expect(data.withUnsafeBytes { filter.feedAll($0, cut: cut) } == expected)
        }
    }

    /// Through `ICalReader`: the same occurrences, and `-v` says how the file was scanned.
    @Test func readerSplitsAndSaysSo() throws {
        let text = Self.generated(5)
        let path = try Self.file(text)
        defer { unlink(path) }
        let window = TimeWindow(start: 1_680_000_000, end: 1_690_000_000)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 16)
        defer { buffer.deallocate() }
        func read(splitFrom: Int) throws -> ([String], [String]) {
            var notes: [String] = []
            let diagnostics = Diagnostics()
            diagnostics.onNote = { notes.append($0) }
            let calendar = try ICalReader.read(contentsOf: path, window: window, diagnostics: diagnostics, buffer: buffer,
                                               shells: nil, splitFrom: splitFrom)
            let zone = try #require(TimeZone(identifier: "Europe/Berlin"))
            let found = OccurrenceExpander(options: ExpansionOptions(floatingZone: zone), diagnostics: Diagnostics())
                .occurrences(in: window, calendars: [LoadedCalendar(name: "g", color: nil, files: [calendar])])
                .map { "\($0.uid ?? "-") \($0.start.jsonString) \($0.end.jsonString) \($0.summary ?? "-")" }
            return (found, notes)
        }
        let one = try read(splitFrom: .max)
        let two = try read(splitFrom: 0)
        #expect(one.0.count > 3)
        #expect(two.0 == one.0)
        #expect(!one.1.contains { $0.contains("two parts") })
        #expect(two.1.contains { $0.hasPrefix("\(path): scanned in two parts on two threads (cut at byte ") })
    }
}
