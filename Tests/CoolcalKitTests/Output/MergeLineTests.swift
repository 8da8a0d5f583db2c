import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalInvite
@testable import CoolcalAnswering
@testable import CoolcalOutput

/// Issue #31: a busy line in cron's mail names what the invitation conflicts with — up
/// to three, by title (cut at 60 characters) and start, then how many more.
@Suite struct MergeLineTests {
    static func item(conflicts: Int, named: [(String, Int64)]) throws -> MergeItem {
        let payload = #"{"title": "Budget review", "start": "2031-03-03T10:00:00Z", "end": "2031-03-03T11:00:00Z", "id": 5}"#
        let invite = try InviteLoader.parse(Data(payload.utf8), name: "5.json", floatingZone: TimeZone(identifier: "UTC") ?? .current)
        var item = MergeItem(name: "5.json", outcome: .busy, invite: invite, conflicts: conflicts)
        item.busyWith = named.map { ($0.0, OccurrenceTime.instant($0.1)) }
        return item
    }

    @Test func aBusyLineNamesItsConflicts() throws {
        let long = String(repeating: "Quarterly ", count: 10)
        let five = try Self.item(conflicts: 5, named: [("Dentist", 1_930_296_000), (long, 1_930_297_800), ("", 1_930_299_600)])
        #expect(MergeText.detail(five) == "5 conflicts: Dentist 2031-03-03T09:20:00Z, "
                + String(long.prefix(59)) + "… 2031-03-03T09:50:00Z, (no title) 2031-03-03T10:20:00Z, +2 more; not accepted")
        let one = try Self.item(conflicts: 1, named: [("Stand-up\u{202E}gnp", 1_930_296_000)])
        #expect(MergeText.detail(one) == "1 conflict: Stand-upgnp 2031-03-03T09:20:00Z; not accepted")
        var free = try Self.item(conflicts: 0, named: [])
        free.outcome = .free
        #expect(MergeText.detail(free) == "0 conflicts")
    }
}
