import Foundation
import Testing
@testable import CoolcalICal
@testable import CoolcalWriting
@testable import CoolcalScanTests

/// An edit as a splice of the bytes as read, and the block-level lookup it is built on
/// against a full libical parse of random calendars.
@Suite struct SpliceTests {
    static let base = Data("0123456789".utf8)

    static func pieces(_ splice: Splice) throws -> [String] {
        var out: [String] = []
        try splice.forEachPiece { out.append(String(decoding: $0, as: UTF8.self)) }
        return out
    }

    @Test func piecesAreTheBytesAroundEachCutInOrder() throws {
        let splice = try #require(Splice(base: Self.base, cuts: [(7..<9, Array("XY".utf8)), (2..<2, Array("ab".utf8)), (4..<6, [])]))
        #expect(try Self.pieces(splice) == ["01", "ab", "23", "6", "XY", "9"])
        #expect(splice.count == 10)
        #expect(String(decoding: splice.data, as: UTF8.self) == "01ab236XY9")
    }

    @Test func overlappingOrOutOfRangeCutsAreRefused() {
        #expect(Splice(base: Self.base, cuts: [(2..<5, []), (4..<6, [])]) == nil)
        #expect(Splice(base: Self.base, cuts: [(8..<11, [])]) == nil)
    }

    @Test func matchesComparesAnyStretchOfTheEditedBytes() throws {
        let splice = try #require(Splice(base: Self.base, cuts: [(3..<3, Array("abc".utf8))]))
        func matches(_ s: String, at offset: Int) -> Bool {
            Array(s.utf8).withUnsafeBytes { splice.matches($0, at: offset) }
        }
        #expect(matches("012abc3456789", at: 0))
        #expect(matches("2abc3", at: 2))
        #expect(matches("9", at: 12))
        #expect(!matches("2abd3", at: 2))
        #expect(!matches("89X", at: 11), "past the end")
        #expect(!matches("0123", at: 0))
    }

    /// The pre-filter tests' seeded generator, so that a failure can be replayed.
    typealias Seeded = PreFilterTests.Seeded

    /// A random calendar of events that share UIDs, mention each other's UIDs in their
    /// text, fold their UID and marker lines at random places, carry VALARMs, and
    /// override occurrences; LF or CRLF.
    static func calendar(_ rng: inout Seeded) -> String {
        let nl = Bool.random(using: &rng) ? "\r\n" : "\n"
        func folded(_ line: String) -> String {
            guard line.count > 4, Int.random(in: 0..<3, using: &rng) == 0 else { return line }
            let cut = Int.random(in: 1..<(line.count - 1), using: &rng)
            return String(line.prefix(cut)) + nl + (Bool.random(using: &rng) ? " " : "\t") + String(line.dropFirst(cut))
        }
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//random//EN"]
        for n in 0..<Int.random(in: 1...12, using: &rng) {
            let uid = "u\(Int.random(in: 0..<5, using: &rng))@x"
            lines += ["BEGIN:VEVENT", folded((Bool.random(using: &rng) ? "UID:" : "uid:") + uid), "SUMMARY:event \(n)",
                      "DTSTART:202401\(10 + n)T100000Z", "DTEND:202401\(10 + n)T110000Z", "DTSTAMP:20240101T000000Z"]
            if Int.random(in: 0..<3, using: &rng) == 0 { lines.append(folded("X-COOLCAL-INVITE-ID:m\(Int.random(in: 0..<3, using: &rng))")) }
            if Bool.random(using: &rng) { lines.append(folded("DESCRIPTION:see UID:u\(Int.random(in: 0..<5, using: &rng))@x")) }
            if Int.random(in: 0..<4, using: &rng) == 0 { lines.append("RECURRENCE-ID:202401\(10 + n)T100000Z") }
            if Int.random(in: 0..<4, using: &rng) == 0 {
                lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT5M", "DESCRIPTION:UID:u1@x", "END:VALARM"]
            }
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return lines.map { $0 + nl }.joined()
    }

    /// What the block-level lookup finds for a UID or marker is what libical's parse of
    /// the whole calendar holds for it: the same events, in file order; the search for
    /// many at once (`candidateBlocks(in:for:)`, then `remember`) answers the same as one
    /// lookup at a time.
    @Test func blockLookupFindsWhatAFullParseHolds() throws {
        var rng = Seeded(state: 15)
        for round in 0..<300 {
            let source = Self.calendar(&rng)
            let whole = try ICalReader.read(Data(source.utf8), file: "random.ics")
            let identities = (0..<5).map { CalendarText.Identity(uid: "u\($0)@x", marker: $0 < 3 ? "m\($0)" : nil) }
            let fresh = CalendarText(bytes: Array(source.utf8))
            let fetched = CalendarText(bytes: Array(source.utf8))
            fetched.remember(CalendarText.candidateBlocks(in: Data(source.utf8), for: identities), for: identities)
            for identity in identities {
                let expected = whole.events.filter { $0.uid == identity.uid || (identity.marker != nil && $0.inviteID == identity.marker) }
                let found = fresh.blocks(uid: identity.uid, marker: identity.marker).map(\.event)
                #expect(found.map(\.summary) == expected.map(\.summary), "round \(round), \(identity):\n\(source)")
                #expect(found.map(\.recurrenceID) == expected.map(\.recurrenceID), "round \(round), \(identity)")
                #expect(fetched.candidateBlocks(uid: identity.uid, marker: identity.marker)
                        == fresh.candidateBlocks(uid: identity.uid, marker: identity.marker), "round \(round), \(identity)")
            }
        }
    }
}
