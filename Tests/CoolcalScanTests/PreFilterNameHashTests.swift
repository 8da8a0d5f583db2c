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
        return bytes.withUnsafeBufferPointer { ICalPreFilter.nameHash($0.baseAddress!, $0.count) }
    }

    @Test func componentNamesMatchTheirHashes() {
        #expect(ICalPreFilter.vcalendar == Self.hash("VCALENDAR"))
        #expect(ICalPreFilter.vevent == Self.hash("VEVENT"))
        #expect(ICalPreFilter.vtimezone == Self.hash("VTIMEZONE"))
        // The hash upper-cases: any case of the name is the same component.
        #expect(ICalPreFilter.vevent == Self.hash("vEvent"))
        #expect(ICalPreFilter.vevent != ICalPreFilter.vtimezone)
    }

    @Test func markerLinesGiveTheLiteralNames() {
        func name(_ line: String) -> UInt64? {
            let bytes = Array(line.utf8)
            return bytes.withUnsafeBufferPointer { ICalPreFilter.marker($0.baseAddress!, $0.count)?.name }
        }
        #expect(name("BEGIN:VEVENT") == ICalPreFilter.vevent)
        #expect(name("end:vcalendar") == ICalPreFilter.vcalendar)
        #expect(name("BEGIN:VTIMEZONE") == ICalPreFilter.vtimezone)
    }

    @Test func shapeMarkersArePackedBeginAndEnd() {
        #expect(InputShape.begin == InputShape.packed("BEGIN:"))
        #expect(InputShape.end == InputShape.packed("END:"))
        // Written out by hand: the ASCII bytes, first byte highest.
        #expect(InputShape.begin == 0x42_45_47_49_4E_3A)
        #expect(InputShape.end == 0x45_4E_44_3A)
    }
}
