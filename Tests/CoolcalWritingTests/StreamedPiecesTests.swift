import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalScan
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

    /// What the pre-filter's loop shows (`ICalPreFilter.lineObserver`), recorded whole
    /// with its extent, and taken on by the streamed read's `Lines`.
    struct Recorder {
        var lines: StreamedCalendarRead.Lines
        var seen: [(bytes: [UInt8], full: Range<Int>)] = []

        mutating func see(_ start: UnsafePointer<UInt8>, _ count: Int) {
            seen.append((Array(UnsafeBufferPointer(start: start, count: count)), lines.offset..<(lines.offset + count)))
            lines.see(start, count)
        }
    }

    /// The lines shown for a text cut into pieces, and the search they fed.
    static func lines(_ bytes: [UInt8], cuts: [Int], identities: [CalendarText.Identity] = [])
        -> (lines: [(bytes: [UInt8], full: Range<Int>)], search: BlockSearch) {
        let sink = UnsafeMutablePointer<Recorder>.allocate(capacity: 1)
        sink.initialize(to: Recorder(lines: StreamedCalendarRead.Lines(search: BlockSearch(identities, zones: true))))
        defer { sink.deinitialize(count: 1); sink.deallocate() }
        var filter = ICalPreFilter(window: TimeWindow(start: 0, end: 1))
        filter.lineObserver = ScanLineObserver({ context, start, count in
            context.assumingMemoryBound(to: Recorder.self).pointee.see(start, count)
        }, context: UnsafeMutableRawPointer(sink))
        for piece in pieces(bytes, cuts: cuts) { piece.withUnsafeBytes { filter.feed($0) } }
        _ = filter.finish()
        return (sink.pointee.seen, sink.pointee.lines.search)
    }

    /// Every cut into two pieces, and cuts every 3 bytes: the lines `forEachLine` gives,
    /// each shown whole (its line end included) at its place in the text.
    @Test func linesAreTheWholeTextsWhereverItIsCut() {
        let bytes = Array(Self.text.utf8)
        var expected: [Range<Int>] = []
        CalendarText(bytes: bytes).forEachLine { _, _, full in expected.append(full) }
        #expect(expected.count == 18)
        let cutsList = (0...bytes.count).map { [$0] } + [Array(stride(from: 3, to: bytes.count, by: 3))]
        for cuts in cutsList {
            let got = Self.lines(bytes, cuts: cuts).lines
            #expect(got.map(\.full) == expected && got.map(\.bytes) == expected.map { Array(bytes[$0]) }, "cut at \(cuts.prefix(3))")
        }
    }

    /// The blocks a search fed piece by piece finds are the text's candidate blocks.
    @Test func blocksAreTheWholeTextsWhereverItIsCut() {
        let bytes = Array(Self.text.utf8)
        let identities = [CalendarText.Identity(uid: "abc-def@x", marker: nil), CalendarText.Identity(uid: "zzz", marker: "m-7")]
        let expected = CalendarText(bytes: bytes).candidateBlocks(for: identities)
        #expect(expected[0].count == 2 && expected[1].count == 1, "the folded UID is found, and the marker")
        for cut in 0...bytes.count {
            let search = Self.lines(bytes, cuts: [cut], identities: identities).search
            #expect(search.found() == expected, "cut at \(cut)")
            #expect(search.zones.count == 1)
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
