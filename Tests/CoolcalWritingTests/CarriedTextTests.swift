import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalWriting

/// Issue #48: a run of changes to one calendar file looks for blocks in the whole file a
/// fixed number of times, not once or twice per change; what a text knew of its blocks is
/// carried into the text a splice of it makes, and is what a fresh pass would find.
@Suite struct CarriedTextTests {
    static let head = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
    static let zone = "BEGIN:VTIMEZONE\r\nTZID:Europe/Paris\r\nBEGIN:STANDARD\r\nDTSTART:19701025T030000\r\nTZOFFSETFROM:+0200\r\n"
        + "TZOFFSETTO:+0100\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"

    static func event(_ n: Int, uid: String? = nil) -> String {
        "BEGIN:VEVENT\r\nUID:\(uid ?? "e\(n)@t")\r\nDTSTAMP:20240101T000000Z\r\nDTSTART:20240101T100000Z\r\n"
            + "SUMMARY:Event \(n) of a long calendar\r\nEND:VEVENT\r\n"
    }

    /// A new event's REQUEST, as `merge` gets it by mail.
    static func request(_ i: Int) throws -> ITIPChange {
        let uid = "new-\(i)@example.org"
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//org//EN\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\n"
            + "DTSTAMP:20240101T000000Z\r\nDTSTART:2024020\(1 + i % 9)T100000Z\r\nDTEND:2024020\(1 + i % 9)T110000Z\r\n"
            + "SUMMARY:New \(i)\r\nORGANIZER:mailto:o@example.org\r\nATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:me@example.com\r\n"
            + "END:VEVENT\r\nEND:VCALENDAR\r\n"
        let data = Data(text.utf8)
        let message = try ITIPMessage(data, uid: uid, zones: try ICalReader.read(data, file: "m.ics").zones, file: "m.ics")
        var change = ITIPChange(message: message, cancel: false, me: ["me@example.com"])
        change.partstat = "ACCEPTED"
        return change
    }

    /// Eight new invitations taken into a file of a MiB as `merge` takes them (each
    /// previewed, asked whether stored, applied): the whole file is looked through for
    /// blocks twice (its VEVENTs and VTIMEZONEs, once), not per change — before the
    /// carry, each change after the first read a fresh copy of the text through for its
    /// UID and its zones (14 passes here, measured). The result is what the changes applied one
    /// after another to fresh texts give.
    @Test func changesToALargeFileLookThroughItAFixedNumberOfTimes() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-carry-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = Self.head + Self.zone + (0..<9000).map { Self.event($0) }.joined() + "END:VCALENDAR\r\n"
        #expect(text.utf8.count >= CalendarFileEdit.searchBeside)
        let path = dir + "/cal.ics"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let changes = try (0..<8).map(Self.request)
        let window = TimeWindow(start: 1_706_745_600, end: 1_707_523_200)
        let edit = try CalendarFileEdit(file: path, windows: [window], diagnostics: nil, expecting: changes.map(\.identity))
        for change in changes {
            #expect(try edit.preview(change).0 == .added)
            #expect(!edit.stores(uid: change.uid))
            #expect(try edit.apply(change) == .added)
        }
        #expect(edit.passes <= 2, "whole-file passes for 8 changes: \(edit.passes)")
        // The same changes, each on a fresh text of what the one before left.
        var expected = Data(text.utf8)
        for change in changes {
            let calendar = try ICalReader.read(expected, file: "cal.ics", windows: [window])
            expected = try #require(try change.apply(to: CalendarText(bytes: expected), calendar: calendar, file: "cal.ics").0)
        }
        #expect(try edit.placedEdit()?.data == expected)
        try edit.commit()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == expected)
    }

    /// After each kind of splice — a block put in before `END:VCALENDAR`, one replaced, one
    /// removed, two blocks and a zone at once, an edit inside a block (not carried: found
    /// anew) — the carried text answers as a fresh one: the same VEVENT and VTIMEZONE
    /// blocks, the same candidate blocks for every UID it was asked about.
    @Test func aCarriedTextAnswersAsAFreshOne() throws {
        let bytes = Data((Self.head + Self.zone + (0..<6).map { Self.event($0) }.joined() + "END:VCALENDAR\r\n").utf8)
        let uids = ["e1@t", "e3@t", "e4@t", "new@t", "e5@t"]
        func check(_ splice: (CalendarText) -> Splice?, _ what: String) throws {
            let text = CalendarText(bytes: bytes)
            for uid in uids { _ = text.candidateBlocks(uid: uid, marker: nil) }
            let edited = try #require(splice(text), "\(what)")
            let carried = text.carried(into: edited)
            let fresh = CalendarText(bytes: edited.data)
            #expect(carried.bytes == fresh.bytes, "\(what)")
            let passes = carried.passes
            #expect(carried.veventBlocks() == fresh.veventBlocks(), "\(what)")
            #expect(carried.timezoneBlocks() == fresh.timezoneBlocks(), "\(what)")
            for uid in uids {
                #expect(carried.candidateBlocks(uid: uid, marker: nil) == fresh.candidateBlocks(uid: uid, marker: nil), "\(what): \(uid)")
            }
            if !what.hasPrefix("inside a block") { #expect(carried.passes == passes && passes == 0, "\(what): answered from what was carried") }
        }
        let blocks = CalendarText(bytes: bytes).veventBlocks()
        try check({ $0.replacing([], with: Self.event(9, uid: "new@t")) }, "inserted")
        try check({ $0.replacing([blocks[1]], with: Self.event(7, uid: "e1@t") + Self.event(8, uid: "e3@t")) }, "replaced")
        try check({ $0.replacing([blocks[3], blocks[4]], with: "") }, "removed")
        try check({ $0.replacing([blocks[0]], with: Self.zone + Self.event(10, uid: "e4@t")) }, "a zone and a block")
        try check({ text in
            Splice(base: text.bytes, cuts: [(blocks[5].lowerBound + 14..<blocks[5].lowerBound + 14, Array("UID:new@t\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\n".utf8))])
        }, "inside a block")
        // Balanced edits inside one block, ending in a line end: only the inside test keeps
        // them from being carried (a line added; the UID itself changed, e3 to e4).
        try check({ text in
            Splice(base: text.bytes, cuts: [(blocks[2].lowerBound + 14..<blocks[2].lowerBound + 14, Array("X-NOTE:x\r\n".utf8))])
        }, "inside a block: a line added")
        let uid = try #require(bytes.range(of: Data("UID:e3@t\r\n".utf8)))
        try check({ text in Splice(base: text.bytes, cuts: [(uid, Array("UID:e4@t\r\n".utf8))]) }, "inside a block: its UID")
    }

    /// `Splice.placed` (the cuts made in the base's own bytes, last first) gives what
    /// `data` (a copy put together piece by piece) gives, with cuts that grow, shrink,
    /// insert and remove; the splice it took is left empty.
    @Test func placedInPlaceIsTheSplicedBytes() throws {
        let base = Data("0123456789abcdefghij".utf8)
        var splice = try #require(Splice(base: base, cuts: [(2..<2, Array("XY".utf8)), (4..<7, Array("z".utf8)),
                                                           (10..<12, []), (18..<20, Array("LONGER".utf8))]))
        let expected = splice.data
        #expect(String(decoding: expected, as: UTF8.self) == "01XY23z789cdefghLONGER")
        #expect(Splice.placed(&splice) == expected)
        #expect(splice.base.isEmpty && splice.cuts.isEmpty)
        #expect(base == Data("0123456789abcdefghij".utf8), "a base something else holds is copied, not changed")
    }
}
