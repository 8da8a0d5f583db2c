import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalScan
@testable import CoolcalSupport
@testable import CoolcalWriting

/// A streamed read sees a file in pieces cut anywhere (issue #48): the lines it shows the
/// block search, its bare CRs and the blocks it finds are those of the whole text in
/// memory, wherever the cuts fall.
@Suite struct StreamedPiecesTests {
    /// Folded UID lines, CRLF and LF, blank lines, a CR before LF, a folded line that is
    /// not shown, lower case, no line end at the end.
    static let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:abc-\r\n def@x\r\nSUMMARY:one\r\nDESCRIPTION:a\r\n\tb\r\nEND:VEVENT\n\r\n"
        + "BEGIN:VTIMEZONE\r\nTZID:Z\r\nEND:VTIMEZONE\r\nbegin:VEVENT\nX-COOLCAL-INVITE-ID:m-7\nUID:other\nEND:VEVENT\r\n"
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

        mutating func see(_ start: UnsafePointer<UInt8>, _ count: Int, at offset: Int) {
            seen.append((Array(UnsafeBufferPointer(start: start, count: count)), offset..<(offset + count)))
            lines.see(start, count, at: offset)
        }
    }

    /// The lines shown for a text cut into pieces, the search they fed, and whether the
    /// pre-filter saw a bare CR.
    static func lines(_ bytes: [UInt8], cuts: [Int], identities: [CalendarText.Identity] = [])
        -> (lines: [(bytes: [UInt8], full: Range<Int>)], search: BlockSearch, bareCR: Bool) {
        let sink = UnsafeMutablePointer<Recorder>.allocate(capacity: 1)
        sink.initialize(to: Recorder(lines: StreamedCalendarRead.Lines(search: BlockSearch(identities, zones: true))))
        defer { sink.deinitialize(count: 1); sink.deallocate() }
        var filter = ICalPreFilter(window: TimeWindow(start: 0, end: 1))
        filter.lineObserver = ScanLineObserver({ context, start, count, offset in
            context.assumingMemoryBound(to: Recorder.self).pointee.see(start, count, at: offset)
        }, context: UnsafeMutableRawPointer(sink))
        for piece in pieces(bytes, cuts: cuts) { piece.withUnsafeBytes { filter.feed($0) } }
        _ = filter.finish()
        return (sink.pointee.seen, sink.pointee.lines.search, filter.bareCR)
    }

    /// Every cut into two pieces, and cuts every 3 bytes: of the lines `forEachLine`
    /// gives, those that start with B, E, U or X in either case, the first, and each
    /// fold of a line shown — each shown whole (its line end included) at its place.
    @Test func linesShownAreTheWholeTextsWhereverItIsCut() {
        let bytes = Array(Self.text.utf8)
        var all: [Range<Int>] = []
        CalendarText(bytes: bytes).forEachLine { _, _, full in all.append(full) }
        #expect(all.count == 20)
        var expected: [Range<Int>] = []
        for full in all {
            let first = bytes[full.lowerBound]
            let fold = (first == 0x20 || first == 0x09) && expected.last?.upperBound == full.lowerBound
            if full.lowerBound == 0 || fold || "BbEeUuXx".utf8.contains(first) { expected.append(full) }
        }
        // BEGIN×5, END×5, UID×3 and its fold, X-…, no SUMMARY, DESCRIPTION or its fold, TZID, blank line.
        #expect(expected.count == 15)
        let cutsList = (0...bytes.count).map { [$0] } + [Array(stride(from: 3, to: bytes.count, by: 3))]
        for cuts in cutsList {
            let got = Self.lines(bytes, cuts: cuts).lines
            #expect(got.map(\.full) == expected && got.map(\.bytes) == expected.map { Array(bytes[$0]) }, "cut at \(cuts.prefix(3))")
        }
    }

    /// A line being gathered (a UID line whose next line is not known yet) ends where
    /// lines were left out: a fold shown after them does not continue it.
    @Test func aGapEndsTheLineGathered() {
        func found(_ uid: String) -> [[Range<Int>]] {
            var lines = StreamedCalendarRead.Lines(search: BlockSearch([CalendarText.Identity(uid: uid, marker: nil)]))
            let shown: [(String, Int)] = [("BEGIN:VEVENT\n", 0), ("UID:ab\n", 13), (" c\n", 30), ("END:VEVENT\n", 33)]
            for (line, offset) in shown {
                let bytes = Array(line.utf8)
                bytes.withUnsafeBufferPointer { all in
                    guard let base = all.baseAddress else { return }
                    lines.see(base, all.count, at: offset)
                }
            }
            return lines.search.found()
        }
        #expect(found("ab") == [[0..<44]])
        #expect(found("abc") == [[]])
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

    /// A block's BEGIN or END line is told in any case and with trailing blanks, and no
    /// other line is taken for it.
    @Test func blockLinesIgnoreCaseAndTrailingBlanks() {
        let cases: [(String, Bool)] = [("END:VEVENT", true), ("end:vEvent", true), ("END:VEVENT \t ", true), ("END:VEVENTS", false),
                                       ("END:VEVEN", false), ("END:VEVEN ", false), ("END:VEVENT X", false), ("BEGIN:VEVENT", false), ("", false)]
        for (line, expected) in cases {
            let bytes = Array(line.utf8)
            #expect(bytes.withUnsafeBufferPointer { BlockWalker.line($0, is: "END:VEVENT") } == expected, "\(line.debugDescription)")
        }
    }

    /// A CR that ends a piece is bare only when the next piece does not start with LF
    /// (or there is none): the pre-filter's `bareCR` is `BareCR`'s of the whole.
    @Test func bareCRsAreTheWholeTextsWhereverItIsCut() {
        for text in ["a\r\nb\r\n", "a\rb\r\n", "a\r\nb\r", "a\r\r\nb", "\r\n", "\r", "BEGIN:VCALENDAR\r\nX:1\r\rY\r\n"] {
            let bytes = Array(text.utf8)
            let whole = bytes.withUnsafeBytes { BareCR.present(in: $0) }
            for cut in 0...bytes.count {
                #expect(Self.lines(bytes, cuts: [cut]).bareCR == whole, "\(text.debugDescription) cut at \(cut)")
            }
        }
    }
}
