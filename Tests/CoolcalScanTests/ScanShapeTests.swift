import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalScan

/// `ICalReader.read(contentsOf:)` scans a file once: the pre-filter's line loop also
/// gathers its `InputShape`. That must be what `InputShape.see` gathers from the same
/// bytes, wherever the pieces are cut.
@Suite struct ScanShapeTests {
    static func outcome(_ shape: InputShape) -> String {
        let checked: String
        do { checked = try shape.check(file: "f.ics") ? "text" : "blank" } catch { checked = "\(error)" }
        return "\(checked) line \(shape.line) head \(shape.head) headLine \(shape.headLine) long \(shape.longLine ?? -1) "
            + "deep \(shape.deepLine ?? -1) depth \(shape.depth) nul \(shape.hasNUL) bom \(shape.bom)"
    }

    static let texts: [String] = [
        "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
        "\u{FEFF}\r\n  \r\nbegin:vcalendar\nEND:VCALENDAR",
        "\n\n\nNOT A CALENDAR\n",
        "BEGIN:VCALENDAR\r\nX:" + String(repeating: "y", count: (1 << 20) + 5) + "\r\nEND:VCALENDAR\r\n",
        String(repeating: "BEGIN:X\r\n", count: 120) + String(repeating: "END:X\r\n", count: 120),
        "BEGIN:VCALENDAR\r\nSUMMARY:a\u{0}b\r\nEND:VCALENDAR\r\n",
        "   \r\n\t\r\n",
        "BEGIN:VCALENDAR\r\nBEGIN\r\nEND:\r\nbegin:VEVENT\r\nEnD:VEVENT\r\nEND:VCALENDAR",
    ]

    @Test(arguments: Array(0..<8))
    func oneScanGivesTheSameShape(_ index: Int) {
        let bytes = Array(Self.texts[index].utf8)
        var whole = InputShape()
        bytes.withUnsafeBytes { whole.see($0) }
        var rng = PreFilterTests.Seeded(state: UInt64(index) + 1)
        for cut in [1, 2, 3, 7, 64, 4096, 1 << 22] {
            var filter = ICalPreFilter(window: TimeWindow(start: 0, end: 1), shape: InputShape())
            var pieces = InputShape()
            var at = 0
            while at < bytes.count {
                let n = min(bytes.count - at, cut == 1 ? 1 : Int.random(in: 1...cut, using: &rng))
                bytes[at..<(at + n)].withUnsafeBytes { piece in
                    filter.feed(piece)
                    pieces.see(piece)
                }
                at += n
            }
            #expect(Self.outcome(filter.shape ?? InputShape()) == Self.outcome(whole), "pieces up to \(cut)")
            #expect(Self.outcome(pieces) == Self.outcome(whole), "InputShape.see alone, pieces up to \(cut)")
        }
    }

    /// The messages are the documented ones (hand-written here).
    @Test func shapesSayWhatIsWrong() {
        func check(_ i: Int) -> String {
            var filter = ICalPreFilter(window: TimeWindow(start: 0, end: 1), shape: InputShape())
            Array(Self.texts[i].utf8).withUnsafeBytes { filter.feed($0) }
            return Self.outcome(filter.shape ?? InputShape())
        }
        #expect(check(3).contains("line 2 is longer than 1 MiB"))
        #expect(check(4).contains("line 101: components are nested more than 100 deep"))
        #expect(check(5).contains("it contains NUL bytes"))
        #expect(check(2).contains("line 4 is not BEGIN:VCALENDAR"))
        #expect(check(6).hasPrefix("blank"))
        #expect(check(1).hasPrefix("text"))
    }
}
