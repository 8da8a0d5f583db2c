import Foundation
import Testing
@testable import CoolcalWriting

/// A cancellation edits two properties of the stored block and no other byte.
@Suite struct BlockEditTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func replacesStatusAndSequenceInACRLFBlock() {
        let block = Self.bytes("BEGIN:VEVENT\r\nUID:a\r\nSTATUS:CONFIRMED\r\nSEQUENCE:1\r\nSUMMARY:x  \r\nEND:VEVENT\r\n")
        #expect(BlockEdit.cancel(block: block, sequence: 2)
            == Self.bytes("BEGIN:VEVENT\r\nUID:a\r\nSTATUS:CANCELLED\r\nSEQUENCE:2\r\nSUMMARY:x  \r\nEND:VEVENT\r\n"))
    }

    @Test func replacesStatusAndSequenceInALFBlock() {
        let block = Self.bytes("BEGIN:VEVENT\nSEQUENCE:0\nUID:a\nstatus;X-P=1:tentative\nEND:VEVENT\n")
        #expect(BlockEdit.cancel(block: block, sequence: 5)
            == Self.bytes("BEGIN:VEVENT\nSEQUENCE:5\nUID:a\nSTATUS:CANCELLED\nEND:VEVENT\n"))
    }

    @Test func addsMissingPropertiesBeforeEndWithTheBlocksLineEnding() {
        let crlf = Self.bytes("BEGIN:VEVENT\r\nUID:a\r\nEND:VEVENT\r\n")
        #expect(BlockEdit.cancel(block: crlf, sequence: 3)
            == Self.bytes("BEGIN:VEVENT\r\nUID:a\r\nSTATUS:CANCELLED\r\nSEQUENCE:3\r\nEND:VEVENT\r\n"))
        let lf = Self.bytes("BEGIN:VEVENT\nUID:a\nEND:VEVENT")
        #expect(BlockEdit.cancel(block: lf, sequence: nil) == Self.bytes("BEGIN:VEVENT\nUID:a\nSTATUS:CANCELLED\nEND:VEVENT"))
    }

    @Test func aFoldedPropertyIsReplacedWholeAndOtherFoldsStay() {
        let block = Self.bytes("BEGIN:VEVENT\r\nSUMMARY:long\r\n  title\r\nSTATUS:CONF\r\n IRMED\r\n\tX\r\nUID:a\r\nEND:VEVENT\r\n")
        #expect(BlockEdit.cancel(block: block, sequence: nil)
            == Self.bytes("BEGIN:VEVENT\r\nSUMMARY:long\r\n  title\r\nSTATUS:CANCELLED\r\nUID:a\r\nEND:VEVENT\r\n"))
    }

    @Test func aNestedAlarmsStatusIsNotTheEvents() {
        let block = Self.bytes("BEGIN:VEVENT\r\nUID:a\r\nBEGIN:VALARM\r\nSTATUS:TENTATIVE\r\nSEQUENCE:9\r\nEND:VALARM\r\nEND:VEVENT\r\n")
        #expect(BlockEdit.cancel(block: block, sequence: 1)
            == Self.bytes("BEGIN:VEVENT\r\nUID:a\r\nBEGIN:VALARM\r\nSTATUS:TENTATIVE\r\nSEQUENCE:9\r\nEND:VALARM\r\n"
                + "STATUS:CANCELLED\r\nSEQUENCE:1\r\nEND:VEVENT\r\n"))
    }

    @Test func bytesThatAreNotUTF8AndBareCRsSurvive() {
        let head: [UInt8] = Self.bytes("BEGIN:VEVENT\r\nSUMMARY:") + [0xFF, 0xC3, 0x28, 0x0D, 0x41] + [0x0D, 0x0A]
        let tail: [UInt8] = Self.bytes("DESCRIPTION:a\rb\r\nEND:VEVENT\r\n")
        let block = head + Self.bytes("STATUS:CONFIRMED\n") + tail
        #expect(BlockEdit.cancel(block: block, sequence: nil) == head + Self.bytes("STATUS:CANCELLED\n") + tail)
    }

    @Test func aReplacedLineKeepsItsOwnLineEnding() {
        // The file mixes endings: the replaced STATUS keeps LF, the added SEQUENCE gets
        // the first line's CRLF.
        let block = Self.bytes("BEGIN:VEVENT\r\nUID:a\nSTATUS:CONFIRMED\nEND:VEVENT\n")
        #expect(BlockEdit.cancel(block: block, sequence: 4)
            == Self.bytes("BEGIN:VEVENT\r\nUID:a\nSTATUS:CANCELLED\nSEQUENCE:4\r\nEND:VEVENT\n"))
    }

    @Test func theLastEndVEventIsTheOneInsertedBefore() {
        let block = Self.bytes("BEGIN:VEVENT\r\nUID:a\r\nend:vevent \r\n")
        #expect(BlockEdit.cancel(block: block, sequence: nil)
            == Self.bytes("BEGIN:VEVENT\r\nUID:a\r\nSTATUS:CANCELLED\r\nend:vevent \r\n"))
    }

    @Test func aBlockWithoutEndVEventIsNotEdited() {
        #expect(BlockEdit.cancel(block: Self.bytes("BEGIN:VEVENT\r\nUID:a\r\nSTATUS:CONFIRMED\r\n"), sequence: 1) == nil)
        #expect(BlockEdit.cancel(block: Self.bytes("BEGIN:VEVENT\r\nUID:a\r\n END:VEVENT\r\n"), sequence: 1) == nil)
    }
}
