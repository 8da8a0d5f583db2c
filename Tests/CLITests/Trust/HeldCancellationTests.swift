import Foundation
import Testing

/// A held cancellation buries nothing (issue #47, item 3): a cancellation that does not
/// pass the trust rules is held for the person and leaves no tombstone, so the
/// organizer's later update of the event is still applied. (Only the `held` guard of
/// `MergePass.tombstone` stands between a forged CANCEL with the highest SEQUENCE and
/// every later version of the event: removing it fails this test.)
@Suite struct HeldCancellationTests {
    typealias D = BorrowedNameDesk
    static let uid = "held-cancel@example.org"

    @Test(arguments: D.Way.allCases) func aHeldCancellationLeavesTheEventOpenToItsOrganizer(_ way: D.Way) throws {
        var d = try D(way)
        let invited = try d.deliver(D.mail(D.calendar(method: "REQUEST", [D.event(uid: Self.uid)]), from: "Alice <alice@example.org>"))
        #expect(invited.held == nil && (invited.outcome == "accepted" || invited.outcome == "added (accepted)"), "\(invited)")
        #expect(try d.text().contains("UID:\(Self.uid)"))

        // Mallory cancels Alice's stored event under her name, with the highest SEQUENCE.
        let before = try d.bytes()
        let forged = D.calendar(method: "CANCEL", [D.event(uid: Self.uid, sequence: 2147483647, extra: ["STATUS:CANCELLED"])])
        let said = try d.deliver(D.mail(forged, from: "Mallory <mallory@evil.example>", method: "CANCEL"))
        #expect(said.held == "not from the organizer", "\(said)")
        #expect(try d.bytes() == before, "the calendar changed")

        // Alice moves it (SEQUENCE 1): applied, not "cancelled by its organizer".
        let update = D.calendar(method: "REQUEST", [D.event(uid: Self.uid, sequence: 1, stamp: "20260102T090000Z",
                                                            start: "20310304T100000Z")])
        let moved = try d.deliver(D.mail(update, from: "Alice <alice@example.org>"))
        #expect(moved.held == nil && (moved.outcome == "accepted" || moved.outcome == "updated (accepted)"), "\(moved)")
        let text = try d.text()
        #expect(text.contains("DTSTART:20310304T100000Z") && !text.contains("DTSTART:20310303T100000Z"), "\(text)")
    }
}
