import Testing
@testable import CoolcalTestSupport

/// Every recurrence rule of issue 2, with the expected answers worked out by hand
/// from RFC 5545 (and, where libical is wrong, against libical's answer).
@Suite struct RecurrenceTests {
    @Test func weeklyRuleWithExdate() throws {
        let body = vevent("w", "DTSTART:20240101T090000Z", "DTEND:20240101T093000Z",
                          "RRULE:FREQ=WEEKLY;COUNT=4", "EXDATE:20240108T090000Z")
        let r = try expand(body, from: "2024-01-01T00:00:00Z", to: "2024-02-01T00:00:00Z")
        #expect(spans(r.occurrences) == [
            "2024-01-01T09:00:00Z/2024-01-01T09:30:00Z",
            "2024-01-15T09:00:00Z/2024-01-15T09:30:00Z",
            "2024-01-22T09:00:00Z/2024-01-22T09:30:00Z",
        ])
        #expect(r.occurrences.map { $0.recurrenceID?.jsonString } == [
            "2024-01-01T09:00:00Z", "2024-01-15T09:00:00Z", "2024-01-22T09:00:00Z",
        ])
    }

    @Test func zonedRuleFollowsWallClockAcrossDST() throws {
        // 09:00 New York every day: 14:00Z before 2024-03-10, 13:00Z after.
        let body = vevent("d", "DTSTART;TZID=America/New_York:20240308T090000", "DURATION:PT1H", "RRULE:FREQ=DAILY")
        let r = try expand(body, from: "2024-03-09T00:00:00Z", to: "2024-03-12T00:00:00Z")
        #expect(spans(r.occurrences) == [
            "2024-03-09T14:00:00Z/2024-03-09T15:00:00Z",
            "2024-03-10T13:00:00Z/2024-03-10T14:00:00Z",
            "2024-03-11T13:00:00Z/2024-03-11T14:00:00Z",
        ])
    }

    @Test func instanceInSkippedHourMovesForward() throws {
        // 02:30 daily: on 2024-03-10 02:30 does not exist → 07:30Z (RFC 5545 §3.3.5); libical says 06:30Z.
        let body = vevent("gap", "DTSTART;TZID=America/New_York:20240309T023000", "RRULE:FREQ=DAILY;COUNT=3")
        let r = try expand(body, from: "2024-03-09T00:00:00Z", to: "2024-03-12T00:00:00Z")
        #expect(r.occurrences.map(\.start.jsonString) == [
            "2024-03-09T07:30:00Z", "2024-03-10T07:30:00Z", "2024-03-11T06:30:00Z",
        ])
    }

    @Test func rdateWithTZIDIsReadInThatZone() throws {
        // libical returns 17:00Z here, ignoring the TZID.
        let body = vevent("rd", "DTSTART:20240311T120000Z", "DURATION:PT1H",
                          "RDATE;TZID=America/New_York:20240313T170000")
        let r = try expand(body, from: "2024-03-10T00:00:00Z", to: "2024-03-20T00:00:00Z")
        #expect(spans(r.occurrences) == [
            "2024-03-11T12:00:00Z/2024-03-11T13:00:00Z",
            "2024-03-13T21:00:00Z/2024-03-13T22:00:00Z",
        ])
    }

    @Test func rdatePeriodsKeepTheirOwnLength() throws {
        // libical drops VALUE=PERIOD silently.
        let body = vevent("rp", "DTSTART:20240311T120000Z", "DTEND:20240311T130000Z",
                          "RDATE;VALUE=PERIOD:20240312T080000Z/20240312T110000Z,20240314T080000Z/PT30M")
        let r = try expand(body, from: "2024-03-10T00:00:00Z", to: "2024-03-20T00:00:00Z")
        #expect(spans(r.occurrences) == [
            "2024-03-11T12:00:00Z/2024-03-11T13:00:00Z",
            "2024-03-12T08:00:00Z/2024-03-12T11:00:00Z",
            "2024-03-14T08:00:00Z/2024-03-14T08:30:00Z",
        ])
    }

    @Test func allDayInstancesLastExactlyTheirDays() throws {
        // libical reports DTEND + 1 day − 1 s.
        let body = vevent("ad", "DTSTART;VALUE=DATE:20240101", "DTEND;VALUE=DATE:20240102", "RRULE:FREQ=DAILY;COUNT=3")
        let r = try expand(body, from: "2024-01-02T00:00:00Z", to: "2024-01-03T00:00:00Z", tz: "Europe/Berlin")
        // The window is 01:00 Jan 2 – 01:00 Jan 3 in Berlin: the 1st ended at 23:00Z on Jan 1,
        // the 2nd overlaps, the 3rd starts at 23:00Z on Jan 2, inside the window.
        #expect(spans(r.occurrences) == ["2024-01-02/2024-01-03", "2024-01-03/2024-01-04"])
        #expect(r.occurrences.allSatisfy { $0.allDay && $0.endInstant - $0.startInstant == 86_400 })
        #expect(r.occurrences.first?.startInstant == (try utc("2024-01-01T23:00:00Z")))
    }

    @Test func overrideReplacesItsInstance() throws {
        let body = vevent("o", "DTSTART:20240101T090000Z", "DTEND:20240101T100000Z", "RRULE:FREQ=DAILY;COUNT=3",
                          "SUMMARY:master")
            + vevent("o", "RECURRENCE-ID:20240102T090000Z", "DTSTART:20240102T150000Z",
                     "DTEND:20240102T153000Z", "SUMMARY:moved")
        let r = try expand(body, from: "2024-01-01T00:00:00Z", to: "2024-01-04T00:00:00Z")
        #expect(r.occurrences.map { $0.summary ?? "" } == ["master", "moved", "master"])
        #expect(r.occurrences[1].recurrenceID?.jsonString == "2024-01-02T09:00:00Z")
        #expect(spans([r.occurrences[1]]) == ["2024-01-02T15:00:00Z/2024-01-02T15:30:00Z"])
    }

    @Test func overrideMovedOutOfTheWindowLeavesNothing() throws {
        let body = vevent("o", "DTSTART:20240101T090000Z", "DURATION:PT1H", "RRULE:FREQ=DAILY")
            + vevent("o", "RECURRENCE-ID:20240102T090000Z", "DTSTART:20240110T090000Z", "DURATION:PT1H")
        let r = try expand(body, from: "2024-01-02T00:00:00Z", to: "2024-01-03T00:00:00Z")
        #expect(r.occurrences.isEmpty)
    }

    @Test func overrideMovedIntoTheWindowIsFound() throws {
        let body = vevent("o", "DTSTART:20240101T090000Z", "DURATION:PT1H", "RRULE:FREQ=WEEKLY")
            + vevent("o", "RECURRENCE-ID:20240108T090000Z", "DTSTART:20240110T090000Z", "DURATION:PT1H")
        let r = try expand(body, from: "2024-01-10T00:00:00Z", to: "2024-01-11T00:00:00Z")
        #expect(r.occurrences.map(\.recurrenceID?.jsonString) == ["2024-01-08T09:00:00Z"])
    }

    @Test func thisAndFutureMovesLaterInstances() throws {
        let body = vevent("f", "DTSTART:20240101T090000Z", "DURATION:PT1H", "RRULE:FREQ=DAILY;COUNT=5",
                          "SUMMARY:old")
            + vevent("f", "RECURRENCE-ID;RANGE=THISANDFUTURE:20240103T090000Z", "DTSTART:20240103T110000Z",
                     "DURATION:PT30M", "SUMMARY:new")
        let r = try expand(body, from: "2024-01-01T00:00:00Z", to: "2024-01-10T00:00:00Z")
        #expect(spans(r.occurrences) == [
            "2024-01-01T09:00:00Z/2024-01-01T10:00:00Z",
            "2024-01-02T09:00:00Z/2024-01-02T10:00:00Z",
            "2024-01-03T11:00:00Z/2024-01-03T11:30:00Z",
            "2024-01-04T11:00:00Z/2024-01-04T11:30:00Z",
            "2024-01-05T11:00:00Z/2024-01-05T11:30:00Z",
        ])
        #expect(r.occurrences.map { $0.summary ?? "" } == ["old", "old", "new", "new", "new"])
        #expect(r.occurrences[3].recurrenceID?.jsonString == "2024-01-04T09:00:00Z")
    }

    @Test func thisAndFutureMovesAllDaySeriesFarAway() throws {
        // Found by the differential test: a 20-day shift of an all-day series must be
        // found from a window that only sees the moved instances.
        let body = vevent("ad", "DTSTART;VALUE=DATE:20240102", "RRULE:FREQ=WEEKLY;COUNT=10")
            + vevent("ad", "RECURRENCE-ID;RANGE=THISANDFUTURE;VALUE=DATE:20240116", "DTSTART;VALUE=DATE:20240205",
                     "SUMMARY:moved")
        let r = try expand(body, from: "2024-02-12T00:00:00Z", to: "2024-02-13T00:00:00Z")
        #expect(spans(r.occurrences) == ["2024-02-12/2024-02-13"])
        #expect(r.occurrences.first?.recurrenceID?.jsonString == "2024-01-23")
    }

    @Test func untilIsInclusiveAndComparedInUTC() throws {
        // 09:00 New York = 14:00Z; UNTIL 14:00Z on the 3rd includes the 3rd.
        let body = vevent("u", "DTSTART;TZID=America/New_York:20240101T090000",
                          "RRULE:FREQ=DAILY;UNTIL=20240103T140000Z")
        let r = try expand(body, from: "2024-01-01T00:00:00Z", to: "2024-01-10T00:00:00Z")
        #expect(r.occurrences.count == 3)
        let early = vevent("u", "DTSTART;TZID=America/New_York:20240101T090000",
                           "RRULE:FREQ=DAILY;UNTIL=20240103T135959Z")
        #expect(try expand(early, from: "2024-01-01T00:00:00Z", to: "2024-01-10T00:00:00Z").occurrences.count == 2)
    }

    @Test func lengthRules() throws {
        let body = vevent("a", "DTSTART;VALUE=DATE:20240105")
            + vevent("b", "DTSTART:20240105T100000Z")
            + vevent("c", "DTSTART;TZID=America/New_York:20240309T120000", "DURATION:P1D")
            + vevent("e", "DTSTART;TZID=America/New_York:20240309T120000",
                     "DTEND;TZID=America/New_York:20240310T120000")
        let r = try expand(body, from: "2024-01-05T00:00:00Z", to: "2024-01-06T00:00:00Z")
        #expect(spans(r.occurrences) == ["2024-01-05/2024-01-06", "2024-01-05T10:00:00Z/2024-01-05T10:00:00Z"])
        // DURATION:P1D is a nominal day (23 h across the DST change); DTEND is exact too here.
        let dst = try expand(body, from: "2024-03-09T00:00:00Z", to: "2024-03-11T00:00:00Z")
        #expect(spans(dst.occurrences) == [
            "2024-03-09T17:00:00Z/2024-03-10T16:00:00Z",
            "2024-03-09T17:00:00Z/2024-03-10T16:00:00Z",
        ])
    }

    @Test func floatingTimesAreReadInTheGivenZone() throws {
        let body = vevent("fl", "DTSTART:20240105T100000", "DTEND:20240105T110000")
        let berlin = try expand(body, from: "2024-01-05T00:00:00Z", to: "2024-01-06T00:00:00Z", tz: "Europe/Berlin")
        #expect(spans(berlin.occurrences) == ["2024-01-05T09:00:00Z/2024-01-05T10:00:00Z"])
        let tokyo = try expand(body, from: "2024-01-05T00:00:00Z", to: "2024-01-06T00:00:00Z", tz: "Asia/Tokyo")
        #expect(spans(tokyo.occurrences) == ["2024-01-05T01:00:00Z/2024-01-05T02:00:00Z"])
    }

    @Test func windowsZoneNamesWork() throws {
        let body = vevent("win", "DTSTART;TZID=Pacific Standard Time:20240105T100000", "DURATION:PT1H")
        let r = try expand(body, from: "2024-01-05T00:00:00Z", to: "2024-01-06T00:00:00Z")
        #expect(spans(r.occurrences) == ["2024-01-05T18:00:00Z/2024-01-05T19:00:00Z"])
        #expect(r.warnings.isEmpty)
    }

    @Test func unknownZoneWarnsNamingTheEvent() throws {
        let body = vevent("mars-1", "SUMMARY:Rover", "DTSTART;TZID=Mars/Olympus:20240105T100000", "DURATION:PT1H")
        let r = try expand(body, from: "2024-01-05T00:00:00Z", to: "2024-01-06T00:00:00Z", tz: "Europe/Berlin")
        #expect(spans(r.occurrences) == ["2024-01-05T09:00:00Z/2024-01-05T10:00:00Z"])
        #expect(r.warnings == [
            "test.ics: event \"Rover\" (mars-1): unknown time zone \"Mars/Olympus\"; its times are read in Europe/Berlin",
        ])
    }

    @Test func busyRules() throws {
        let body = vevent("t", "DTSTART:20240105T100000Z", "DURATION:PT1H", "TRANSP:TRANSPARENT")
            + vevent("c", "DTSTART:20240105T100000Z", "DURATION:PT1H", "STATUS:CANCELLED")
            + vevent("d", "DTSTART:20240105T100000Z", "DURATION:PT1H",
                     "ATTENDEE;PARTSTAT=DECLINED:mailto:Me@Example.com")
            + vevent("e", "DTSTART:20240105T100000Z", "DURATION:PT1H",
                     "ATTENDEE;PARTSTAT=DECLINED:mailto:someone@example.com", "STATUS:TENTATIVE")
        let r = try expand(body, from: "2024-01-05T00:00:00Z", to: "2024-01-06T00:00:00Z", me: ["me@example.com"])
        let reasons = Dictionary(uniqueKeysWithValues: r.occurrences.map { ($0.uid ?? "", $0.ignoreReason?.rawValue ?? "busy") })
        #expect(reasons == ["t": "transparent", "c": "cancelled", "d": "declined", "e": "busy"])
    }

    @Test func runawayRulesStopWithAWarning() throws {
        let body = vevent("bomb", "SUMMARY:Bomb", "DTSTART:20000101T000000Z", "RRULE:FREQ=SECONDLY;COUNT=2000000000")
        let r = try expand(body, from: "2024-01-05T00:00:00Z", to: "2024-01-06T00:00:00Z", maxSteps: 10_000)
        // Cut short in 2000: busy over the whole window, incomplete — never free by omission.
        #expect(r.occurrences.map { [$0.startInstant, $0.endInstant] } == [[1_704_412_800, 1_704_499_200]])
        #expect(r.occurrences.map(\.incomplete) == ["expansion stopped at the 10,000-step limit"])
        #expect(r.occurrences.allSatisfy { $0.busy })
        #expect(r.warnings == ["test.ics: event \"Bomb\" (bomb): stopped expanding after 10000 recurrence steps"])
    }

    @Test func windowsPastLibicalsLastYearWarn() throws {
        let warning = "test.ics: event \"Far\" (far): RRULE FREQ=WEEKLY is expanded only up to 2582-12-31 (libical's limit); later instances are left out"
        let body = vevent("far", "SUMMARY:Far", "DTSTART:25821201T100000Z", "DURATION:PT1H", "RRULE:FREQ=WEEKLY")
        let after = try expand(body, from: "2582-12-25T00:00:00Z", to: "2583-01-15T00:00:00Z")
        #expect(spans(after.occurrences) == ["2582-12-29T10:00:00Z/2582-12-29T11:00:00Z"])
        #expect(after.warnings == [warning])
        // A window that ends in 2582 misses nothing.
        let before = try expand(body, from: "2582-12-25T00:00:00Z", to: "2582-12-31T00:00:00Z")
        #expect(before.occurrences.count == 1)
        #expect(before.warnings.isEmpty)
    }

    @Test(arguments: [
        "RRULE:FREQ=WEEKLY;UNTIL=25821231T000000Z",
        "RRULE:FREQ=WEEKLY;COUNT=3",
        "RRULE:FREQ=WEEKLY;COUNT=5",
    ])
    func seriesThatEndBefore2583DoNotWarn(_ rule: String) throws {
        let body = vevent("ends", "DTSTART:25821201T100000Z", "DURATION:PT1H", rule)
        let r = try expand(body, from: "2582-12-25T00:00:00Z", to: "2600-01-01T00:00:00Z")
        #expect(r.warnings.isEmpty)
    }

    @Test func countPast2582Warns() throws {
        let body = vevent("count", "SUMMARY:Count", "DTSTART:25821201T100000Z", "DURATION:PT1H", "RRULE:FREQ=WEEKLY;COUNT=10")
        let r = try expand(body, from: "2583-01-01T00:00:00Z", to: "2583-02-01T00:00:00Z")
        #expect(r.occurrences.isEmpty)
        #expect(r.warnings == ["test.ics: event \"Count\" (count): RRULE FREQ=WEEKLY;COUNT=10 is expanded only up to 2582-12-31 (libical's limit); later instances are left out"])
    }

    @Test func farFutureQueryOfAnOldRuleIsExact() throws {
        let body = vevent("old", "DTSTART;TZID=Europe/Berlin:20140102T080000", "DURATION:PT15M",
                          "RRULE:FREQ=WEEKLY;BYDAY=MO,TH")
        let r = try expand(body, from: "2034-07-03T00:00:00Z", to: "2034-07-07T00:00:00Z")
        // 2034-07-03 is a Monday; Berlin summer time is +02:00.
        #expect(spans(r.occurrences) == [
            "2034-07-03T06:00:00Z/2034-07-03T06:15:00Z",
            "2034-07-06T06:00:00Z/2034-07-06T06:15:00Z",
        ])
    }
}
