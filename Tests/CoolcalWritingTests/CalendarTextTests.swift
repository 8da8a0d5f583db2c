import Foundation
import Testing
@testable import CoolcalWriting

/// Locating blocks in a calendar's raw bytes and editing around them.
@Suite struct CalendarTextTests {
    static func text(_ s: String) -> CalendarText { CalendarText(bytes: Array(s.utf8)) }
    static func string(_ text: CalendarText, _ r: Range<Int>) -> String { String(decoding: text.bytes[r], as: UTF8.self) }

    static let crlf = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
        + "BEGIN:VEVENT\r\nUID:a\r\nDTSTART:20240101T100000Z\r\nDESCRIPTION:see UID:b\r\nEND:VEVENT\r\n"
        + "BEGIN:VEVENT\r\nUID:b\r\nDTSTART:20240102T100000Z\r\nEND:VEVENT\r\n"
        + "END:VCALENDAR\r\n"

    @Test func findsTheBlockByUIDNotByAMentionElsewhere() {
        let text = Self.text(Self.crlf)
        let found = text.blocks(uid: "b")
        #expect(found.map { Self.string(text, $0.range) } == ["BEGIN:VEVENT\r\nUID:b\r\nDTSTART:20240102T100000Z\r\nEND:VEVENT\r\n"])
        #expect(found.map(\.event.uid) == ["b"])
        #expect(text.blocks(uid: "c").isEmpty)
    }

    @Test func findsAUIDThatAFoldCuts() {
        let s = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:long-u\n id@host\nDTSTART:20240101T100000Z\nEND:VEVENT\nEND:VCALENDAR\n"
        let text = Self.text(s)
        let found = text.blocks(uid: "long-uid@host")
        #expect(found.map { Self.string(text, $0.range) } == ["BEGIN:VEVENT\nUID:long-u\n id@host\nDTSTART:20240101T100000Z\nEND:VEVENT\n"])
    }

    @Test func findsABlockByCoolcalsMarker() {
        let s = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:server-renamed\r\nDTSTART:20240101T100000Z\r\n"
            + "X-COOLCAL-INVITE-ID:7\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let text = Self.text(s)
        #expect(text.blocks(uid: "coolcal-invite-7@host", marker: "7").map(\.event.uid) == ["server-renamed"])
        #expect(text.blocks(uid: "coolcal-invite-7@host", marker: "8").isEmpty)
    }

    @Test func blocksKeepTheirLineEndingsAndNestedComponents() {
        let s = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nBEGIN:VALARM\nEND:VALARM\nend:vevent\t\nBEGIN:VTODO\nEND:VTODO\nEND:VCALENDAR"
        let text = Self.text(s)
        #expect(text.veventBlocks().map { Self.string(text, $0) } == ["BEGIN:VEVENT\nUID:a\nBEGIN:VALARM\nEND:VALARM\nend:vevent\t\n"])
        #expect(text.lineEnding == "\n")
        #expect(text.insertionPoint() == s.utf8.count - "END:VCALENDAR".utf8.count)
    }

    @Test func theLastEndVCalendarIsTheInsertionPoint() {
        let s = "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\nBEGIN:VCALENDAR\r\nend:vcalendar  \r\n"
        #expect(Self.text(s).insertionPoint() == "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\nBEGIN:VCALENDAR\r\n".utf8.count)
        #expect(Self.text("BEGIN:VCALENDAR\r\n").insertionPoint() == nil)
        // A last line ending in a CR alone still counts (as libical reads it).
        #expect(Self.text("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r").insertionPoint() == "BEGIN:VCALENDAR\r\n".utf8.count)
    }

    @Test func replacingKeepsEveryOtherByte() throws {
        let text = Self.text(Self.crlf)
        let b = try #require(text.blocks(uid: "b").first)
        let edited = try #require(text.replacing([b.range], with: "NEW\r\n")?.data)
        #expect(String(decoding: edited, as: UTF8.self) == "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
            + "BEGIN:VEVENT\r\nUID:a\r\nDTSTART:20240101T100000Z\r\nDESCRIPTION:see UID:b\r\nEND:VEVENT\r\n"
            + "NEW\r\nEND:VCALENDAR\r\n")
        let added = try #require(text.replacing([], with: "ADDED\r\n")?.data)
        #expect(String(decoding: added, as: UTF8.self) == String(Self.crlf.dropLast("END:VCALENDAR\r\n".count)) + "ADDED\r\nEND:VCALENDAR\r\n")
    }

    @Test func replacingSeveralBlocksInsertsAtTheFirst() throws {
        let text = Self.text(Self.crlf)
        let ranges = text.veventBlocks()
        #expect(ranges.count == 2)
        let edited = try #require(text.replacing(ranges.reversed(), with: "ONE\r\n")?.data)
        #expect(String(decoding: edited, as: UTF8.self) == "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nONE\r\nEND:VCALENDAR\r\n")
    }

    @Test func bytesThatAreNotUTF8OutsideTheEditStay() throws {
        let head: [UInt8] = Array("BEGIN:VCALENDAR\r\nX-NOTE:".utf8) + [0xFF, 0xFE, 0x0D, 0x41] + Array("\r\n".utf8)
        let text = CalendarText(bytes: head + Array("END:VCALENDAR\r\n".utf8))
        let edited = try #require(text.replacing([], with: "E\r\n")?.data)
        #expect(Array(edited) == head + Array("E\r\nEND:VCALENDAR\r\n".utf8))
    }

    @Test func unfoldedJoinsFoldedLines() {
        let s = "SUMMARY:a\r\n b\n\tc\r\nUID:x\r\n"
        let text = Self.text(s)
        #expect(text.unfolded(0..<s.utf8.count) == "SUMMARY:abc\r\nUID:x\r\n")
    }

    @Test func aBlankFileBecomesAWholeCalendarInItsLineEnding() throws {
        let whole = try #require(Self.text("\n").wholeCalendar("BODY\n", hasEvents: false)?.data)
        #expect(String(decoding: whole, as: UTF8.self) == "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//coolcal//coolcal//EN\nBODY\nEND:VCALENDAR\n")
        #expect(Self.text(Self.crlf).wholeCalendar("BODY\r\n", hasEvents: true)?.data == nil)
    }
}
