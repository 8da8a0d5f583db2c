import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalState
@testable import CoolcalOutput
@testable import CoolcalTestSupport

/// Schema step 16 (issue 47, inbox titles as data) on a state the schema before it wrote:
/// the English titles `merge` stored for replies and counter-proposals, taken apart into
/// kind and fields where they can be, kept verbatim (`legacy`) where they cannot, and
/// said again exactly as the old coolcal said them.
@Suite struct TitleMigrationTests {
    /// (id, kind, organizer, title as the old `MergePass` wrote it, what it becomes).
    static let rows: [(String, String, String?, String, InboxTitle)] = [
        ("i1", "invitation", "olga@example.com", "Family Reunion", .event("Family Reunion")),
        ("i2", "cancellation", "olga@example.com", "Trip to Rome", .event("Trip to Rome")),
        ("r1", "reply", "bob@example.org", "bob@example.org accepted Team sync",
         .reply(attendee: "bob@example.org", partstat: "ACCEPTED", delegatedTo: [], event: "Team sync")),
        ("r2", "reply", "zoë@example.org", "zoë@example.org tentatively accepted Café ☕",
         .reply(attendee: "zoë@example.org", partstat: "TENTATIVE", delegatedTo: [], event: "Café ☕")),
        ("r3", "reply", "carol@example.org", "carol@example.org declined ",
         .reply(attendee: "carol@example.org", partstat: "DECLINED", delegatedTo: [], event: "")),
        ("r4", "reply", "dan@example.org", "dan@example.org answered (needs-action) Team sync",
         .reply(attendee: "dan@example.org", partstat: "needs-action", delegatedTo: [], event: "Team sync")),
        ("r5", "reply", "fay@example.org", "fay@example.org delegated Standup",
         .reply(attendee: "fay@example.org", partstat: "DELEGATED", delegatedTo: [], event: "Standup")),
        // A delegation or the event's own words: cannot be told apart.
        ("r6", "reply", "bob@example.org", "bob@example.org delegated Team sync to dave@example.org",
         .legacy("bob@example.org delegated Team sync to dave@example.org")),
        ("r7", "reply", "eve@example.org", "eve@example.org accepted Trip to Rome", .legacy("eve@example.org accepted Trip to Rome")),
        // Not what its row says (another attendee, an unknown verb): as it was.
        ("r8", "reply", "gus@example.org", "bob@example.org accepted Team sync", .legacy("bob@example.org accepted Team sync")),
        ("r9", "reply", "gus@example.org", "gus@example.org liked Team sync", .legacy("gus@example.org liked Team sync")),
        ("c1", "counter", "bob@example.org", "bob@example.org proposes a new time for Team sync",
         .counter(proposer: "bob@example.org", event: "Team sync")),
        ("c2", "counter", "", "someone proposes a new time for Lunch", .counter(proposer: "", event: "Lunch")),
        ("c3", "counter", "eve@example.org", "bob@example.org proposes a new time for Team sync",
         .legacy("bob@example.org proposes a new time for Team sync")),
    ]

    /// A state directory holding the schema before step 16, with `rows` as the old code stored them.
    static func oldState() throws -> String {
        let dir = stateDirectory("titles")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let step = try #require(StateSchema.steps.firstIndex(of: TitleMigration.step))
        let old = try SQLiteDatabase(path: dir + "/" + StateStore.fileName)
        for sql in StateSchema.steps.prefix(step) { try old.execute(sql) }
        try old.execute("PRAGMA user_version = \(step)")
        for (n, row) in rows.enumerated() {
            try old.prepare("""
                INSERT INTO invitations (id, title, start, "end", all_day, payload, received_at, read, organizer, kind)
                VALUES (?1, ?2, '2031-03-03T10:00:00Z', '2031-03-03T11:00:00Z', 0, '', ?3, 1, ?4, ?5)
                """).run([.text(row.0), .text(row.3), .real(Double(100 + n)), row.2.map(SQLiteValue.text) ?? .null, .text(row.1)])
        }
        return dir
    }

    @Test func oldEnglishTitlesBecomeKindAndFieldsOrStayVerbatim() throws {
        let dir = try Self.oldState()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try StateStore(directory: dir)
        #expect(try store.database.prepare("PRAGMA user_version").row { $0.int(0) } == Int64(StateSchema.steps.count))
        let entries = try store.inbox.entries()
        let byID = Dictionary(entries.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(entries.count == Self.rows.count)
        for row in Self.rows {
            let entry = try #require(byID[row.0])
            #expect(entry.title == row.4, "\(row.0)")
            // Said exactly as the old coolcal said it: in the list, `inbox open` and --json.
            #expect(InboxTitleText.text(entry.title) == row.3, "\(row.0)")
            #expect(InboxText.json(entry)["title"] == .string(row.3), "\(row.0)")
        }
    }

    @Test func aRecordedReplyOrCounterKeepsItsFieldsNotWords() throws {
        let dir = stateDirectory("titles-new")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try StateStore(directory: dir)
        let hour = OccurrenceTime.instant(1_800_000_000), later = OccurrenceTime.instant(1_800_003_600)
        var reply = InvitationSummary(id: "reply:1", title: "Team sync", start: hour, end: later, allDay: false, mail: nil,
                                      organizer: "bob@example.org", kind: .reply)
        reply.partstat = "DELEGATED"
        reply.delegatedTo = ["dave@example.org", "erin@example.org"]
        try store.inbox.record(reply, payload: "a", at: Date(timeIntervalSince1970: 100))
        let counter = InvitationSummary(id: "counter:2", title: "Lunch", start: hour, end: later, allDay: false, mail: nil,
                                        organizer: "", kind: .counter)
        try store.inbox.record(counter, payload: "b", at: Date(timeIntervalSince1970: 200))
        let stored = try store.database.prepare("SELECT title, title_kind, partstat, delegated_to FROM invitations ORDER BY rowid")
            .rows { [$0.text(0), $0.text(1), $0.text(2), $0.text(3)] }
        #expect(stored == [["Team sync", "reply", "DELEGATED", "dave@example.org\nerin@example.org"], ["Lunch", "counter", nil, nil]])
        let titles = try store.inbox.entries().map { InboxTitleText.text($0.title) }
        #expect(titles == ["someone proposes a new time for Lunch",
                           "bob@example.org delegated Team sync to dave@example.org, erin@example.org"])
    }

    /// The state this coolcal writes has one step more than the coolcal before knew: that
    /// one's check on open (`StateStore.newer`, with its own count) refuses it, 73.
    @Test func anOlderCoolcalRefusesTheUpgradedState() throws {
        let dir = stateDirectory("titles-newer")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let version = try Int(StateStore(directory: dir).database.prepare("PRAGMA user_version").row { $0.int(0) } ?? 0)
        let before = try #require(StateSchema.steps.firstIndex(of: TitleMigration.step))
        #expect(version == before + 1)
        let refusal = try #require(StateStore.newer(version, supported: before, path: dir + "/state.db"))
        #expect(refusal.description.contains("written by a newer coolcal (schema \(version)); upgrade coolcal"), "\(refusal)")
        #expect(refusal.exitStatus.rawValue == 73)
        #expect(StateStore.newer(version, path: dir + "/state.db") == nil, "this coolcal opens its own state")
    }
}
