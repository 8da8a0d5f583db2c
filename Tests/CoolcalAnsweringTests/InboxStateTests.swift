import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalInvite
@testable import CoolcalState
@testable import CoolcalAnswering
@testable import CoolcalTestSupport

/// State/InboxStates: what `inbox` says of where each event stands now.
@Suite struct InboxStateTests {
    func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_800_000_000 + seconds) }

    @Test func updatedCancelledAndSuperseded() throws {
        let dir = stateDirectory("inbox-state")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try StateStore(directory: dir)
        // Answered, then a newer version came (not answered): updated.
        try store.inbox.record(stateInvite(.uid("moved@x"), "Moved"), payload: "v1", at: at(0))
        try store.recordAnswer(.accepted, for: stateInvite(.uid("moved@x"), "Moved"), comment: nil, at: at(10), queueFor: nil)
        #expect(try store.inbox.entries().first { $0.id == "moved@x" }?.state == .current)
        try store.inbox.record(stateInvite(.uid("moved@x"), "Moved", hour: 14), payload: "v2", at: at(20))
        #expect(try store.inbox.entries().first { $0.id == "moved@x" }?.state == .updated)
        // Cancelled by its organizer (a remembered cancellation): cancelled, and so is the
        // held cancellation beside it until something newer comes.
        try store.inbox.record(stateInvite(.uid("off@x"), "Off"), payload: "v1", at: at(30))
        var held = stateInvite(.uid("off@x"), "Off").summary
        held.id = "cancellation:off@x"
        held.kind = .cancellation
        try store.inbox.record(held, payload: "cancel", at: at(40))
        try store.tombstones.record(uid: "off@x", organizer: "alice@example.org", sequence: 1, stamp: 0, at: at(50))
        let states = try Dictionary(uniqueKeysWithValues: store.inbox.entries().map { ($0.id, $0.state) })
        #expect(states["off@x"] == .cancelled)
        #expect(states["cancellation:off@x"] == .cancelled)
        // A held update followed by a newer message of the event: superseded.
        var update = stateInvite(.uid("sync@x"), "Sync").summary
        update.id = "update:sync@x"
        try store.inbox.record(update, payload: "forged", at: at(60))
        try store.inbox.record(stateInvite(.uid("sync@x"), "Sync"), payload: "real", at: at(70))
        let later = try Dictionary(uniqueKeysWithValues: store.inbox.entries().map { ($0.id, $0.state) })
        #expect(later["update:sync@x"] == .superseded)
        #expect(later["sync@x"] == .current)
    }
}
