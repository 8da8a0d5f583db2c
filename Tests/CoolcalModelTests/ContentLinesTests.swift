import Foundation
import Testing
@testable import CoolcalModel

/// RFC 5545 §3.1 line rules on raw bytes: what a line is, what a fold is.
@Suite struct ContentLinesTests {
    /// (content, full) of each physical line, as strings, for readable expectations.
    static func split(_ text: String) -> [[String]] {
        let bytes = Array(text.utf8)
        return ContentLines.physical(bytes).map {
            [String(decoding: bytes[$0.content], as: UTF8.self), String(decoding: bytes[$0.full], as: UTF8.self)]
        }
    }

    @Test func crlfAndLFBothEndLines() {
        #expect(Self.split("A:1\r\nB:2\nC:3\r\n") == [["A:1", "A:1\r\n"], ["B:2", "B:2\n"], ["C:3", "C:3\r\n"]])
    }

    @Test func aBareCRIsContentButAFinalCRIsALineEnd() {
        #expect(Self.split("A:x\ry\r\nB:2\r") == [["A:x\ry", "A:x\ry\r\n"], ["B:2", "B:2\r"]])
        // Two CRs before an LF: only the last belongs to the line end.
        #expect(Self.split("A:1\r\r\n") == [["A:1\r", "A:1\r\r\n"]])
    }

    @Test func emptyLinesAreLinesAndNoneFollowsTheLastNewline() {
        #expect(Self.split("A\r\n\r\n\nB\n") == [["A", "A\r\n"], ["", "\r\n"], ["", "\n"], ["B", "B\n"]])
        #expect(Self.split("").isEmpty)
    }

    @Test func theLastLineNeedsNoNewline() {
        #expect(Self.split("A:1\r\nEND:VCALENDAR") == [["A:1", "A:1\r\n"], ["END:VCALENDAR", "END:VCALENDAR"]])
    }

    @Test func lineEndingIsTheFirstLinesEnding() {
        #expect(ContentLines.lineEnding(of: Array("A\nB\r\n".utf8)) == [0x0A])
        #expect(ContentLines.lineEnding(of: Array("A\r\nB\n".utf8)) == [0x0D, 0x0A])
        #expect(ContentLines.lineEnding(of: Array("no newline".utf8)) == [0x0D, 0x0A])
    }

    @Test func unfoldingRemovesTheLineEndAndOneSpaceOrTab() {
        let folded = "SUMMARY:a\r\n  b\r\n\tc\nDESCRIPTION:d\n e\r\nUID:1\r\n"
        #expect(String(decoding: ContentLines.unfolded(Array(folded.utf8)), as: UTF8.self)
            == "SUMMARY:a bc\nDESCRIPTION:de\r\nUID:1\r\n")
    }

    @Test func unfoldingKeepsALeadingSpaceOnTheFirstLineAndBareCRs() {
        #expect(ContentLines.unfolded(Array(" A:1\r\r\n B".utf8)) == Array(" A:1\rB".utf8))
    }

    @Test func unfoldingJoinsBytesThatAreNotUTF8() {
        // A fold inside a UTF-8 sequence (RFC 5545 allows a simple writer to do it).
        let bytes: [UInt8] = [0x41, 0x3A, 0xC3, 0x0D, 0x0A, 0x20, 0xA9, 0xFF, 0x0A]
        #expect(ContentLines.unfolded(bytes) == [0x41, 0x3A, 0xC3, 0xA9, 0xFF, 0x0A])
    }

    @Test func forEachUnfoldedGivesWantedLinesWithoutEndings() {
        let text = Data("TZID:a\r\n b\r\nX:1\nTZOFFSETTO:+01\r\n\t00\r\nTZ:last".utf8)
        var seen: [String] = []
        ContentLines.forEachUnfolded(in: text, startingWith: { $0 == 0x54 }) { seen.append(String(decoding: $0, as: UTF8.self)) }
        #expect(seen == ["TZID:ab", "TZOFFSETTO:+0100", "TZ:last"])
    }

    @Test func forEachUnfoldedEndsLinesAtABareCROnlyWhenAsked() {
        let text = Data("TZID:a\rTZOFFSETTO:b\r c\r\n".utf8)
        var plain: [String] = [], bare: [String] = []
        ContentLines.forEachUnfolded(in: text, startingWith: { _ in true }) { plain.append(String(decoding: $0, as: UTF8.self)) }
        ContentLines.forEachUnfolded(in: text, bareCREndsLine: true, startingWith: { _ in true }) {
            bare.append(String(decoding: $0, as: UTF8.self))
        }
        #expect(plain == ["TZID:a\rTZOFFSETTO:b\r c"])
        #expect(bare == ["TZID:a", "TZOFFSETTO:bc"])
    }

    @Test func propertyNamesAreUpperCasedUpToTheFirstSemicolonOrColon() {
        #expect(ContentLines.propertyName(Array("dtStart;TZID=x:1".utf8)) == Array("DTSTART".utf8))
        #expect(ContentLines.propertyName(Array("status :x".utf8)) == Array("STATUS".utf8))
        #expect(ContentLines.propertyName(Array("x-ñame:1".utf8)) == Array("X-ñAME".utf8))
        #expect(ContentLines.propertyName(Array("no colon".utf8)) == Array("NO COLON".utf8))
    }

    @Test func linesCompareIgnoringASCIICaseAndTrailingBlanks() {
        #expect(ContentLines.line(Array("end:vevent \t".utf8), is: "END:VEVENT"))
        #expect(!ContentLines.line(Array(" END:VEVENT".utf8), is: "END:VEVENT"))
        #expect(!ContentLines.line(Array("END:VEVENTS".utf8), is: "END:VEVENT"))
        #expect(!ContentLines.line(Array("END:VEVENT\r".utf8), is: "END:VEVENT"))
    }
}
