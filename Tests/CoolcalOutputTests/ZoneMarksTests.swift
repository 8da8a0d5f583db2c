import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalCalendars
@testable import CoolcalInvite
@testable import CoolcalSchedule
@testable import CoolcalOutput
@testable import CoolcalTestSupport

/// Zone-honest times: an offset on each end of a range that is ambiguous (New York's
/// repeated 1 o'clock hour) or crosses a change of offset, nothing on any other.
@Suite struct ZoneMarksTests {
    let newYork = TimeZone(identifier: "America/New_York")!

    func dates(unicode: Bool = true, zone: TimeZone? = nil) -> DateText {
        DateText(style: TextStyle(locale: Locale(identifier: "en_US"), zone: zone ?? newYork, color: false,
                                  unicode: unicode, terminal: false))
    }

    @Test func theRepeatedHourIsAmbiguousAndNothingElse() throws {
        let marks = ZoneMarks(zone: newYork)
        #expect(marks.ambiguous(try utc("2026-11-01T05:30:00Z")), "1:30 EDT")
        #expect(marks.ambiguous(try utc("2026-11-01T06:30:00Z")), "1:30 EST")
        #expect(!marks.ambiguous(try utc("2026-11-01T04:30:00Z")), "0:30 EDT")
        #expect(!marks.ambiguous(try utc("2026-11-01T07:00:00Z")), "2:00 EST")
        #expect(!marks.ambiguous(try utc("2026-03-08T07:30:00Z")), "3:30 EDT, after the spring gap")
        #expect(marks.crossesTransition(start: try utc("2026-11-01T04:00:00Z"), end: try utc("2026-11-01T08:00:00Z")))
        #expect(!marks.crossesTransition(start: try utc("2026-11-01T07:00:00Z"), end: try utc("2026-11-01T08:00:00Z")))
        #expect(marks.offsetText(try utc("2026-11-01T05:30:00Z")) == "-04")
        #expect(ZoneMarks(zone: TimeZone(identifier: "Asia/Kolkata")!).offsetText(0) == "+0530")
        #expect(ZoneMarks(zone: TimeZone(identifier: "UTC")!).line == "times in UTC")
        #expect(ZoneMarks(zone: TimeZone(identifier: "Europe/Berlin")!).line == "times in Europe/Berlin")
    }

    @Test func theTwoHalfPastOnesAreDistinguishable() throws {
        let first = OccurrenceTime.instant(try utc("2026-11-01T05:30:00Z"))
        let second = OccurrenceTime.instant(try utc("2026-11-01T06:30:00Z"))
        #expect(dates().range(start: first, end: second) == "Nov 1, 2026, 1:30\u{202F}AM -04\u{2009}–\u{2009}1:30\u{202F}AM -05")
        #expect(dates(unicode: false).range(start: first, end: second) == "Nov 1, 2026, 1:30 AM -04 - 1:30 AM -05")
        #expect(dates().short(start: first, end: second) == "11/1/26, 1:30\u{202F}AM -04\u{2009}–\u{2009}1:30\u{202F}AM -05")
        // A half hour in the second 1 o'clock hour: ambiguous though it crosses nothing.
        let later = OccurrenceTime.instant(try utc("2026-11-01T07:00:00Z"))
        #expect(dates(unicode: false).range(start: second, end: later) == "Nov 1, 2026, 1:30 AM -05 - 2:00 AM -05")
    }

    @Test func aRangeAcrossTheChangeCarriesOffsets() throws {
        let start = OccurrenceTime.instant(try utc("2026-11-01T04:00:00Z"))
        let end = OccurrenceTime.instant(try utc("2026-11-01T08:00:00Z"))
        #expect(dates(unicode: false).range(start: start, end: end) == "Nov 1, 2026, 12:00 AM -04 - 3:00 AM -05")
        let window = TimeWindow(start: try utc("2026-10-31T23:00:00Z"), end: try utc("2026-11-01T08:00:00Z"))
        #expect(dates(unicode: false).timeRange(window) == "Oct 31, 2026, 7:00 PM -04 - Nov 1, 2026, 3:00 AM -05")
    }

    @Test func anOrdinaryRangeHasNone() throws {
        let start = OccurrenceTime.instant(try utc("2026-06-10T12:00:00Z"))
        let end = OccurrenceTime.instant(try utc("2026-06-10T13:00:00Z"))
        #expect(dates(unicode: false).range(start: start, end: end) == "Jun 10, 2026, 8:00 - 9:00 AM")
        let window = TimeWindow(start: try utc("2026-06-10T11:00:00Z"), end: try utc("2026-06-10T14:00:00Z"))
        #expect(dates(unicode: false).timeRange(window) == "7:00 - 10:00 AM")
    }

    /// `conflicts` text: in a window across the change every time carries its offset,
    /// even an event wholly before it.
    @Test func conflictsInAWindowAcrossTheChange() throws {
        let invite = Invite(id: .number(1), title: "Night train", start: .instant(try utc("2026-11-01T05:30:00Z")),
                            end: .instant(try utc("2026-11-01T06:30:00Z")), source: "x")
        let early = Occurrence(uid: "e", recurrenceID: nil, summary: "Early", calendar: "c", calendarColor: nil,
                               start: .instant(try utc("2026-11-01T04:00:00Z")), end: .instant(try utc("2026-11-01T04:30:00Z")),
                               startInstant: try utc("2026-11-01T04:00:00Z"), endInstant: try utc("2026-11-01T04:30:00Z"),
                               allDay: false, transparent: false, status: nil, declinedByOwner: false, inviteID: nil)
        let report = ConflictReport(invite: invite, span: TimeWindow(start: try utc("2026-11-01T05:30:00Z"), end: try utc("2026-11-01T06:30:00Z")),
                                    window: TimeWindow(start: try utc("2026-11-01T04:00:00Z"), end: try utc("2026-11-01T07:30:00Z")),
                                    buffer: Buffer(days: 0, seconds: 5400), conflicts: [Conflict(occurrence: early, relation: .before)],
                                    ignored: [])
        let style = TextStyle(locale: Locale(identifier: "en_US"), zone: newYork, color: false, unicode: false, terminal: false)
        let text = ConflictsText(style: style).render(report)
        #expect(text.hasPrefix("Night train\n  Nov 1, 2026, 1:30 AM -04 - 1:30 AM -05\n"))
        #expect(text.contains("): 12:00 AM -04 - 2:30 AM -05\n  times in America/New_York\n"))
        #expect(text.contains("  * Nov 1, 2026, 12:00 AM -04 - 12:30 AM -04  Early  [c]"))
    }
}
