import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalInvite
@testable import CoolcalState
@testable import CoolcalAnswering
@testable import CoolcalTestSupport

/// State of invitations found pending in the calendars (issue 49).
@Suite struct CalendarInvitationStateTests {
    let at = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func foundInIsKeptAndAMailedEntryStaysOne() throws {
        let dir = stateDirectory("found-in")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try StateStore(directory: dir)
        // Mailed first, then found in a calendar: one entry, the mailed payload kept.
        try store.inbox.record(stateInvite(.uid("both@x"), "Both"), payload: "mailed", at: at)
        var found = stateInvite(.uid("both@x"), "Both").summary
        found.foundIn = "work"
        try store.inbox.record(found, payload: "calendar copy", at: at)
        // Found only in a calendar.
        var only = stateInvite(.uid("only@x"), "Only").summary
        only.foundIn = "home"
        try store.inbox.record(only, payload: "calendar copy", at: at)
        let entries = try store.inbox.entries()
        #expect(entries.count == 2)
        #expect(entries.first { $0.id == "both@x" }?.payload == "mailed")
        #expect(entries.first { $0.id == "both@x" }?.foundIn == "work")
        #expect(entries.first { $0.id == "only@x" }?.foundIn == "home")
    }

    @Test func aDecidedVersionIsRemembered() throws {
        let dir = stateDirectory("calendar-memory")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try StateStore(directory: dir)
        #expect(try !store.calendarInvitations.knows("u\n0\n\nabc"))
        try store.calendarInvitations.remember("u\n0\n\nabc", inviteID: "u", calendar: "work", at: at)
        #expect(try store.calendarInvitations.knows("u\n0\n\nabc"))
        #expect(try !store.calendarInvitations.knows("u\n1\n\nabc"))
    }
}
