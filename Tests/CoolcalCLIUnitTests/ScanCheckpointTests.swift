import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalMail
@testable import CoolcalICal
@testable import CoolcalSupport
@testable import CoolcalWriting
@testable import CoolcalRSVP
@testable import CoolcalCLI
@testable import CoolcalScanTests

/// The read-back of an edit that inserted events before `END:VCALENDAR` scans from the
/// checkpoint the read left there (`ScanCheckpoint`) and parses only what was inserted:
/// it must refuse exactly what a scan and parse of the whole written file refuses, and
/// find what that finds, less the events the read itself found, whatever was inserted.
@Suite struct ScanCheckpointTests {
    typealias Seeded = PreFilterTests.Seeded

    /// The last line `physical` gives whose content `line(_:is:)` takes for END:VCALENDAR.
    static func forwardLastLine(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { all in
            ContentLines.physical(all).last { ContentLines.line(UnsafeBufferPointer(rebasing: all[$0.content]), is: "END:VCALENDAR") }?
                .full.lowerBound
        }
    }

    @Test func theLastEndLineIsFoundFromTheEndAsFromTheStart() {
        let pieces = ["END:VCALENDAR", "end:VCalendar \t", "\r\n", "\n", "\r", "X", " ", "END:VCALENDARX", "\r\r\n", ""]
        var rng = Seeded(state: 77)
        var found = 0
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 0...9, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "" }.joined()
            let bytes = Array(text.utf8)
            let backward = bytes.withUnsafeBufferPointer { ContentLines.lastLine(in: $0, is: "END:VCALENDAR") }
            #expect(backward == Self.forwardLastLine(bytes), "\(Array(text.utf8))")
            if backward != nil { found += 1 }
        }
        #expect(found > 500, "the random texts had such lines")
    }

    /// What may be inserted: well-formed events in and out of the windows, and every shape
    /// the scanner refuses, gives up on or keeps for libical.
    static func insertion(_ kind: Int, _ nl: String) -> String {
        func event(_ lines: String...) -> String { (["BEGIN:VEVENT"] + lines + ["END:VEVENT"]).joined(separator: nl) + nl }
        switch kind {
        case 0: return event("UID:new-1@x", "DTSTAMP:20240101T000000Z", "DTSTART:20230601T100000Z", "DTEND:20230601T110000Z", "SUMMARY:New")
        case 1: return event("UID:new-2@x", "DTSTART:20310101T100000Z", "SUMMARY:Far away")
        case 2: return event("UID:new-3@x", "DTSTART:20230601T100000Z", "SUMMARY:a\u{0}b")
        case 3: return "BEGIN:VEVENT" + nl + "UID:open@x" + nl
        case 4: return "END:VCALENDAR" + nl + "BEGIN:VCALENDAR" + nl
        case 5: return event("UID:e4@t", "RECURRENCE-ID;RANGE=THISANDFUTURE:20230301T100000Z", "DTSTART:20230601T100000Z")
        case 6: return "BEGIN" + nl + " :VEVENT" + nl + "UID:fold@x" + nl + "END:VEVENT" + nl
        case 7: return event("UID:new-4@x", "DTSTART:20230601T100000Z", "SUMMARY:lone\rCR")
        case 8: return event("UID:e3@t", "SEQUENCE:9", "DTSTART:20240601T100000Z", "SUMMARY:Newer revision")
        case 9: return event("UID:new-5@x", "DTSTART;TZID=Mars/Olympus:20230601T100000", "SUMMARY:Unknown zone")
        case 10: return "END:VEVENT" + nl
        case 11: return event("UID:new-6@x", "RRULE:FREQ=DAILY", "DTSTART:20200101T090000Z", "SUMMARY:Daily")
        default: return "BEGIN:VTIMEZONE" + nl + "TZID:X" + nl + "END:VTIMEZONE" + nl
        }
    }

    struct Outcome: Equatable {
        var error: String?
        var events: [String] = []
        var warnings: [String] = []
    }

    static func readBack(_ temp: String, _ splice: Splice, _ edit: CalendarFileEdit) -> Outcome {
        do {
            let calendar = try WrittenFile.read(temp, as: splice, for: edit)
            return Outcome(events: calendar.events.map { "\($0.uid ?? "-") \($0.start?.fields.secondsAsUTC ?? 0) \($0.summary ?? "-")" },
                           warnings: calendar.warnings)
        } catch let error as WriteError {
            return Outcome(error: error.message)
        } catch {
            return Outcome(error: "\(error)")
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func fromTheCheckpointAsFromTheStart(seed: UInt64) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-checkpoint-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var rng = Seeded(state: seed &* 6151)
        var resumed = 0, refused = 0
        for round in 0..<40 {
            var text = PreFilterTests.calendar(seed: seed &+ UInt64(round), count: 120, thisAndFuture: seed == 3)
            let nl = round % 4 == 3 ? "\n" : "\r\n"
            if nl == "\n" { text = text.replacingOccurrences(of: "\r\n", with: "\n") }
            let data = Data(text.utf8)
            let file = dir + "/cal-\(round).ics"
            try data.write(to: URL(fileURLWithPath: file))
            let windows = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
                let start = 1_672_531_200 + Int64.random(in: 0..<(800 * 86_400), using: &rng)
                return TimeWindow(start: start, end: start + Int64.random(in: 3600...(10 * 86_400), using: &rng))
            }
            let notes = Diagnostics()
            var said: [String] = []
            notes.onNote = { said.append($0) }
            let edit = try CalendarFileEdit(file: file, windows: windows, diagnostics: notes)
            let at = try #require(edit.checkpoint?.offset, "the read kept its scan at END:VCALENDAR")
            #expect(at == CalendarText(bytes: data).insertionPoint())
            let insert = (0..<Int.random(in: 1...3, using: &rng)).map { _ in Self.insertion(Int.random(in: 0...12, using: &rng), nl) }.joined()
            let fromCheckpoint = try #require(Splice(base: data, cuts: [(at..<at, Array(insert.utf8))]))
            // The same bytes, with an empty cut at 0: nothing before the checkpoint is known
            // to be as read, so the whole file is scanned.
            let whole = try #require(Splice(base: data, cuts: [(0..<0, []), (at..<at, Array(insert.utf8))]))
            let temp = dir + "/.cal-\(round).ics.tmp"
            try fromCheckpoint.data.write(to: URL(fileURLWithPath: temp))
            said = []
            let resumedOutcome = Self.readBack(temp, fromCheckpoint, edit)
            let resumedSaid = said
            #expect(said.contains { $0.contains("scanned and parsed from byte \(at)") }, "the checkpoint was used")
            said = []
            let fullOutcome = Self.readBack(temp, whole, edit)
            #expect(!said.contains { $0.contains("parsed from byte") }, "the whole file was scanned")
            // What the read found, as the read-back reports events (no revisions resolved).
            let read = try ICalReader.read(data, file: file, windows: windows, revisions: false).events
                .map { "\($0.uid ?? "-") \($0.start?.fields.secondsAsUTC ?? 0) \($0.summary ?? "-")" }
            let context = "seed \(seed) round \(round): inserted \(insert.debugDescription)"
            #expect(resumedOutcome.error == fullOutcome.error, "\(context)")
            if fullOutcome.error == nil {
                // Where the scan gives up on the written file, both parse it whole.
                let parsedWhole = resumedSaid.contains { $0.contains("full parse of the edited calendar") }
                #expect((parsedWhole ? [] : read) + resumedOutcome.events == fullOutcome.events, "\(context)")
                #expect(Set(resumedOutcome.warnings).isSubset(of: fullOutcome.warnings), "\(context)")
            }
            if resumedOutcome.error == nil { resumed += 1 } else { refused += 1 }
        }
        #expect(resumed > 5 && refused > 5, "both readable and refused edits were compared (\(resumed), \(refused))")
    }

    @Test func anEditBeforeTheCheckpointIsScannedWhole() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-checkpoint-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = PreFilterTests.calendar(seed: 9, count: 40, thisAndFuture: false)
        let data = Data(text.utf8)
        try data.write(to: URL(fileURLWithPath: dir + "/cal.ics"))
        let notes = Diagnostics()
        var said: [String] = []
        notes.onNote = { said.append($0) }
        let edit = try CalendarFileEdit(file: dir + "/cal.ics", windows: [TimeWindow(start: 1_672_531_200, end: 1_675_209_600)], diagnostics: notes)
        // A NUL put into the first event's summary, before the checkpoint: refused, as the
        // whole file's scan refuses it.
        let summary = try #require(text.range(of: "SUMMARY:Event 0"))
        let offset = text.utf8.distance(from: text.startIndex, to: summary.upperBound)
        let splice = try #require(Splice(base: data, cuts: [(offset..<offset, [0])]))
        try splice.data.write(to: URL(fileURLWithPath: dir + "/.cal.ics.tmp"))
        #expect(Self.readBack(dir + "/.cal.ics.tmp", splice, edit).error == "the edited calendar would not parse; not modified")
        #expect(!said.contains { $0.contains("parsed from byte") })
    }
}
