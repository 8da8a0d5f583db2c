import Foundation
import Testing

/// `merge` holds what no person would accept unseen (issue #27): an event longer than
/// `max-duration` (default 14 days; a year-long "blocker" would make every real
/// invitation busy) and a rule with more than 24 instances in a day. Issue #43: "too
/// long" is the time the invitation covers — its instances (rule, RDATE periods and
/// overrides together) busy more than `max-duration` of any 30 days is held too.
@Suite struct OutsizedTests {
    typealias T = OrganizerBindingTests

    func merge(_ box: HeldMergeTests.Box, config: String? = nil) throws -> [[String: Any]] {
        let run = try box.merge(config: config)
        #expect(run.status == 0, "\(run.stderr)")
        return try box.outcomes(run)
    }

    @Test func aYearLongBlockerIsHeldUnlessTheConfigAllowsIt() throws {
        let b = try HeldMergeTests().box()
        let blocker = T.message(uid: "blocker@spam.example").replacingOccurrences(of: "DURATION:PT1H", with: "DURATION:P365D")
        try b.deliver("1.blocker", T.mail(blocker, from: "Alice <alice@example.org>"))
        let before = try b.bytes()
        let held = try merge(b)
        #expect(held.map { $0["held"] as? String } == ["too long"])
        #expect((held.first?["detail"] as? String)?.contains("it lasts 365.0 days; max-duration is 14 days") == true, "\(held)")
        #expect(try b.bytes() == before)
        #expect(b.mailed().isEmpty)
        // Fourteen days exactly is not longer than the default.
        let fortnight = T.message(uid: "course@example.org").replacingOccurrences(of: "DURATION:PT1H", with: "DURATION:P14D")
        try b.deliver("2.course", T.mail(fortnight, from: "Alice <alice@example.org>"))
        #expect(try merge(b).map { $0["outcome"] as? String } == ["accepted"])
        // A configured maximum replaces the default; a bad one is 78, naming the line.
        try b.deliver("3.long", T.mail(T.message(start: "20310601T100000Z", uid: "retreat@example.org")
            .replacingOccurrences(of: "DURATION:PT1H", with: "DURATION:P20D"), from: "Alice <alice@example.org>"))
        let bad = try b.merge(config: "max-duration = forever\n")
        #expect(bad.status == 78)
        #expect(bad.stderr.contains("config: line 1: max-duration 'forever' is not a duration"), "\(bad.stderr)")
        #expect(try merge(b, config: "max-duration = 30d\n").map { $0["outcome"] as? String } == ["accepted"])
    }

    @Test func aRuleThatFloodsADayIsHeld() throws {
        let b = try HeldMergeTests().box()
        let flood = T.message(uid: "flood@spam.example").replacingOccurrences(of: "DURATION:PT1H", with: "DURATION:PT5M\r\nRRULE:FREQ=MINUTELY;INTERVAL=30;COUNT=60")
        try b.deliver("1.flood", T.mail(flood, from: "Alice <alice@example.org>"))
        let before = try b.bytes()
        let held = try merge(b)
        #expect(held.map { $0["held"] as? String } == ["too many instances a day"], "\(held)")
        #expect(try b.bytes() == before)
        // Hourly, 24 a day, is not more than the limit.
        let hourly = T.message(uid: "hourly@example.org").replacingOccurrences(of: "DURATION:PT1H", with: "DURATION:PT5M\r\nRRULE:FREQ=HOURLY;COUNT=24")
        try b.deliver("2.hourly", T.mail(hourly, from: "Alice <alice@example.org>"))
        #expect(try merge(b).map { $0["outcome"] as? String } == ["accepted"])
    }

    // MARK: - The time an invitation covers (issue #43)

    /// The invitation from Alice (known) with `master` in place of its one hour, and
    /// `overrides` (VEVENT bodies) after it.
    static func series(_ uid: String, _ master: String, overrides: [[String]] = []) -> String {
        let blocks = overrides.map { body in
            (["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260101T090000Z", "SEQUENCE:0", "SUMMARY:Planning",
              "ORGANIZER;CN=Organizer:mailto:alice@example.org",
              "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:\(OrganizerBindingTests.me)"] + body + ["END:VEVENT", ""])
                .joined(separator: "\r\n")
        }.joined()
        return T.message(uid: uid).replacingOccurrences(of: "DURATION:PT1H", with: master)
            .replacingOccurrences(of: "END:VEVENT\r\nEND:VCALENDAR", with: "END:VEVENT\r\n" + blocks + "END:VCALENDAR")
    }

    /// The one outcome of merging `ics` from Alice into a fresh box, checked to have
    /// held it: the calendar byte-identical, nothing mailed, in `inbox --held` with its
    /// reason.
    func held(_ ics: String, config: String? = nil) throws -> [String: Any] {
        let b = try HeldMergeTests().box()
        try b.deliver("1.invite", T.mail(ics, from: "Alice <alice@example.org>"))
        let before = try b.bytes()
        let outcomes = try merge(b, config: config)
        #expect(outcomes.count == 1)
        #expect(try b.bytes() == before)
        #expect(b.mailed().isEmpty)
        let inbox = try Binary.run(["inbox", "--state", b.root + "/state", "--held", "--json"])
        let entries = try Binary.json(inbox.stdout)["invitations"] as? [[String: Any]] ?? []
        #expect(entries.map { $0["held"] as? String } == [outcomes.first?["held"] as? String], "\(inbox.stdout)")
        return outcomes.first ?? [:]
    }

    /// The outcome of merging `ics` from Alice into a fresh box.
    func merged(_ ics: String, config: String? = nil) throws -> String? {
        let b = try HeldMergeTests().box()
        try b.deliver("1.invite", T.mail(ics, from: "Alice <alice@example.org>"))
        return try merge(b, config: config).first?["outcome"] as? String
    }

    /// Every instance under 14 days, one starting each day: years of the calendar busy.
    @Test func aThirteenDayEventRepeatingDailyIsHeld() throws {
        let held = try held(Self.series("daily13@spam.example", "DURATION:P13DT23H\r\nRRULE:FREQ=DAILY"))
        #expect(held["held"] as? String == "too long", "\(held)")
        let detail = held["detail"] as? String ?? ""
        #expect(detail.hasPrefix("too long: busy ") && detail.hasSuffix("in the 30 days from 2031-03-16; max-duration is 14 days"), "\(detail)")
    }

    /// 24 one-hour instances a day are not more than `too many instances a day` allows,
    /// and `too long` comes first anyway: it is held as too long.
    @Test func anHourlyOneHourEventIsTooLong() throws {
        let held = try held(Self.series("hourly@spam.example", "DURATION:PT1H\r\nRRULE:FREQ=HOURLY"))
        #expect(held["held"] as? String == "too long", "\(held)")
        #expect(held["detail"] as? String == "too long: busy 30.0 days in the 30 days from 2031-03-03; max-duration is 14 days", "\(held)")
    }

    /// 300 back-to-back 13-day periods after a 13-day first instance.
    @Test func backToBackRDatePeriodsAreHeld() throws {
        let first = try #require(ISO8601DateFormatter().date(from: "2031-03-03T10:00:00Z"))
        let stamp = ISO8601DateFormatter()
        stamp.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        let periods = (1...300).map { n in
            "RDATE;VALUE=PERIOD:" + stamp.string(from: first.addingTimeInterval(Double(n * 13 * 86_400))) + "/P13D"
        }
        let ics = Self.series("periods@spam.example", (["DURATION:P13D"] + periods).joined(separator: "\r\n"))
        #expect(ics.contains("RDATE;VALUE=PERIOD:20310316T100000Z/P13D"))
        let held = try held(ics)
        #expect(held["held"] as? String == "too long", "\(held)")
        #expect(held["detail"] as? String == "too long: busy 30.0 days in the 30 days from 2031-03-03; max-duration is 14 days", "\(held)")
    }

    /// A weekly hour, each of its first 100 instances overridden to last 13 days.
    @Test func longOverridesOfAWeeklySeriesAreHeld() throws {
        let first = try #require(ISO8601DateFormatter().date(from: "2031-03-03T10:00:00Z"))
        let stamp = ISO8601DateFormatter()
        stamp.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        let overrides = (0..<100).map { n -> [String] in
            let at = stamp.string(from: first.addingTimeInterval(Double(n * 7 * 86_400)))
            return ["RECURRENCE-ID:\(at)", "DTSTART:\(at)", "DURATION:P13D"]
        }
        let held = try held(Self.series("overrides@spam.example", "DURATION:PT1H\r\nRRULE:FREQ=WEEKLY", overrides: overrides))
        #expect(held["held"] as? String == "too long", "\(held)")
        let detail = held["detail"] as? String ?? ""
        #expect(detail.hasPrefix("too long: busy ") && detail.hasSuffix("max-duration is 14 days"), "\(detail)")
    }

    /// A minute an hour is not much busy time, but more instances than the check counts
    /// in ten years: what lies past the bound is not known, so it is held.
    @Test func aRulePastTheBoundIsHeld() throws {
        let held = try held(Self.series("minute@spam.example", "DURATION:PT1M\r\nRRULE:FREQ=HOURLY"))
        #expect(held["held"] as? String == "too long", "\(held)")
        #expect(held["detail"] as? String == "too long: counted no further than its bound (more than 10,000 instances within 10 years of its start); max-duration is 14 days", "\(held)")
    }

    /// Half-hourly one-hour instances: 48 a day (too many) and busy twice over (too long);
    /// the first reason that applies is `too long`. The same at delivery (`process`).
    @Test func tooLongComesBeforeTooManyInstancesADay() throws {
        let both = Self.series("both@spam.example", "DURATION:PT1H\r\nRRULE:FREQ=MINUTELY;INTERVAL=30")
        let held = try held(both)
        #expect(held["held"] as? String == "too long", "\(held)")
        #expect(held["detail"] as? String == "too long: busy 60.0 days in the 30 days from 2031-03-03; max-duration is 14 days", "\(held)")
        let d = try ProcessDesk()
        let before = try d.text()
        #expect(try d.process(T.mail(both, from: "Alice <alice@example.org>")).text == "no_action (held: too long)\n")
        #expect(try d.text() == before)
    }

    /// Free time is not busy time: a transparent series of 13-day instances, one a day, is
    /// answered like any other.
    @Test func aTransparentLongSeriesIsNotHeldForCoverage() throws {
        #expect(try merged(Self.series("free@example.org", "DURATION:P13D\r\nRRULE:FREQ=DAILY\r\nTRANSP:TRANSPARENT")) == "accepted")
    }

    /// 12 hours a day is 15 days in 30: held unless `max-duration` allows it.
    @Test func aDailyTwelveHourShiftIsHeldUnlessMaxDurationAllowsIt() throws {
        let shift = Self.series("shift@example.org", "DURATION:PT12H\r\nRRULE:FREQ=DAILY")
        let held = try held(shift)
        #expect(held["held"] as? String == "too long", "\(held)")
        #expect(held["detail"] as? String == "too long: busy 15.0 days in the 30 days from 2031-03-03; max-duration is 14 days", "\(held)")
        #expect(try merged(shift, config: "max-duration = 21d\n") == "accepted")
    }

    /// Ten years of a weekly one-hour meeting is what calendars are for.
    @Test func anOrdinaryWeeklyMeetingForTenYearsIsAccepted() throws {
        #expect(try merged(Self.series("weekly@example.org", "DURATION:PT1H\r\nRRULE:FREQ=WEEKLY;COUNT=522")) == "accepted")
    }
}
