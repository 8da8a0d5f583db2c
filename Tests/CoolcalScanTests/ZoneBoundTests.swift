import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalCalendars
@testable import CoolcalScan
@testable import CoolcalZones

/// Times in a named system zone are bounded by that zone's offsets (`ScanZones`),
/// not by a day either way: a daily series far from the window's hours is dropped. Each
/// text gives the full parse's occurrences and warnings, and the scan cut at any line
/// gives the sequential scan's outcome; a VTIMEZONE that defines a system zone's name
/// with other offsets, before or after the events, or one the scan cannot read, turns
/// the bound off (or the filter gives up) rather than change an answer.
@Suite struct ZoneBoundTests {
    static let head = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
    /// A window of two hours, 2024-03-12 14:00–16:00 UTC (10:00–12:00 in New York).
    static let window = TimeWindow(start: 1_710_252_000, end: 1_710_259_200)

    static func zone(_ tzid: String, _ offsets: String..., fold: Bool = false) -> String {
        "BEGIN:VTIMEZONE\r\n" + (fold ? "TZID:America/\r\n New_York\r\n" : "TZID:\(tzid)\r\n")
            + offsets.map { "BEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:\($0)\r\nTZOFFSETTO:\($0)\r\nEND:STANDARD\r\n" }.joined()
            + "END:VTIMEZONE\r\n"
    }

    /// Daily series in New York and Tokyo, one starting at each hour of the day.
    static let series: String = (0..<24).map { h in
        let zone = h % 2 == 0 ? "America/New_York" : "Asia/Tokyo"
        return "BEGIN:VEVENT\r\nUID:d\(h)@t\r\nDTSTAMP:20240101T000000Z\r\nDTSTART;TZID=\(zone):20240101T\(String(format: "%02d", h))0000\r\n"
            + "DTEND;TZID=\(zone):20240101T\(String(format: "%02d", h))4500\r\nRRULE:FREQ=DAILY\r\nSUMMARY:Daily \(h)\r\nEND:VEVENT\r\n"
    }.joined()

    static let ny = zone("America/New_York", "-0500", "-0400")
    /// Each text, and how many of its 24 series the filter keeps: nil, none dropped (the
    /// filter gave up); bounded, two of each zone (New York's 10:00 and 12:00, which its
    /// offset range cannot tell from 11:00; Tokyo's 23:00 and 01:00, which ends the window);
    /// all 12 of a zone bounded by the margin.
    static let texts: [(name: String, text: String, kept: Int?)] = [
        ("the file's zones agree with the system's", head + ny + zone("Asia/Tokyo", "+0900") + series + "END:VCALENDAR\r\n", 4),
        ("no VTIMEZONE", head + series + "END:VCALENDAR\r\n", 4),
        ("New York defined at +0900 first", head + zone("America/New_York", "+0900") + series + "END:VCALENDAR\r\n", 14),
        ("New York defined at +0900 after the events", head + series + zone("America/New_York", "+0900") + "END:VCALENDAR\r\n", nil),
        ("a folded TZID", head + zone("", "-0500", fold: true) + series + "END:VCALENDAR\r\n", 24),
        // (An offset without minutes: the filter gives up on the file, as ever.)
        ("an offset in another form", head + zone("America/New_York", "-05") + series + "END:VCALENDAR\r\n", nil),
        ("a zone never closed", head + series + "BEGIN:VTIMEZONE\r\nTZID:Asia/Tokyo\r\nEND:VCALENDAR\r\n", nil),
    ]

    func occurrences(_ text: String, filtered: Bool) throws -> ([String], [String]) {
        let diagnostics = Diagnostics()
        let calendar: ICalCalendar
        do {
            calendar = try ICalReader.read(Data(text.utf8), file: "z.ics", window: filtered ? Self.window : nil)
        } catch {
            return (["refused: \(error)"], [])
        }
        let found = OccurrenceExpander(options: ExpansionOptions(floatingZone: try #require(TimeZone(identifier: "Europe/Berlin"))),
                                       diagnostics: diagnostics)
            .occurrences(in: Self.window, calendars: [LoadedCalendar(name: "z.ics", color: nil, files: [calendar])])
        return (found.map { "\($0.uid ?? "-") \($0.start.jsonString) \($0.end.jsonString)" }, diagnostics.warnings)
    }

    static func keptEvents(_ text: String) -> Int? {
        guard let kept = PreFilterRun.outcome(Data(text.utf8), window: window, cut: nil).kept else { return nil }
        return String(decoding: kept, as: UTF8.self).components(separatedBy: "BEGIN:VEVENT").count - 1
    }

    @Test(arguments: texts.indices)
    func sameOccurrencesAsTheFullParse(_ which: Int) throws {
        let (name, text, expected) = Self.texts[which]
        let full = try occurrences(text, filtered: false)
        #expect(full == (try occurrences(text, filtered: true)), "\(name)")
        #expect(!full.0.isEmpty, "\(name): the window holds occurrences (or the file is refused)")
        let kept = Self.keptEvents(text)
        #expect(kept == expected, "\(name): kept \(kept.map(String.init) ?? "all")")
    }

    @Test(arguments: texts.indices)
    func everyCutGivesTheSequentialOutcome(_ which: Int) {
        let (name, text, _) = Self.texts[which]
        let data = Data(text.utf8)
        let sequential = PreFilterRun.outcome(data, window: Self.window, cut: nil)
        for cut in [0] + data.indices.filter({ data[$0] == 0x0A }).map({ $0 + 1 }) {
            let split = PreFilterRun.outcome(data, window: Self.window, cut: cut)
            #expect(split.kept == sequential.kept && split.skipped == sequential.skipped && split.shape == sequential.shape,
                    "\(name): cut at \(cut)")
        }
    }

    /// Every offset of the system zone, and the zone's name as `ZoneBook` resolves it.
    @Test func systemRangesHoldEveryOffset() throws {
        #expect(ZoneOffsetRange.of("America/New_York") == -18_000...(-14_400))
        #expect(ZoneOffsetRange.of("Asia/Tokyo") == 32_400...36_000)
        #expect(ZoneOffsetRange.of("/freeassociation.sourceforge.net/Asia/Tokyo") == 32_400...36_000)
        #expect(ZoneOffsetRange.of("Mars/Olympus") == nil)
        let berlin = try #require(ZoneOffsetRange.of("Europe/Berlin"))
        #expect(berlin.contains(3_208) && berlin.contains(10_800), "LMT and 1945's double summer time")
    }
}
