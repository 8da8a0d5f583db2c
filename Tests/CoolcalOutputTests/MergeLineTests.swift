import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalInvite
@testable import CoolcalAnswering
@testable import CoolcalOutput

/// Issue #31: a busy line in cron's mail names what the invitation conflicts with — up
/// to three, by title (cut at 60 characters) and start, then how many more. Issue #46
/// item 7: the line's starts are local, as `conflicts` shows times; the JSON's `detail`
/// (a machine line) keeps UTC.
@Suite struct MergeLineTests {
    /// Berlin, US English, ASCII (LC_ALL=C's punctuation).
    static var berlin: DateText {
        DateText(style: TextStyle(locale: Locale(identifier: "en_US_POSIX"), zone: TimeZone(identifier: "Europe/Berlin") ?? .current,
                                  color: false, unicode: false, terminal: false))
    }

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
        #expect(MergeText.detail(five, dates: nil) == "5 conflicts: Dentist 2031-03-03T09:20:00Z, "
                + String(long.prefix(59)) + "… 2031-03-03T09:50:00Z, (no title) 2031-03-03T10:20:00Z, +2 more; not accepted")
        let one = try Self.item(conflicts: 1, named: [("Stand-up\u{202E}gnp", 1_930_296_000)])
        #expect(MergeText.detail(one, dates: nil) == "1 conflict: Stand-upgnp 2031-03-03T09:20:00Z; not accepted")
        var free = try Self.item(conflicts: 0, named: [])
        free.outcome = .free
        #expect(MergeText.detail(free, dates: nil) == "0 conflicts")
    }

    @Test func aLineShowsItsStartsLocally() throws {
        let one = try Self.item(conflicts: 1, named: [("Dentist", 1_930_296_000)])
        #expect(MergeText.detail(one, dates: Self.berlin) == "1 conflict: Dentist Mar 3, 2031, 10:20 AM; not accepted")
        var text = MergeText(json: false, dates: Self.berlin)
        #expect(text.add(one) == "busy      5.json  Budget review  Mar 3, 2031, 11:00 AM  (1 conflict: Dentist Mar 3, 2031, 10:20 AM; not accepted)")
        #expect(text.notice(one) == "busy: 1 conflict: Dentist Mar 3, 2031, 10:20 AM; not accepted")
        // --json: UTC in `start` and in `detail`.
        var json = MergeText(json: true, dates: Self.berlin)
        #expect(json.add(one) == nil)
        let document = json.document("spool")
        #expect(document.contains(#""start": "2031-03-03T10:00:00Z""#), "\(document)")
        #expect(document.contains(#""detail": "1 conflict: Dentist 2031-03-03T09:20:00Z; not accepted""#), "\(document)")
    }

    /// The formatter is made when a line first shows a time, once: making it loads ICU's
    /// zone and locale data (5.5 MB of peak RSS), which a `merge` that says nothing never needs
    /// (issue #48: the no-op Maildir run within `--version` + 5 MB).
    @Test func theFormatterIsMadeForTheFirstLineThatShowsATime() throws {
        final class Count { var made = 0 }
        let count = Count()
        func counted() -> DateText {
            count.made += 1
            return Self.berlin
        }
        let one = try Self.item(conflicts: 1, named: [("Dentist", 1_930_296_000)])
        var json = MergeText(json: true, dates: counted())
        #expect(json.add(one) == nil)
        _ = json.document("spool")
        var text = MergeText(json: false, dates: counted())
        #expect(count.made == 0, "a JSON run and a run that has said nothing made a formatter")
        #expect(text.add(MergeItem(name: "6.json", outcome: .free, invite: nil, conflicts: 0)) == "free      6.json")
        #expect(count.made == 0, "a line without a time made a formatter")
        #expect(text.add(one)?.contains("Mar 3, 2031, 11:00 AM") == true)
        _ = text.add(one)
        #expect(text.dates.zoneLine.isEmpty == false)
        #expect(count.made == 1)
    }

    /// A time alone is the first end of a range; in the repeated hour it carries its offset.
    @Test func aTimeAloneIsTheStartOfARange() {
        #expect(Self.berlin.at(.instant(1_930_296_000)) == "Mar 3, 2031, 10:20 AM")
        // 2026-10-25T00:30:00Z is 2:30 AM CEST; an hour later it is 2:30 AM CET.
        #expect(Self.berlin.at(.instant(1_792_888_200)) == "Oct 25, 2026, 2:30 AM +02")
        #expect(Self.berlin.at(.instant(1_792_891_800)) == "Oct 25, 2026, 2:30 AM +01")
        #expect(Self.berlin.at(.date(CivilDateTime(year: 2026, month: 12, day: 8))) == "Dec 8, 2026 (all day)")
    }
}
