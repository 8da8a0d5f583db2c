import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalCalendars
@testable import CoolcalInvite
@testable import CoolcalSchedule
@testable import CoolcalTestSupport

@Suite struct ScheduleTests {
    @Test(arguments: [
        ("2h", 0, 7200), ("90m", 0, 5400), ("1h30m", 0, 5400), ("0", 0, 0), ("45s", 0, 45),
        ("1d", 1, 0), ("1w2d", 9, 0), ("PT2H", 0, 7200), ("P1DT1H", 1, 3600),
    ])
    func bufferSyntax(_ text: String, _ days: Int, _ seconds: Int) {
        #expect(Buffer(parsing: text) == Buffer(days: days, seconds: seconds))
    }

    @Test(arguments: ["", "2", "h", "2x", "-2h", "2h30", "99999999h", "367d", "100000w100000w"])
    func badBuffers(_ text: String) {
        #expect(Buffer(parsing: text) == nil)
    }

    @Test func buffersOverAYearAreTooLongNotMalformed() {
        #expect(Buffer(parsing: "366d") == Buffer(days: 366, seconds: 0))
        #expect(Buffer(parsing: "99999h") == nil)
        #expect(Buffer.isTooLong("99999h"))
        #expect(Buffer.isTooLong("367d"))
        #expect(Buffer.isTooLong("100000w100000w"))
        #expect(!Buffer.isTooLong("366d"))
        #expect(!Buffer.isTooLong("100001h"))
        #expect(!Buffer.isTooLong("soon"))
    }

    @Test func windowUsesCalendarArithmetic() throws {
        // A one-day buffer across the New York spring-forward is 23 hours, not 86,400 s:
        // 12:00 EDT on the 10th minus one day is 12:00 EST on the 9th (17:00Z).
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        let invite = Invite(id: .number(1), title: "T", start: .instant(try utc("2024-03-10T16:00:00Z")),
                            end: .instant(try utc("2024-03-10T17:00:00Z")), source: "x")
        let window = ConflictFinder(buffer: Buffer(days: 1, seconds: 0), zone: zone).window(for: invite)
        #expect(window.start == (try utc("2024-03-09T17:00:00Z")))
        #expect(window.end == (try utc("2024-03-11T17:00:00Z")))
    }

    @Test func overlapRule() {
        let w = TimeWindow(start: 100, end: 200)
        #expect(w.overlaps(start: 50, end: 101))
        #expect(!w.overlaps(start: 50, end: 100))
        #expect(!w.overlaps(start: 200, end: 300))
        #expect(w.overlaps(start: 100, end: 100))
        #expect(!w.overlaps(start: 200, end: 200))
    }

    func occurrence(_ uid: String, _ s: String, _ e: String, transparent: Bool = false) throws -> Occurrence {
        Occurrence(uid: uid, recurrenceID: nil, summary: uid, calendar: "c", calendarColor: nil,
                   start: .instant(try utc(s)), end: .instant(try utc(e)), startInstant: try utc(s),
                   endInstant: try utc(e), allDay: false, transparent: transparent, status: nil,
                   declinedByOwner: false, inviteID: uid == "self" ? "7" : nil)
    }

    @Test func relationsAndIgnored() throws {
        let invite = Invite(id: .number(7), title: "T", start: .instant(try utc("2024-01-01T10:00:00Z")),
                            end: .instant(try utc("2024-01-01T12:00:00Z")), source: "x")
        let finder = ConflictFinder(buffer: .standard, zone: TimeZone(secondsFromGMT: 0)!)
        let report = finder.report(for: invite, occurrences: [
            try occurrence("edge-before", "2024-01-01T07:00:00Z", "2024-01-01T08:00:00Z"),
            try occurrence("before", "2024-01-01T07:30:00Z", "2024-01-01T08:30:00Z"),
            try occurrence("touching", "2024-01-01T09:00:00Z", "2024-01-01T10:00:00Z"),
            try occurrence("inside", "2024-01-01T11:00:00Z", "2024-01-01T11:30:00Z"),
            try occurrence("after", "2024-01-01T13:59:00Z", "2024-01-01T15:00:00Z"),
            try occurrence("edge-after", "2024-01-01T14:00:00Z", "2024-01-01T15:00:00Z"),
            try occurrence("free", "2024-01-01T11:00:00Z", "2024-01-01T11:30:00Z", transparent: true),
            try occurrence("self", "2024-01-01T10:00:00Z", "2024-01-01T12:00:00Z"),
        ])
        #expect(report.window == TimeWindow(start: try utc("2024-01-01T08:00:00Z"), end: try utc("2024-01-01T14:00:00Z")))
        #expect(report.conflicts.map { "\($0.occurrence.uid!):\($0.relation.rawValue)" } ==
                ["before:before", "touching:before", "inside:overlaps", "after:after"])
        #expect(report.ignored.map { "\($0.occurrence.uid!):\($0.reason.rawValue)" } ==
                ["free:transparent", "self:this invitation"])
        #expect(!report.free)
    }
}
