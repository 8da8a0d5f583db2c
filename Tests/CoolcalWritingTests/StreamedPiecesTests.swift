import Foundation
import Testing
@testable import CoolcalSupport
@testable import CoolcalWriting

/// A streamed read sees a file in pieces cut anywhere (issue #48): its lines, its bare
/// CRs and the blocks it finds are those of the whole text in memory, wherever the cuts fall.
@Suite struct StreamedPiecesTests {
    /// Folded UID lines, CRLF and LF, blank lines, a CR before LF, no line end at the end.
    static let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:abc-\r\n def@x\r\nSUMMARY:one\r\nEND:VEVENT\n\r\n"
        + "BEGIN:VTIMEZONE\r\nTZID:Z\r\nEND:VTIMEZONE\r\nBEGIN:VEVENT\nX-COOLCAL-INVITE-ID:m-7\nUID:other\nEND:VEVENT\r\n"
        + "BEGIN:VEVENT\r\nUID:abc-def@x\r\nEND:VEVENT\r\nEND:VCALENDAR"

    static func pieces(_ bytes: [UInt8], cuts: [Int]) -> [[UInt8]] {
        var out: [[UInt8]] = [], from = 0
        for cut in cuts.sorted() + [bytes.count] where cut >= from {
            out.append(Array(bytes[from..<cut]))
            from = cut
        }
        return out
    }

    /// Every cut into two pieces, and cuts every 3 bytes: the lines `forEachLine` gives.
    @Test func linesAreTheWholeTextsWhereverItIsCut() {
        let bytes = Array(Self.text.utf8)
        var expected: [(String, Range<Int>)] = []
        CalendarText(bytes: bytes).forEachLine { all, content, full in
            expected.append((String(decoding: all[content], as: UTF8.self), full))
        }
        #expect(expected.count == 18)
        let cutsList = (0...bytes.count).map { [$0] } + [Array(stride(from: 3, to: bytes.count, by: 3))]
        for cuts in cutsList {
            var lines = PieceLines()
            var sink = Collected()
            for piece in Self.pieces(bytes, cuts: cuts) { piece.withUnsafeBytes { lines.feed($0, &sink) } }
            lines.finish(&sink)
            let got = sink.lines
            #expect(got.map(\.0) == expected.map(\.0) && got.map(\.1) == expected.map(\.1), "cut at \(cuts.prefix(3))")
        }
    }

    /// The blocks a search fed piece by piece finds are the text's candidate blocks.
    @Test func blocksAreTheWholeTextsWhereverItIsCut() {
        let bytes = Array(Self.text.utf8)
        let identities = [CalendarText.Identity(uid: "abc-def@x", marker: nil), CalendarText.Identity(uid: "zzz", marker: "m-7")]
        let expected = CalendarText(bytes: bytes).candidateBlocks(for: identities)
        #expect(expected[0].count == 2 && expected[1].count == 1, "the folded UID is found, and the marker")
        for cut in 0...bytes.count {
            var lines = PieceLines()
            var sink = Searched(search: BlockSearch(identities, zones: true))
            for piece in Self.pieces(bytes, cuts: [cut]) { piece.withUnsafeBytes { lines.feed($0, &sink) } }
            lines.finish(&sink)
            #expect(sink.search.found() == expected, "cut at \(cut)")
            #expect(sink.search.zones.count == 1)
        }
    }

    struct Collected: LineSink {
        var lines: [(String, Range<Int>)] = []
        mutating func line(_ content: UnsafeBufferPointer<UInt8>, _ full: Range<Int>) {
            lines.append((String(decoding: content, as: UTF8.self), full))
        }
    }

    struct Searched: LineSink {
        var search: BlockSearch
        mutating func line(_ content: UnsafeBufferPointer<UInt8>, _ full: Range<Int>) {
            search.see(content, full, nextIsFold: nil)
        }
    }

    /// A CR that ends a piece is bare only when the next piece does not start with LF
    /// (or there is none), as `BareCR` says of the whole.
    @Test func bareCRsAreTheWholeTextsWhereverItIsCut() {
        for text in ["a\r\nb\r\n", "a\rb\r\n", "a\r\nb\r", "a\r\r\nb", "\r\n", "\r"] {
            let bytes = Array(text.utf8)
            let whole = bytes.withUnsafeBytes { BareCR.present(in: $0) }
            for cut in 0...bytes.count {
                var bare = BareCRPieces()
                for piece in Self.pieces(bytes, cuts: [cut]) { piece.withUnsafeBytes { bare.feed($0) } }
                #expect(bare.finish() == whole, "\(text.debugDescription) cut at \(cut)")
            }
        }
    }
}
