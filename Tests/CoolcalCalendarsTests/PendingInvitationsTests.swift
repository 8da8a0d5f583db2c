import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalCalendars
@testable import CoolcalTestSupport

/// Invitations a scheduling server put in the calendar (issue 49): which events are pending.
@Suite struct PendingInvitationsTests {
    static let me: Set<String> = ["bob@example.com"]

    /// The pending invitations of one calendar's VEVENTs, looked at from 2026-12-06 for a year.
    func pending(_ body: String, name: String = "work") throws -> [PendingInvitation] {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + body + "END:VCALENDAR\r\n"
        let loaded = LoadedCalendar(name: name, color: nil, files: [try ICalReader.read(Data(text.utf8), file: "t.ics")])
        let expander = OccurrenceExpander(options: ExpansionOptions(floatingZone: .gmt, me: Array(Self.me)), diagnostics: Diagnostics())
        let window = TimeWindow(start: try utc("2026-12-06T00:00:00Z"), end: try utc("2027-12-06T00:00:00Z"))
        return PendingInvitations.find(in: [loaded], me: Self.me,
                                       occurrences: expander.occurrences(in: window, calendars: [loaded]))
    }

    static let olga = "ORGANIZER;CN=Olga:mailto:olga@example.com"

    @Test func needsActionWithoutRSVPIsPending() throws {
        let found = try pending(vevent("a", Self.olga, "SUMMARY:Plan", "SEQUENCE:2", "DTSTART:20261210T100000Z",
                                       "DTEND:20261210T110000Z", "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:Bob@Example.com"))
        #expect(found.map(\.uid) == ["a"])
        #expect(found.first?.calendar == "work")
        #expect(found.first?.summary == "Plan")
        #expect(found.first?.sequence == 2)
        #expect(found.first?.recurrenceIDs == [""])
        #expect(found.first?.occurrences.count == 1)
    }

    @Test func noPartstatIsPending() throws {
        let found = try pending(vevent("a", Self.olga, "DTSTART:20261210T100000Z", "ATTENDEE:mailto:bob@example.com"))
        #expect(found.map(\.uid) == ["a"])
    }

    @Test func answeredOrNotMeOrMineIsNotPending() throws {
        let accepted = vevent("acc", Self.olga, "DTSTART:20261210T100000Z", "ATTENDEE;PARTSTAT=ACCEPTED:mailto:bob@example.com")
        let other = vevent("oth", Self.olga, "DTSTART:20261210T100000Z", "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:carl@example.com")
        let mine = vevent("mine", "ORGANIZER:mailto:bob@example.com", "DTSTART:20261210T100000Z",
                          "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:bob@example.com")
        let noOrganizer = vevent("none", "DTSTART:20261210T100000Z", "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:bob@example.com")
        #expect(try pending(accepted + other + mine + noOrganizer).isEmpty)
    }

    @Test func pastOrBeyondAYearIsNotPending() throws {
        let past = vevent("past", Self.olga, "DTSTART:20261201T100000Z", "ATTENDEE:mailto:bob@example.com")
        let far = vevent("far", Self.olga, "DTSTART:20280101T100000Z", "ATTENDEE:mailto:bob@example.com")
        #expect(try pending(past + far).isEmpty)
    }

    @Test func aSeriesStartedInThePastWithInstancesAheadIsPendingOnce() throws {
        let found = try pending(vevent("s", Self.olga, "DTSTART:20261101T100000Z", "DTEND:20261101T110000Z",
                                       "RRULE:FREQ=WEEKLY;COUNT=8", "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:bob@example.com"))
        #expect(found.count == 1)
        // 2026-11-01 weekly, eight times: 12-06, 12-13, 12-20 are from now on.
        #expect(found.first?.occurrences.count == 3)
    }

    @Test func anOverrideStillPendingKeepsItsRecurrenceID() throws {
        let master = vevent("r", Self.olga, "DTSTART:20261207T100000Z", "RRULE:FREQ=DAILY;COUNT=3",
                            "ATTENDEE;PARTSTAT=ACCEPTED:mailto:bob@example.com")
        let moved = vevent("r", Self.olga, "RECURRENCE-ID:20261208T100000Z", "DTSTART:20261208T150000Z",
                           "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:bob@example.com")
        let found = try pending(master + moved)
        #expect(found.count == 1)
        #expect(found.first?.recurrenceIDs.count == 1)
        #expect(found.first?.recurrenceIDs.first?.isEmpty == false)
    }

    @Test func theRememberedKeyChangesWithTheTimesAlone() throws {
        let before = try pending(vevent("m", Self.olga, "DTSTART:20261210T100000Z", "ATTENDEE:mailto:bob@example.com"))
        let same = try pending(vevent("m", Self.olga, "SUMMARY:renamed", "DTSTART:20261210T100000Z", "ATTENDEE:mailto:bob@example.com"))
        let moved = try pending(vevent("m", Self.olga, "DTSTART:20261210T140000Z", "ATTENDEE:mailto:bob@example.com"))
        let key = try #require(before.first?.rememberedKey)
        #expect(same.first?.rememberedKey == key)
        #expect(moved.first?.rememberedKey != key)
        #expect(moved.first?.sequence == before.first?.sequence)
    }
}
