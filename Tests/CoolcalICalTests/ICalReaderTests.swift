import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal

@Suite struct ICalReaderTests {
    func error(_ text: String) -> String? {
        do {
            _ = try ICalReader.read(Data(text.utf8), file: "x.ics")
            return nil
        } catch let e as ICalError {
            return e.message
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        ("hello world\n", "not an iCalendar file (line 1 is not BEGIN:VCALENDAR)"),
        ("{\"title\": 1}", "not an iCalendar file (line 1 is not BEGIN:VCALENDAR)"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nDTSTART:20240101T000000Z\nEND:VEVENT\nBEGIN:VEVENT\nUID:b\n",
         "not a readable iCalendar file: truncated (BEGIN:VCALENDAR has no END:VCALENDAR)"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nEND:VEVENT\n",
         "not a readable iCalendar file: truncated (BEGIN:VCALENDAR has no END:VCALENDAR)"),
        ("BEGIN:VTODO\nUID:a\nEND:VTODO\n", "not an iCalendar file (no VCALENDAR)"),
    ])
    func unreadableCalendarsAreErrors(_ text: String, _ message: String) {
        #expect(error(text) == message)
    }

    @Test(arguments: [
        // END:X closes up to BEGIN:X: the first component left open inside is named.
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nEND:VCALENDAR\n",
         "not a readable iCalendar file: BEGIN:VEVENT has no END:VEVENT before END:VCALENDAR"),
        ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nBEGIN:VALARM\r\nEND:VEVENT\r\nBEGIN:VTODO\r\nEND:VCALENDAR\r\n",
         "not a readable iCalendar file: BEGIN:VALARM has no END:VALARM before END:VEVENT"),
        // An END without its BEGIN closes nothing.
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nEND:VTODO\nEND:VCALENDAR\n",
         "not a readable iCalendar file: BEGIN:VEVENT has no END:VEVENT before END:VCALENDAR"),
        // Cut off: the outermost open component, whatever was left open before.
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nBEGIN:VALARM\nEND:VEVENT\nBEGIN:VEVENT\n",
         "not a readable iCalendar file: truncated (BEGIN:VCALENDAR has no END:VCALENDAR)"),
        ("BEGIN:VCALENDAR\nEND:VCALENDAR\nBEGIN:VCALENDAR\nBEGIN:VEVENT\n",
         "not a readable iCalendar file: truncated (BEGIN:VCALENDAR has no END:VCALENDAR)"),
        ("garbage\n", "not a readable iCalendar file (libical could not parse it)"),
    ])
    func unreadableReasonNamesTheUnclosedComponent(_ text: String, _ message: String) {
        #expect(ICalReader.unreadableReason(Data(text.utf8)) == message)
    }

    /// A calendar whose `depth` nested X- components put one `BEGIN:` line across
    /// the 4 MiB boundary where the streaming reader cuts the file.
    func deepFile(depth: Int) throws -> String {
        let lead = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
        var text = lead
        let filler = "X-FILL:" + String(repeating: "y", count: 1000) + "\r\n"
        let target = (1 << 22) - 3
        while text.utf8.count + 2 * filler.utf8.count < target { text += filler }
        text += "X-PAD:" + String(repeating: "z", count: target - text.utf8.count - 8) + "\r\n"
        // Bytes 0..<(4 MiB - 3) are full; the next line "BEGIN:X-N" is cut after "BEG".
        precondition(text.utf8.count == target)
        let nested = String(repeating: "BEGIN:X-N\r\n", count: depth - 1) + String(repeating: "END:X-N\r\n", count: depth - 1)
        text += nested + "END:VCALENDAR\r\n"
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("deep-\(UUID().uuidString).ics")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test func nestingDeeperThan100IsRefusedAlsoAcrossPieces() throws {
        let window = TimeWindow(start: 1_660_000_000, end: 1_660_100_000)
        let ok = try deepFile(depth: 100)
        defer { try? FileManager.default.removeItem(atPath: ok) }
        #expect(throws: Never.self) { try ICalReader.read(contentsOf: ok, window: window) }
        let deep = try deepFile(depth: 101)
        defer { try? FileManager.default.removeItem(atPath: deep) }
        #expect {
            try ICalReader.read(contentsOf: deep, window: window)
        } throws: { error in
            (error as? ICalError)?.message.hasSuffix("components are nested more than 100 deep") == true
        }
        #expect(error("BEGIN:VCALENDAR\r\n" + String(repeating: "begin:x-a\n", count: 100) + "END:VCALENDAR\r\n")
                == "line 101: components are nested more than 100 deep", "lower case and LF count too")
    }

    @Test func unreadableReasonStaysLinearOnBadNesting() {
        // 100,000 open components and 100,000 ENDs that close none of them.
        let text = "BEGIN:VCALENDAR\n" + String(repeating: "BEGIN:X-A\n", count: 100_000)
            + String(repeating: "END:X-B\n", count: 100_000)
        // CPU time of this thread (the call is synchronous): other tests running meanwhile do not count.
        func threadCPU() -> Double {
            var now = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
            return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        }
        let start = threadCPU()
        #expect(ICalReader.unreadableReason(Data(text.utf8))
                == "not a readable iCalendar file: truncated (BEGIN:VCALENDAR has no END:VCALENDAR)")
        #expect(threadCPU() - start < 10)
    }

    /// A calendar with one VTIMEZONE `Test/Odd` (observance lines as given) and an event at 12:00 in it.
    func zoned(_ observance: String) -> String {
        "BEGIN:VCALENDAR\r\nBEGIN:VTIMEZONE\r\nTZID:Test/Odd\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\n"
            + observance + "END:STANDARD\r\nEND:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:z\r\n"
            + "DTSTART;TZID=Test/Odd:20220820T120000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    @Test(arguments: [
        "TZOFFSETFROM:one\r\nTZOFFSETTO:two\r\n",
        "TZOFFSETFROM:+0100\r\nTZOFFSETTO:+01\r\n",
        "TZOFFSETFROM:+0100\r\nTZOFFSETTO:+0100x\r\n",
        "TZOFFSETFROM:+0100\r\nTZOFFSETTO:0100\r\n",
        "TZOFFSETFROM:+0100\r\nTZOFFSETTO:+0160\r\n",
        "tzoffsetfrom:+0100\r\ntzoffsetto:+01\r\n 3\r\n",
    ])
    func offsetsThatAreNotOffsetsRejectTheZone(_ observance: String) throws {
        let text = zoned(observance)
        #expect(ZoneChecks.zonesWithMalformedOffsets(in: Data(text.utf8)) == ["Test/Odd"])
        let calendar = try ICalReader.read(Data(text.utf8), file: "z.ics")
        #expect(calendar.zones.zone(for: "Test/Odd") == nil)
    }

    @Test(arguments: [
        "TZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n",
        "TZOFFSETFROM:-0000\r\nTZOFFSETTO:+053045\r\n",
        "TZOFFSETFROM;X-A=\"a:b\":+0100\r\nTZOFFSETTO: +01\r\n 00\r\n",
    ])
    func wellFormedOffsetsKeepTheZone(_ observance: String) throws {
        let text = zoned(observance)
        #expect(ZoneChecks.zonesWithMalformedOffsets(in: Data(text.utf8)).isEmpty)
        let calendar = try ICalReader.read(Data(text.utf8), file: "z.ics")
        #expect(calendar.zones.zone(for: "Test/Odd") != nil)
    }

    @Test func offsetsAreFoundInCROnlyFiles() throws {
        let text = zoned("TZOFFSETFROM:+0100\r\nTZOFFSETTO:garbage\r\n").replacingOccurrences(of: "\r\n", with: "\r")
        #expect(ZoneChecks.zonesWithMalformedOffsets(in: Data(text.utf8)) == ["Test/Odd"])
        let calendar = try ICalReader.read(Data(text.utf8), file: "z.ics")
        #expect(calendar.events.count == 1)
        #expect(calendar.zones.zone(for: "Test/Odd") == nil)
    }

    @Test func malformedZoneIsMatchedByItsTZIDAsLibicalReadsIt() {
        let text = zoned("TZOFFSETFROM:x\r\nTZOFFSETTO:y\r\n").replacingOccurrences(of: "TZID:Test/Odd\r\n", with: "TZID:A\\,\r\n B\r\n")
        #expect(ZoneChecks.zonesWithMalformedOffsets(in: Data(text.utf8)) == ["A,B"])
    }

    @Test func binaryAndUTF16() {
        let utf16 = Data("BEGIN:VCALENDAR\r\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        #expect(throws: ICalError(file: "u.ics", message: "not an iCalendar file (it contains NUL bytes: binary or UTF-16?)")) {
            try ICalReader.read(utf16, file: "u.ics")
        }
    }

    @Test func emptyFileIsAnEmptyCalendar() throws {
        #expect(try ICalReader.read(Data(), file: "e.ics").events.isEmpty)
        #expect(try ICalReader.read(Data("\r\n \n".utf8), file: "e.ics").events.isEmpty)
    }

    @Test func severalCalendarsInOneFileAndProperties() throws {
        let text = """
        BEGIN:VCALENDAR
        X-WR-CALNAME:Work
        X-APPLE-CALENDAR-COLOR:#1E90FF
        BEGIN:VEVENT
        UID:a
        SUMMARY:Caf\u{e9} \\, ok
        DTSTART:20240101T100000Z
        END:VEVENT
        END:VCALENDAR
        BEGIN:VCALENDAR
        BEGIN:VEVENT
        UID:b
        DTSTART;VALUE=DATE:20240102
        STATUS:cancelled
        TRANSP:TRANSPARENT
        END:VEVENT
        END:VCALENDAR

        """
        let calendar = try ICalReader.read(Data(text.utf8), file: "m.ics")
        #expect(calendar.name == "Work")
        #expect(calendar.color == "#1E90FF")
        #expect(calendar.events.map { $0.uid ?? "" } == ["a", "b"])
        #expect(calendar.events[0].summary == "Café , ok")
        #expect(calendar.events[1].status == "CANCELLED")
        #expect(calendar.events[1].transparent)
        #expect(calendar.events[1].start?.isDate == true)
    }

    @Test func badValuesBecomeProblemsNotCrashes() throws {
        let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nDTSTART:notadate\nRRULE:FREQ=SOMETIMES\nEND:VEVENT\nEND:VCALENDAR\n"
        let calendar = try ICalReader.read(Data(text.utf8), file: "b.ics")
        #expect(calendar.events.count == 1)
        #expect(calendar.events[0].start == nil)
        #expect(!calendar.events[0].problems.isEmpty)
    }
}
