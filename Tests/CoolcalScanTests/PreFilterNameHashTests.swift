import Foundation
import Testing
@testable import CoolcalICal
@testable import CoolcalScan

/// The names the pre-filter and the shape check compare with are literals (a computed
/// `static let` costs a `swift_once` check on every line): each must be what the hash
/// or the packing of its name gives, or BEGIN:VEVENT would go unseen.
@Suite struct PreFilterNameHashTests {
    static func hash(_ name: String) -> UInt64 {
        let bytes = Array(name.utf8)
        return bytes.withUnsafeBufferPointer { ScanLine.nameHash($0.baseAddress!, $0.count) }
    }

    @Test func componentNamesMatchTheirHashes() {
        #expect(ScanLine.vcalendar == Self.hash("VCALENDAR"))
        #expect(ScanLine.vevent == Self.hash("VEVENT"))
        #expect(ScanLine.vtimezone == Self.hash("VTIMEZONE"))
        // The hash upper-cases: any case of the name is the same component.
        #expect(ScanLine.vevent == Self.hash("vEvent"))
        #expect(ScanLine.vevent != ScanLine.vtimezone)
    }

    @Test func markerLinesGiveTheLiteralNames() {
        func name(_ line: String) -> UInt64? {
            let bytes = Array(line.utf8)
            return bytes.withUnsafeBufferPointer { ScanLine.marker($0.baseAddress!, $0.count)?.name }
        }
        #expect(name("BEGIN:VEVENT") == ScanLine.vevent)
        #expect(name("end:vcalendar") == ScanLine.vcalendar)
        #expect(name("BEGIN:VTIMEZONE") == ScanLine.vtimezone)
    }

    @Test func shapeMarkersArePackedBeginAndEnd() {
        #expect(InputShape.begin == InputShape.packed("BEGIN:"))
        #expect(InputShape.end == InputShape.packed("END:"))
        // Written out by hand: the ASCII bytes, first byte highest.
        #expect(InputShape.begin == 0x42_45_47_49_4E_3A)
        #expect(InputShape.end == 0x45_4E_44_3A)
    }
}
