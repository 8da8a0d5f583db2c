import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalCalendars
@testable import CoolcalScan

/// A file read `standalone` (a calendar on its own): the scan keeps a few bytes per
/// dropped event (`SeenEvents`) and reads an event again only when its UID's hash is one
/// a parsed event has (`RevisionsByPlace`). What it keeps must be
/// exactly what the arena of UIDs gives for those UIDs, in memory, through a file, and
/// in two parts.
@Suite struct RevisionsByPlaceTests {
    static let window = TimeWindow(start: 1_704_067_200, end: 1_704_067_200 + 20 * 86_400) // 2024-01-01…21
    static let head = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"

    /// Revisions of a few UIDs, in the window or not: case variants (equal hashes), a
    /// folded UID line, non-ASCII UIDs (canonically equal in two forms), an alarm inside,
    /// SEQUENCE, DTSTAMP and LAST-MODIFIED present or not.
    static func calendar(seed: UInt64, count: Int) -> String {
        var rng = PreFilterTests.Seeded(state: seed)
        let uids = ["a@t", "A@T", "b@t", "c-\u{E9}@t", "c-e\u{301}@t", "\u{212A}@t", "K@t", "folded@t", "d@t"]
        var out = head
        for i in 0..<count {
            let uid = uids[Int.random(in: 0..<uids.count, using: &rng)]
            let inWindow = Int.random(in: 0..<4, using: &rng) == 0
            var lines = ["BEGIN:VEVENT", uid == "folded@t" ? "UID:fol\r\n ded@t" : "UID:\(uid)", "SUMMARY:E\(i)",
                         "DTSTART:2024\(inWindow ? "0105" : "0305")T1\(i % 10)0000Z", "DURATION:PT1H"]
            if Bool.random(using: &rng) { lines.append("SEQUENCE:\(Int.random(in: 0...3, using: &rng))") }
            if Bool.random(using: &rng) { lines.append("DTSTAMP:2023010\(Int.random(in: 1...3, using: &rng))T000000Z") }
            if Int.random(in: 0..<3, using: &rng) == 0 { lines.append("LAST-MODIFIED:20230105T000000Z") }
            if Int.random(in: 0..<5, using: &rng) == 0 { lines.append("BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT5M\r\nEND:VALARM") }
            lines.append("END:VEVENT")
            out += lines.joined(separator: "\r\n") + "\r\n"
        }
        return out + "END:VCALENDAR\r\n"
    }

    /// Weekly series reaching the window and overrides of them moved out of it (held
    /// until the end: put back when their master's instance may reach the window, else
    /// dropped), masters before or after their overrides, and overrides of no master.
    static func series(seed: UInt64, count: Int) -> String {
        var rng = PreFilterTests.Seeded(state: seed)
        var out = head
        for i in 0..<count {
            let uid = "r\(Int.random(in: 0..<(count / 2 + 1), using: &rng))@t"
            if Int.random(in: 0..<3, using: &rng) == 0 {
                out += "BEGIN:VEVENT\r\nUID:\(uid)\r\nSUMMARY:M\(i)\r\nDTSTART:20231201T100000Z\r\nDURATION:PT1H\r\n"
                    + "RRULE:FREQ=WEEKLY;COUNT=\(Int.random(in: 1...12, using: &rng))\r\nEND:VEVENT\r\n"
            } else {
                let week = Int.random(in: 0..<10, using: &rng)
                let rid = TimeWindow(start: 1_701_424_800 + Int64(week) * 7 * 86_400, end: 0).start // 2023-12-01T10:00Z + weeks
                let day = CivilDateTime(utcSeconds: rid)
                let stamp = String(format: "%04d%02d%02dT100000Z", day.year, day.month, day.day)
                out += "BEGIN:VEVENT\r\nUID:\(uid)\r\nRECURRENCE-ID:\(stamp)\r\nSEQUENCE:\(i % 3)\r\nSUMMARY:O\(i)\r\n"
                    + "DTSTART:20240305T1\(i % 10)0000Z\r\nDURATION:PT1H\r\nEND:VEVENT\r\n"
            }
        }
        return out + "END:VCALENDAR\r\n"
    }

    /// The held overrides kept by place: the same bytes kept, in one part or two.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func overridesHeldByPlaceKeepTheSameBytes(_ seed: UInt64) throws {
        let text = Data(Self.series(seed: seed, count: 80).utf8)
        func reading(_ at: Int, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
            let n = max(0, min(buffer.count, text.count - at))
            if n > 0 { text.copyBytes(to: UnsafeMutableRawBufferPointer(rebasing: buffer[..<n]), from: at..<(at + n)) }
            return n
        }
        func kept(cut: Int?, byPlace: Bool) throws -> (Data?, [String]) {
            var filter = ICalPreFilter(window: Self.window)
            filter.overridesByPlace = byPlace
            let scan = text.withUnsafeBytes { raw in
                if let cut { return filter.feedAll(raw, cut: cut) } else { filter.feed(raw); return .sequential }
            }
            #expect(scan == (cut.map { .split(at: $0) } ?? .sequential))
            let kept = try filter.finish(reading: byPlace ? reading : nil)
            return (kept, Self.sorted(filter.skippedRevisions.all))
        }
        let (expected, dropped) = try kept(cut: nil, byPlace: false)
        let keptText = String(decoding: try #require(expected), as: UTF8.self)
        #expect(keptText.contains("RECURRENCE-ID"))
        #expect(!dropped.isEmpty)
        // Cut at event starts (where the second part's assumed state holds).
        let events = String(decoding: text, as: UTF8.self).components(separatedBy: "BEGIN:VEVENT")
        var at = events[0].utf8.count
        var cuts: [Int?] = [nil]
        for (k, piece) in events.dropFirst().enumerated() {
            if k == events.count / 3 || k == events.count / 2 { cuts.append(at) }
            at += "BEGIN:VEVENT".utf8.count + piece.utf8.count
        }
        for cut in cuts {
            let (bytes, revisions) = try kept(cut: cut, byPlace: true)
            #expect(bytes == expected, "cut \(cut ?? -1)")
            #expect(revisions == dropped, "cut \(cut ?? -1)")
        }
        // Read from a text that no longer holds them: parsed whole (nil), never other bytes.
        var filter = ICalPreFilter(window: Self.window)
        filter.overridesByPlace = true
        text.withUnsafeBytes { filter.feed($0) }
        #expect(try filter.finish(reading: { _, _ in 0 }) == nil)
    }

    /// The revisions as a sorted list, for comparing as multisets.
    static func sorted(_ revisions: [ICalRevision]) -> [String] {
        revisions.map { "\($0.uid) \($0.sequence) \($0.stamp ?? -1) \($0.lastModified ?? -1)" }.sorted()
    }

    static func summaries(_ calendar: ICalCalendar) -> [String] {
        Revisions.current([calendar]).flatMap { $0.events.compactMap(\.summary) }.sorted()
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func standaloneKeepsWhatTheArenaGivesForTheParsedUIDs(_ seed: UInt64) throws {
        let text = Self.calendar(seed: seed, count: 100)
        let data = Data(text.utf8)
        let all = try ICalReader.read(data, file: "t.ics", window: Self.window)
        let parsed = Set(all.events.compactMap(\.uid))
        let expected = Self.sorted(all.skippedRevisions.revisions(of: .init(parsed)))
        #expect(!expected.isEmpty)
        let alone = try ICalReader.read(data, file: "t.ics", window: Self.window, standalone: true)
        #expect(Self.sorted(alone.skippedRevisions.all) == expected)
        #expect(Self.summaries(alone) == Self.summaries(all))
        // Through a file, in pieces far smaller than an event, in one part and in two.
        let path = NSTemporaryDirectory() + "by-place-\(UUID().uuidString).ics"
        try data.write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 96, alignment: 16)
        defer { buffer.deallocate() }
        for splitFrom in [Int.max, 0] {
            let read = try ICalReader.read(contentsOf: path, window: Self.window, diagnostics: nil, buffer: buffer, shells: nil,
                                           splitFrom: splitFrom, standalone: true)
            #expect(Self.sorted(read.skippedRevisions.all) == expected, "splitFrom \(splitFrom)")
            #expect(Self.summaries(read) == Self.summaries(all))
        }
    }

    /// The hash upper-cases, so `ABC@T` is read again for `abc@t`: its bytes decide.
    @Test func anEqualHashReadAgainIsNotAMatch() throws {
        let text = Self.head
            + "BEGIN:VEVENT\r\nUID:abc@t\r\nSEQUENCE:0\r\nDTSTART:20240105T100000Z\r\nSUMMARY:lower\r\nEND:VEVENT\r\n"
            + "BEGIN:VEVENT\r\nUID:ABC@T\r\nSEQUENCE:7\r\nDTSTART:20240305T100000Z\r\nSUMMARY:upper\r\nEND:VEVENT\r\n"
            + "END:VCALENDAR\r\n"
        let alone = try ICalReader.read(Data(text.utf8), file: "t.ics", window: Self.window, standalone: true)
        #expect(alone.skippedRevisions.isEmpty)
        #expect(Self.summaries(alone) == ["lower"])
        // The arena's answer, for the same read: nothing either.
        let all = try ICalReader.read(Data(text.utf8), file: "t.ics", window: Self.window)
        #expect(all.skippedRevisions.revisions(of: .init(["abc@t"])).isEmpty)
    }

    /// A text that no longer holds, where the scan recorded a dropped event, an event
    /// with that UID gives nothing (a file changed between the scan and the reading again).
    @Test func aChangedTextGivesNothing() throws {
        let before = Self.head + "BEGIN:VEVENT\r\nUID:x@t\r\nSEQUENCE:3\r\nDTSTART:20240305T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        var filter = ICalPreFilter(window: Self.window)
        filter.revisionsByPlace = true
        Data(before.utf8).withUnsafeBytes { filter.feed($0) }
        #expect(filter.finish() != nil)
        func reading(_ text: String) -> (Int, UnsafeMutableRawBufferPointer) throws -> Int {
            let bytes = Array(text.utf8)
            return { at, buffer in
                let n = max(0, min(buffer.count, bytes.count - at))
                for i in 0..<n { buffer[i] = bytes[at + i] }
                return n
            }
        }
        #expect(try RevisionsByPlace.revisions(of: .init(["x@t"]), in: filter, reading: reading(before)).all.map(\.sequence) == [3])
        for other in ["y@t", "X@T"] {
            let after = before.replacingOccurrences(of: "x@t", with: other)
            #expect(try RevisionsByPlace.revisions(of: .init(["x@t"]), in: filter, reading: reading(after)).isEmpty, "\(other)")
        }
    }

    /// What the scan holds for dropped events with 44-byte UIDs: the records' few bytes
    /// each (and their chunks), not the UIDs (the arena held 44 + 64 bytes an event, and
    /// the masters list 24 more).
    @Test func aDroppedEventHoldsAFewBytes() {
        let n = 50_000
        var text = Self.head
        text.reserveCapacity(n * 130)
        for i in 0..<n {
            text += "BEGIN:VEVENT\r\nUID:\(100_000 + i)-0123456789abcdef0123456789@example.com\r\n"
                + "DTSTAMP:20231115T093000Z\r\nDTSTART:20240305T100000Z\r\nDURATION:PT1H\r\nEND:VEVENT\r\n"
        }
        text += "END:VCALENDAR\r\n"
        var filter = ICalPreFilter(window: Self.window)
        filter.revisionsByPlace = true
        Data(text.utf8).withUnsafeBytes { filter.feed($0) }
        let seen = filter.overrides.seen
        #expect(seen.count == n)
        let held = filter.skippedRevisions.memoryFootprint + seen.bytesUsed
        #expect(held <= 14 * n, "\(held) bytes for \(n) events")
        // (And the chunks' unwritten ends, not touched: at most a chunk a part.)
        #expect(filter.overrides.memoryFootprint <= seen.bytesUsed + 2 * SeenEvents.chunkSize)
        // At the end of the scan the masters are let go: where the dropped events start is kept.
        #expect(filter.finish() != nil)
        #expect(filter.overrides.seen.count == n)
        #expect(filter.overrides.seen.bytesUsed <= 7 * n)
    }

    /// A split scan's records are joined by taking the second part's chunks, its starts
    /// counted on from the cut.
    @Test func joinedRecordsCountOnFromTheCut() {
        var first = SeenEvents(), second = SeenEvents()
        var expected: [SeenEvents.Record] = []
        // Enough for several chunks in each part.
        for i in 0..<(SeenEvents.chunkSize / 4) {
            let master = i % 3 != 0
            let r = SeenEvents.Record(hash: UInt64(i) &* 0x9E37_79B9_7F4A_7C15, isMaster: master,
                                      length: !master || i % 5 == 0 ? nil : Int64(i % 7) * 86_400 - 3600 + (i % 11 == 0 ? 7 : 0),
                                      droppedAt: i % 4 == 0 ? nil : i * 700)
            if i < SeenEvents.chunkSize / 8 {
                first.append(r)
                expected.append(r)
            } else {
                var local = r
                local.droppedAt = r.droppedAt.map { $0 - 1_000_000 }
                second.append(local)
                expected.append(r)
            }
        }
        let chunks = second.bytesHeld
        first.append(second, shift: 1_000_000)
        #expect(first.count == expected.count)
        let all = first.all
        let mismatch = all.indices.first { all[$0] != expected[$0] }
        #expect(mismatch == nil, "record \(mismatch ?? -1)")
        // (The first part's records and the second's chunks, with a rebase record: no copy.)
        #expect(first.bytesHeld <= 2 * SeenEvents.chunkSize + chunks + 64)
        #expect(first.bytesUsed <= 14 * expected.count)
        // After the scan only the dropped events are kept, by the low half of their hash.
        let dropped = expected.filter { $0.droppedAt != nil }
        first.keepOnlyDropped()
        let kept = first.all
        #expect(kept.count == dropped.count && first.count == dropped.count)
        #expect(zip(kept, dropped).allSatisfy { $0.droppedAt == $1.droppedAt && $0.hash == $1.hash & 0xFFFF_FFFF })
        #expect(first.bytesUsed <= 7 * dropped.count)
    }

    /// A scan a checkpoint was taken of keeps its records as they are at its end: the
    /// checkpoint holds them too, and converting them would hold both. Revisions by place
    /// are read from them as from the converted ones.
    @Test func aScanWithACheckpointKeepsItsRecordsAsTheyAre() throws {
        let data = Data(Self.calendar(seed: 3, count: 100).utf8)
        let bytes = [UInt8](data)
        let offset = try #require(bytes.withUnsafeBytes { ScanCheckpoint.offset(in: $0) })
        var filter = ICalPreFilter(window: Self.window), plain = ICalPreFilter(window: Self.window)
        (filter.revisionsByPlace, plain.revisionsByPlace) = (true, true)
        bytes.withUnsafeBytes { raw in
            filter.feed(UnsafeRawBufferPointer(rebasing: raw[..<offset]))
            plain.feed(raw)
        }
        let checkpoint = ScanCheckpoint(offset: offset, of: &filter)
        bytes.withUnsafeBytes { filter.feed(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
        #expect(filter.finish() == plain.finish())
        let records = filter.overrides.seen.all
        #expect(records.count > 50 && records.contains { $0.isMaster })
        #expect(records == checkpoint.filter.overrides.seen.all)
        // The scan without one lets its masters go.
        #expect(!plain.overrides.seen.all.contains { $0.isMaster })
        func reading(_ at: Int, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
            let n = max(0, min(buffer.count, bytes.count - at))
            for i in 0..<n { buffer[i] = bytes[at + i] }
            return n
        }
        let uids = ICalSkippedRevisions.UIDs(Set(try ICalReader.read(data, file: "t.ics", window: Self.window).events.compactMap(\.uid)))
        let found = Self.sorted(try RevisionsByPlace.revisions(of: uids, in: filter, reading: reading).all)
        #expect(!found.isEmpty)
        #expect(found == Self.sorted(try RevisionsByPlace.revisions(of: uids, in: plain, reading: reading).all))
    }
}
