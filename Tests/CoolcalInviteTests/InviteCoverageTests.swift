import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalInvite

/// The time an invitation covers (`InviteCoverage`, issue #43): busy time summed over
/// 30 days from each instance start, the bound of ten years or 10,000 instances.
@Suite struct InviteCoverageTests {
    static let day: Int64 = 86_400
    static let fortnight = 14 * day

    func invite(_ lines: [String]) throws -> Invite {
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Coverage//EN", "METHOD:REQUEST"] + lines
            + ["END:VCALENDAR", ""]).joined(separator: "\r\n")
        return try ITIPInvite.parse(Data(text.utf8), file: "coverage.ics", floatingZone: TimeZone(secondsFromGMT: 0) ?? .current, coverage: true)
    }

    func event(_ body: [String], uid: String = "c@example.org") -> [String] {
        ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260101T000000Z", "ORGANIZER:mailto:alice@example.org"] + body + ["END:VEVENT"]
    }

    func busiest(_ spans: [TimeWindow], over length: Int64) -> InviteCoverage.Busiest? {
        InviteCoverage.busiest(spans, from: spans.map(\.start), over: length)
    }

    @Test func busyTimeIsTheSumOfOverlapsFromEachInstanceStart() {
        // [0,10) and [5,15) overlap: from 0, 10 + 5 of the second; from 5, 5 of the first
        // + 10; from 20, 10. The earliest of the busiest is given.
        let spans = [TimeWindow(start: 0, end: 10), TimeWindow(start: 5, end: 15), TimeWindow(start: 20, end: 30)]
        #expect(busiest(spans, over: 10).map { [$0.start, $0.busy] } == [0, 15])
        // Over 100: from 0, all 30; from 5, 5 of [0,10) + 10 + 10.
        #expect(busiest(spans, over: 100).map { [$0.start, $0.busy] } == [0, 30])
        // A span running when the window opens counts from there: from 50, 20 of [0,100) + 10.
        #expect(busiest([TimeWindow(start: 0, end: 100), TimeWindow(start: 50, end: 60)], over: 20)
            .map { [$0.start, $0.busy] } == [50, 30])
        #expect(busiest([], over: 10) == nil)
        // Spans start at every instance's start, a free one's too: over 20, from a
        // transparent instance at 8, 2 of [0,10) + 10 + 10 of the two [18,28); from 0
        // only 10 + 2 + 2, from 18 only 20.
        let twice = [TimeWindow(start: 0, end: 10), TimeWindow(start: 18, end: 28), TimeWindow(start: 18, end: 28)]
        #expect(busiest(twice, over: 20).map { [$0.start, $0.busy] } == [18, 20])
        #expect(InviteCoverage.busiest(twice, from: [0, 8, 18, 18], over: 20).map { [$0.start, $0.busy] } == [8, 22])
    }

    @Test func exactlyMaxDurationIn30DaysIsNotTooLongOneMinuteMoreIs() {
        // 28 daily 12-hour shifts: 14 days busy in the 30 days from the first.
        let shifts = (0..<28).map { TimeWindow(start: $0 * Self.day, end: $0 * Self.day + Self.day / 2) }
        let exact = InviteCoverage(busy: shifts, longest: shifts.first, examined: shifts.count)
        #expect(exact.busiest.map { [$0.start, $0.busy] } == [0, Self.fortnight])
        #expect(exact.excess(over: Self.fortnight) == nil)
        var longer = shifts
        longer[27].end += 60
        let minute = InviteCoverage(busy: longer, longest: longer[27], examined: longer.count)
        #expect(minute.excess(over: Self.fortnight) == .busy(from: 0, seconds: Self.fortnight + 60))
        // The 29th shift starts 28 days in: inside the 30 days, so it counts too.
        let more = shifts + [TimeWindow(start: 28 * Self.day, end: 28 * Self.day + 60)]
        #expect(InviteCoverage(busy: more, longest: shifts.first, examined: more.count).excess(over: Self.fortnight)
            == .busy(from: 0, seconds: Self.fortnight + 60))
        // One past the 30 days does not.
        let outside = shifts + [TimeWindow(start: 30 * Self.day, end: 30 * Self.day + 60)]
        #expect(InviteCoverage(busy: outside, longest: shifts.first, examined: outside.count).excess(over: Self.fortnight) == nil)
        // An instance of exactly the limit is not too long; a minute more is.
        let fortnight = TimeWindow(start: 0, end: Self.fortnight)
        #expect(InviteCoverage(busy: [], longest: fortnight, examined: 1).excess(over: Self.fortnight) == nil)
        let over = TimeWindow(start: 0, end: Self.fortnight + 60)
        #expect(InviteCoverage(busy: [], longest: over, examined: 1).excess(over: Self.fortnight) == .instance(over))
    }

    @Test func rulePeriodsAndOverridesCountTogetherOnlyBusyOnes() throws {
        // A weekly hour whose second instance is moved and made 13 days long, a RDATE
        // period of 2 days, a cancelled third instance, a transparent fourth.
        let parsed = try invite(event(["DTSTART:20310303T100000Z", "DURATION:PT1H", "RRULE:FREQ=WEEKLY;COUNT=5",
                                       "RDATE;VALUE=PERIOD:20310304T000000Z/P2D"])
            + event(["RECURRENCE-ID:20310310T100000Z", "DTSTART:20310310T100000Z", "DURATION:P13D"])
            + event(["RECURRENCE-ID:20310317T100000Z", "DTSTART:20310317T100000Z", "DURATION:PT1H", "STATUS:CANCELLED"])
            + event(["RECURRENCE-ID:20310324T100000Z", "DTSTART:20310324T100000Z", "DURATION:P1D", "TRANSP:TRANSPARENT"]))
        let coverage = try #require(parsed.coverage)
        // 5 rule instances − the cancelled one + the period.
        #expect(coverage.examined == 5)
        #expect(coverage.cut == nil)
        #expect(coverage.busyCount == 4)
        #expect(coverage.longest.map { $0.end - $0.start } == 13 * Self.day)
        // From 03-03 10:00: 1 h + 2 d + 13 d + (03-31 10:00, the last) 1 h; the transparent day is free.
        #expect(coverage.busiest?.busy == 15 * Self.day + 2 * 3_600)
    }

    @Test func shownAsFreeIsNotBusy() throws {
        // Outlook's "Show as: Free" on a series of 13-day instances, one a day.
        let free = try #require(try invite(event(["DTSTART:20310303T100000Z", "DURATION:P13D", "RRULE:FREQ=DAILY;COUNT=30",
                                                  "X-MICROSOFT-CDO-BUSYSTATUS:FREE"])).coverage)
        #expect(free.examined == 30)
        #expect(free.busyCount == 0)
        #expect(free.excess(over: Self.fortnight) == nil)
    }

    @Test func aRuleNotExpandedIsNotCountedAsOneInstance() throws {
        // Each Monday at 09:00 as a SECONDLY rule: 604,800 steps apart, more than expansion
        // walks, so only DTSTART would be seen — a bound reached.
        let sparse = try #require(try invite(event(["DTSTART:20310303T090000Z", "DURATION:PT1H",
                                                    "RRULE:FREQ=SECONDLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0"])).coverage)
        #expect(sparse.cut?.hasPrefix("its rule is not expanded (its instances can be") == true, "\(String(describing: sparse.cut))")
        // A rule that can never match gives DTSTART alone everywhere: nothing cut.
        let never = try #require(try invite(event(["DTSTART:20310303T100000Z", "DURATION:PT1H",
                                                   "RRULE:FREQ=HOURLY;INTERVAL=2;BYHOUR=3"])).coverage)
        #expect(never.cut == nil)
        #expect(never.examined == 1)
    }

    @Test func theCountStopsAtTenThousandInstances() throws {
        // An hourly rule without end: the expansion stops at the bound, not at the 87,660
        // instances of ten years (the work is bounded), and says it stopped.
        let endless = try #require(try invite(event(["DTSTART:20310303T100000Z", "DURATION:PT1M", "RRULE:FREQ=HOURLY"])).coverage)
        #expect(endless.examined == 10_000)
        #expect(endless.cut == "more than 10,000 instances")
        #expect(endless.cut != nil)
        if case .bound? = endless.excess(over: Self.fortnight) {} else { Issue.record("\(String(describing: endless.excess(over: Self.fortnight)))") }
        // Exactly 10,000 is all there is: nothing cut; one more is cut.
        let exact = try #require(try invite(event(["DTSTART:20310303T100000Z", "DURATION:PT1M", "RRULE:FREQ=HOURLY;COUNT=10000"])).coverage)
        #expect(exact.examined == 10_000)
        #expect(exact.cut == nil)
        let more = try #require(try invite(event(["DTSTART:20310303T100000Z", "DURATION:PT1M", "RRULE:FREQ=HOURLY;COUNT=10001"])).coverage)
        #expect(more.examined == 10_000)
        #expect(more.cut != nil)
        // Ten years of a weekly hour: counted to the ten years' end, not beyond.
        let weekly = try #require(try invite(event(["DTSTART:20310303T100000Z", "DURATION:PT1H", "RRULE:FREQ=WEEKLY"])).coverage)
        #expect(weekly.examined == 522)
        #expect(weekly.cut == nil)
        #expect(weekly.excess(over: Self.fortnight) == nil)
    }
}
