import Foundation
import Testing

/// The rules that guard an event already stored (issue #43, item 7: sabotages no test
/// caught): the organizer binding compares addresses without case; only the stored
/// copy's SENT-BY lets someone else send for the organizer, never one the message
/// writes; two versions with the same SEQUENCE are ordered by DTSTAMP, whichever
/// arrives first. By `merge` and by `process`.
@Suite struct StoredCopyTrustTests {
    typealias D = BorrowedNameDesk
    static let uid = "stored-copy@example.org"

    /// Alice's invitation, accepted: the stored copy (her address as her client writes it).
    func stored(_ way: D.Way) throws -> D {
        var d = try D(way)
        let said = try d.deliver(D.mail(D.calendar(method: "REQUEST", [D.event(uid: Self.uid, organizer: "Alice@Example.org")]),
                                        from: "Alice <alice@example.org>"))
        #expect(said.held == nil, "\(said)")
        #expect(try d.text().contains("UID:\(Self.uid)"))
        return d
    }

    /// An update whose ORGANIZER and From are written in other cases is the organizer's:
    /// applied. (A case-sensitive binding holds it as `organizer changed`.)
    @Test(arguments: D.Way.allCases) func theBindingComparesWithoutCase(_ way: D.Way) throws {
        var d = try stored(way)
        let update = D.calendar(method: "REQUEST", [D.event(uid: Self.uid, organizer: "ALICE@Example.ORG", sequence: 1,
                                                            start: "20310303T150000Z")])
        let said = try d.deliver(D.mail(update, from: "Alice <Alice@EXAMPLE.org>"))
        #expect(said.held == nil, "\(said)")
        #expect(try d.text().contains("DTSTART:20310303T150000Z"), "\(said)")
        // A new invitation in mixed case is the organizer's too.
        let fresh = D.calendar(method: "REQUEST", [D.event(uid: "mixed-new@example.org", organizer: "Alice@Example.Org",
                                                           start: "20310310T100000Z")])
        let accepted = try d.deliver(D.mail(fresh, from: "ALICE@EXAMPLE.ORG"))
        let written = try d.text().contains("UID:mixed-new@example.org")
        #expect(accepted.held == nil && written, "\(accepted)")
    }

    /// A SENT-BY in the message does not let its sender change the stored event (the
    /// stored copy names no delegate): held, the calendar byte-identical.
    @Test(arguments: D.Way.allCases) func aSentByInTheMessageChangesNoStoredEvent(_ way: D.Way) throws {
        var d = try stored(way)
        let before = try d.bytes()
        let forged = D.calendar(method: "REQUEST", [D.event(uid: Self.uid, organizerParameters: ";SENT-BY=\"mailto:mallory@evil.example\"",
                                                            sequence: 5, start: "20310303T030000Z")])
        let said = try d.deliver(D.mail(forged, from: "Mallory <mallory@evil.example>"))
        #expect(said.held == "not from the organizer", "\(said)")
        #expect(try d.bytes() == before)
        let cancel = D.calendar(method: "CANCEL", [D.event(uid: Self.uid, organizerParameters: ";SENT-BY=\"mailto:mallory@evil.example\"",
                                                           sequence: 5, extra: ["STATUS:CANCELLED"])])
        #expect(try d.deliver(D.mail(cancel, from: "mallory@evil.example", method: "CANCEL")).held == "not from the organizer")
        #expect(try d.bytes() == before)
    }

    /// Two versions with one SEQUENCE: the later DTSTAMP wins in both arrival orders.
    @Test(arguments: D.Way.allCases, [false, true]) func sameSequenceIsOrderedByStamp(_ way: D.Way, newerFirst: Bool) throws {
        var d = try stored(way)
        let older = D.calendar(method: "REQUEST", [D.event(uid: Self.uid, sequence: 1, stamp: "20260201T090000Z",
                                                           start: "20310303T110000Z", summary: "Older")])
        let newer = D.calendar(method: "REQUEST", [D.event(uid: Self.uid, sequence: 1, stamp: "20260202T090000Z",
                                                           start: "20310303T120000Z", summary: "Newer")])
        for ics in newerFirst ? [newer, older] : [older, newer] {
            let said = try d.deliver(D.mail(ics, from: "Alice <alice@example.org>"))
            #expect(said.held == nil, "\(said)")
        }
        let text = try d.text()
        #expect(text.contains("SUMMARY:Newer") && text.contains("DTSTART:20310303T120000Z"), "\(text)")
        #expect(!text.contains("SUMMARY:Older"))
    }
}
