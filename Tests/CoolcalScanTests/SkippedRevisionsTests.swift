import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalCalendars
@testable import CoolcalScan

/// The dropped events' revisions, kept compactly (`ICalSkippedRevisions`): what the
/// pre-filter keeps of them, and that they decide in `Revisions.current` exactly as the
/// revisions of parsed events would.
@Suite struct SkippedRevisionsTests {
    static let window = TimeWindow(start: 1_660_953_600, end: 1_661_040_000) // 2022-08-20 (UTC), one day

    static func calendar(_ events: String...) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n" + events.joined() + "END:VCALENDAR\r\n"
    }

    /// An event in the window (08-20) or out of it (08-25), with `uid` and SEQUENCE.
    static func event(uid: String, sequence: Int, inWindow: Bool, summary: String) -> String {
        "BEGIN:VEVENT\r\nUID:\(uid)\r\nSEQUENCE:\(sequence)\r\nDTSTAMP:20220101T000000Z\r\n"
            + "DTSTART:202208\(inWindow ? "20" : "25")T150000Z\r\nDURATION:PT1H\r\nSUMMARY:\(summary)\r\nEND:VEVENT\r\n"
    }

    static func revision(_ uid: String, _ sequence: Int, stamp: Int64? = 1_640_995_200) -> ICalRevision {
        ICalRevision(uid: uid, recurrenceID: nil, sequence: sequence, stamp: stamp, lastModified: nil)
    }

    /// The summaries of what `Revisions.current` leaves of the filtered read.
    func current(_ text: String) throws -> [String] {
        let calendar = try ICalReader.read(Data(text.utf8), file: "t.ics", window: Self.window)
        return Revisions.current([calendar]).flatMap { $0.events.compactMap(\.summary) }
    }

    @Test func droppedRevisionsAreKeptWithTheirFields() {
        let text = Self.calendar(
            Self.event(uid: "a@t", sequence: 3, inWindow: false, summary: "A out"),
            Self.event(uid: "b@t", sequence: 0, inWindow: true, summary: "B in"),
            "BEGIN:VEVENT\r\nUID:c@\r\n t\r\nLAST-MODIFIED:20220102T000000Z\r\nDTSTART:20220825T150000Z\r\nEND:VEVENT\r\n")
        let (kept, skipped) = PreFilterRun.filterKeepingRevisions(Data(text.utf8), window: Self.window)
        #expect(String(decoding: kept, as: UTF8.self).contains("B in"))
        #expect(!String(decoding: kept, as: UTF8.self).contains("A out"))
        // The folded UID is joined; a dropped event's revision has no RECURRENCE-ID.
        #expect(skipped.all == [Self.revision("a@t", 3),
                                ICalRevision(uid: "c@t", recurrenceID: nil, sequence: 0, stamp: nil, lastModified: 1_641_081_600)])
    }

    @Test func aDroppedNewerRevisionHidesAKeptOneAndAnOlderDoesNot() throws {
        let newer = Self.calendar(Self.event(uid: "x@t", sequence: 0, inWindow: true, summary: "X old"),
                                  Self.event(uid: "x@t", sequence: 1, inWindow: false, summary: "X moved"))
        #expect(try current(newer).isEmpty)
        let older = Self.calendar(Self.event(uid: "x@t", sequence: 2, inWindow: true, summary: "X current"),
                                  Self.event(uid: "x@t", sequence: 1, inWindow: false, summary: "X before"))
        #expect(try current(older) == ["X current"])
        // Another UID decides nothing.
        let other = Self.calendar(Self.event(uid: "x@t", sequence: 0, inWindow: true, summary: "X"),
                                  Self.event(uid: "y@t", sequence: 9, inWindow: false, summary: "Y"))
        #expect(try current(other) == ["X"])
    }

    @Test func nonASCIIUIDsDecideToo() throws {
        let uid = "réunion-ü@exemple.fr"
        let text = Self.calendar(Self.event(uid: uid, sequence: 0, inWindow: true, summary: "old"),
                                 Self.event(uid: uid, sequence: 5, inWindow: false, summary: "new"))
        let (_, skipped) = PreFilterRun.filterKeepingRevisions(Data(text.utf8), window: Self.window)
        #expect(skipped.all == [Self.revision(uid, 5)])
        #expect(try current(text).isEmpty)
        // Swift compares strings by canonical equivalence: an e and a combining acute
        // accent are é, and U+212A KELVIN SIGN is K; so did the set of revisions before.
        let decomposed = Self.calendar(Self.event(uid: "cafe\u{301}@t", sequence: 0, inWindow: true, summary: "decomposed"),
                                       Self.event(uid: "caf\u{E9}@t", sequence: 1, inWindow: false, summary: "composed"))
        #expect(try current(decomposed).isEmpty)
        let kelvin = Self.calendar(Self.event(uid: "\u{212A}@t", sequence: 0, inWindow: true, summary: "kelvin"),
                                   Self.event(uid: "K@t", sequence: 1, inWindow: false, summary: "ascii"))
        #expect(try current(kelvin).isEmpty)
        let reversed = Self.calendar(Self.event(uid: "K@t", sequence: 0, inWindow: true, summary: "ascii"),
                                     Self.event(uid: "\u{212A}@t", sequence: 1, inWindow: false, summary: "kelvin"))
        #expect(try current(reversed).isEmpty)
    }

    /// A UID libical would not read as written is not judged: its event is kept.
    @Test func unplainUIDsKeepTheirEvent() {
        let head = Array("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:".utf8)
        let tail = Array("\r\nDTSTART:20220825T150000Z\r\nSUMMARY:odd\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
        for uid: [UInt8] in [[0x61, 0xC3, 0x28], [0x61, 0xE9, 0x62], [0x61, 0x5C, 0x2C], [0x61, 0x20], [0x61, 0x7F], [0x61, 0x01]] {
            let (kept, skipped) = PreFilterRun.filterKeepingRevisions(Data(head + uid + tail), window: Self.window)
            #expect(String(decoding: kept, as: UTF8.self).contains("SUMMARY:odd"), "\(uid)")
            #expect(skipped.isEmpty)
        }
        // Valid two-byte UTF-8 is dropped.
        let (kept, skipped) = PreFilterRun.filterKeepingRevisions(Data(head + [0x61, 0xC3, 0xA9] + tail), window: Self.window)
        #expect(!String(decoding: kept, as: UTF8.self).contains("SUMMARY:odd"))
        #expect(skipped.all == [ICalRevision(uid: "a\u{E9}", recurrenceID: nil, sequence: 0, stamp: nil, lastModified: nil)])
    }

    /// The hash upper-cases (it is the filter's name hash), so `ABC` and `abc` collide:
    /// the bytes decide.
    @Test func equalHashesWithOtherBytesDoNotMatch() throws {
        let upper = Array("ABC@T".utf8), lower = Array("abc@t".utf8)
        let h1 = upper.withUnsafeBufferPointer { ICalSkippedRevisions.hash($0) }
        let h2 = lower.withUnsafeBufferPointer { ICalSkippedRevisions.hash($0) }
        #expect(h1 == h2)
        let text = Self.calendar(Self.event(uid: "abc@t", sequence: 0, inWindow: true, summary: "lower"),
                                 Self.event(uid: "ABC@T", sequence: 7, inWindow: false, summary: "upper"))
        #expect(try current(text) == ["lower"])
        // Both lookups: walking the revisions (fewer than the UIDs asked) and the buckets.
        let few: ICalSkippedRevisions = [Self.revision("ABC@T", 7)]
        #expect(few.revisions(of: .init(["abc@t", "other", "more"])).isEmpty)
        #expect(few.revisions(of: .init(["ABC@T", "other"])) == [Self.revision("ABC@T", 7)])
        var many = ICalSkippedRevisions()
        for i in 0..<300 { many.append(Self.revision("u\(i)@t", i)) }
        many.append(Self.revision("ABC@T", 7))
        #expect(many.revisions(of: .init(["abc@t"])).isEmpty)
        #expect(many.revisions(of: .init(["ABC@T"])) == [Self.revision("ABC@T", 7)])
        #expect(many.revisions(of: .init(["u299@t", "u0@t"])).map(\.sequence).sorted() == [0, 299])
    }

    @Test func appendingKeepsEveryRevisionAndItsRecurrenceID() {
        let rid = ICalTime(fields: CivilDateTime(year: 2022, month: 8, day: 20, hour: 15), isDate: false, reference: .zoned("Europe/Berlin"))
        var a: ICalSkippedRevisions = [Self.revision("one", 1), ICalRevision(uid: "two", recurrenceID: rid, sequence: 2, stamp: nil, lastModified: 5)]
        let b: ICalSkippedRevisions = [ICalRevision(uid: "three", recurrenceID: rid, sequence: 3, stamp: nil, lastModified: nil),
                                       Self.revision("zwei-ä", 4)]
        a += b
        #expect(a.count == 4)
        #expect(a.all == [Self.revision("one", 1), ICalRevision(uid: "two", recurrenceID: rid, sequence: 2, stamp: nil, lastModified: 5),
                          ICalRevision(uid: "three", recurrenceID: rid, sequence: 3, stamp: nil, lastModified: nil),
                          Self.revision("zwei-ä", 4)])
        #expect(a.revisions(of: .init(["three", "zwei-ä"])).map(\.sequence).sorted() == [3, 4])
    }
}
