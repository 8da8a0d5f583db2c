import Foundation
import Testing

/// `merge` holds what no person would accept unseen (issue #27): an event longer than
/// `max-duration` (default 14 days; a year-long "blocker" would make every real
/// invitation busy) and a rule with more than 24 instances in a day.
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
}
