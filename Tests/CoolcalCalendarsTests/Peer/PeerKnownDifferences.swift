/// The peer cases where coolcal answers differently on purpose, by the case's name (sabre's
/// test name, or ical.js's suite, rule and start), each with the reason and, where there is
/// one, the answer RFC 5545 gives (worked out by hand: ISO week dates from Python's
/// `date.fromisocalendar`, leap years, the DST rule of §3.3.5), which coolcal must give
/// instead. A listed case that agrees with the peer fails, so the list stays true.
enum PeerKnownDifferences {
    struct Entry {
        let reason: String
        /// What coolcal must give instead of the peer's answer; nil: only the reason.
        let rfc: [String]?
    }

    static let countUnmatchedStart = "count-unmatched-dtstart: COUNT counts DTSTART as the first occurrence "
        + "(RFC 5545 §3.3.10) where the peer counts rule matches only; the RFC's shorter list was checked"

    static let listed: [String: Entry] = [
        "Sabre\\VObject\\Recur\\RRuleIteratorTest::testWeeklyByDayByHourOnDstTransition": Entry(
            reason: "an instance at a local time that does not exist (02:00 on 2023-03-26 in Zurich) is kept, "
                + "at 03:00 CEST, by RFC 5545 §3.3.5 (DESIGN.md; sabre does so itself for every rule here without "
                + "BYHOUR); sabre drops it when BYHOUR made it (§3.3.10 says to ignore such instances)",
            rfc: ["2023-03-11 02:00:00", "2023-03-11 14:00:00", "2023-03-12 02:00:00", "2023-03-12 14:00:00",
                  "2023-03-25 02:00:00", "2023-03-25 14:00:00", "2023-03-26 03:00:00", "2023-03-26 14:00:00",
                  "2023-04-08 02:00:00", "2023-04-08 14:00:00", "2023-04-09 02:00:00"]),
        "Sabre\\VObject\\Recur\\RRuleIteratorTest::testYearlyByYearDayMaxNegative": Entry(
            reason: "BYYEARDAY=-366 is 1 January of a leap year only; sabre also takes 31 December of the year "
                + "before in common years (a day outside the year)",
            rfc: ["2001-01-01 14:53:11", "2004-01-01 14:53:11", "2008-01-01 14:53:11", "2012-01-01 14:53:11",
                  "2016-01-01 14:53:11", "2020-01-01 14:53:11", "2024-01-01 14:53:11", "2028-01-01 14:53:11"]),
        "Sabre\\VObject\\Recur\\RRuleIteratorTest::testNegativeValidByWeekNo": Entry(
            reason: "BYWEEKNO=-20 is week 33 of a 52-week year (34 of 2015, which has 53); sabre takes the week before",
            rfc: ["2011-09-02 00:00:00", "2012-08-14 00:00:00", "2012-08-17 00:00:00", "2013-08-13 00:00:00",
                  "2013-08-16 00:00:00", "2014-08-12 00:00:00", "2014-08-15 00:00:00", "2015-08-18 00:00:00",
                  "2015-08-21 00:00:00", "2016-08-16 00:00:00", "2016-08-19 00:00:00", "2017-08-15 00:00:00"]),
        "Sabre\\VObject\\Recur\\RRuleIteratorTest::testByDayBadOffset": Entry(
            reason: "lenient: BYDAY=0MO is not RFC 5545 (a weekday's number is 1 to 53); sabre refuses the rule, "
                + "libical reads it as MO and coolcal expands every Monday",
            rfc: nil),
        "Sabre\\VObject\\Recur\\RRuleIteratorTest::testIgnoredStuff": Entry(
            reason: "FREQ=DAILY with BYWEEKNO and BYYEARDAY breaks RFC 5545 §3.3.10; sabre ignores those parts, "
                + "coolcal refuses the rule and uses DTSTART alone, with a warning",
            rfc: ["2014-08-02 00:15:00"]),
    ]

    /// The outcome to record for a case the harness judged against the peer, given what
    /// coolcal answered: a listed case is known-different when coolcal gives the RFC's
    /// answer (or differs, where none is written), and fails when it agrees with the peer.
    static func judge(_ name: String, _ outcome: PeerOutcome, got: [String]?) -> PeerOutcome {
        guard let entry = listed[name] else { return outcome }
        switch outcome {
        case .passed:
            return .failed("listed as known-different (\(entry.reason)) but agrees with the peer")
        case .failed:
            guard let rfc = entry.rfc else { return .knownDifferent(entry.reason) }
            return got == rfc ? .knownDifferent(entry.reason) : .failed("RFC reading \(rfc), coolcal \(got ?? [])")
        default:
            return outcome
        }
    }
}
