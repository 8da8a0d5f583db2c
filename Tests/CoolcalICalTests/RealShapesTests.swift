import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalCalendars
@testable import CoolcalScan
@testable import CoolcalZones
@testable import CoolcalTestSupport
@testable import CoolcalScanTests

/// Issue 14's classes 2–7a, each on a file shaped like the real ones (the comment names
/// the client that writes it), read on both paths — through the pre-filter and in full —
/// which must give the same occurrences and warnings.
@Suite struct RealShapesTests {
    static func calendar(_ body: String, head: String = "") -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n" + head + body + "END:VCALENDAR\r\n"
    }

    static func event(_ lines: String...) -> String {
        "BEGIN:VEVENT\r\n" + lines.joined(separator: "\r\n") + "\r\nEND:VEVENT\r\n"
    }

    /// Both paths; they must agree exactly. Returns the occurrences and warnings.
    func read(_ text: String, _ from: String, _ to: String, tz: String = "UTC",
              sourceLocation: SourceLocation = #_sourceLocation) throws -> ([String], [String]) {
        let window = TimeWindow(start: try utc(from), end: try utc(to))
        let full = try PreFilterTests().occurrences(text, window, filtered: false, tz: tz)
        let fast = try PreFilterTests().occurrences(text, window, filtered: true, tz: tz)
        #expect(full.0 == fast.0, "occurrences", sourceLocation: sourceLocation)
        #expect(full.1 == fast.1, "warnings", sourceLocation: sourceLocation)
        return full
    }

    func dropped(_ text: String, _ from: String, _ to: String, _ marker: String) throws -> Bool {
        let window = TimeWindow(start: try utc(from), end: try utc(to))
        return !String(decoding: PreFilterRun.filter(Data(text.utf8), window: window), as: UTF8.self).contains(marker)
    }

    // MARK: 2. Revisions

    /// Confluence Team Calendars re-exports every edit of an event as another VEVENT with
    /// the same UID and a higher SEQUENCE; only the newest counts (RFC 5545 §3.8.7.4).
    static let confluence = calendar(
        event("UID:standup-7f3a@confluence.example.com", "SEQUENCE:0", "DTSTAMP:20220101T090000Z",
              "DTSTART:20220103T090000Z", "DTEND:20220103T091500Z", "RRULE:FREQ=WEEKLY;BYDAY=MO", "SUMMARY:Standup")
        + event("UID:standup-7f3a@confluence.example.com", "SEQUENCE:1", "DTSTAMP:20220301T090000Z",
                "DTSTART:20220103T100000Z", "DTEND:20220103T101500Z", "RRULE:FREQ=WEEKLY;BYDAY=MO", "SUMMARY:Standup (10:00)")
        // The same SEQUENCE, a later DTSTAMP: newer still.
        + event("UID:standup-7f3a@confluence.example.com", "SEQUENCE:1", "DTSTAMP:20220401T090000Z",
                "DTSTART:20220103T110000Z", "DTEND:20220103T111500Z", "RRULE:FREQ=WEEKLY;BYDAY=MO", "SUMMARY:Standup (11:00)"))

    @Test func revisionsGiveOnlyTheCurrentOne() throws {
        let (found, warnings) = try read(Self.confluence, "2022-08-22T00:00:00Z", "2022-08-23T00:00:00Z")
        #expect(found == ["standup-7f3a@confluence.example.com 2022-08-22T11:00:00Z 2022-08-22T11:00:00Z 2022-08-22T11:15:00Z Standup (11:00) true"])
        #expect(warnings.isEmpty)
    }

    /// The newest revision moved the meeting out of the window, where the pre-filter drops
    /// it: the older copies in the window must stay hidden (its revision is kept).
    @Test func aNewerRevisionOutsideTheWindowHidesAnOlderOne() throws {
        let text = Self.confluence.replacingOccurrences(of: "END:VCALENDAR", with: "")
            + Self.event("UID:standup-7f3a@confluence.example.com", "SEQUENCE:2", "DTSTAMP:20220801T090000Z",
                         "DTSTART:20230601T090000Z", "DTEND:20230601T091500Z", "SUMMARY:Standup, once, next year")
            + "END:VCALENDAR\r\n"
        #expect(try dropped(text, "2022-08-22T00:00:00Z", "2022-08-23T00:00:00Z", "SEQUENCE:2"))
        #expect(try read(text, "2022-08-22T00:00:00Z", "2022-08-23T00:00:00Z").0.isEmpty)
        #expect(try read(text, "2023-06-01T00:00:00Z", "2023-06-02T00:00:00Z").0.count == 1)
    }

    /// Two overrides of one instance (a server that kept both edits): one instance, the
    /// newer; and a newer override moved out of the window hides an older one in it.
    @Test func overrideRevisionsGiveOneInstance() throws {
        let uid = "UID:review-11@caldav.example.com"
        let master = Self.event(uid, "DTSTAMP:20220101T000000Z", "DTSTART:20220801T150000Z", "DURATION:PT1H",
                                "RRULE:FREQ=DAILY;COUNT=30", "SUMMARY:Review")
        let older = Self.event(uid, "SEQUENCE:1", "DTSTAMP:20220701T000000Z", "RECURRENCE-ID:20220820T150000Z",
                               "DTSTART:20220820T160000Z", "DURATION:PT1H", "SUMMARY:Review moved")
        let newer = Self.event(uid, "SEQUENCE:2", "DTSTAMP:20220702T000000Z", "RECURRENCE-ID:20220820T150000Z",
                               "DTSTART:20220820T170000Z", "DURATION:PT1H", "SUMMARY:Review moved again")
        let two = try read(Self.calendar(master + older + newer), "2022-08-20T00:00:00Z", "2022-08-21T00:00:00Z")
        #expect(two.0 == ["review-11@caldav.example.com 2022-08-20T15:00:00Z 2022-08-20T17:00:00Z 2022-08-20T18:00:00Z Review moved again true"])
        // An instance of 08-25 first moved into the window, then (newer) to 08-26: the
        // newer one is outside the window and dropped by the pre-filter, yet it wins.
        let into = Self.event(uid, "SEQUENCE:1", "DTSTAMP:20220701T000000Z", "RECURRENCE-ID:20220825T150000Z",
                              "DTSTART:20220820T120000Z", "DURATION:PT1H", "SUMMARY:Review pulled in")
        let away = Self.event(uid, "SEQUENCE:2", "DTSTAMP:20220702T000000Z", "RECURRENCE-ID:20220825T150000Z",
                              "DTSTART:20220826T170000Z", "DURATION:PT1H", "SUMMARY:Review pushed out")
        let three = Self.calendar(master + into + away)
        #expect(try dropped(three, "2022-08-20T00:00:00Z", "2022-08-21T00:00:00Z", "pushed out"))
        #expect(try read(three, "2022-08-20T00:00:00Z", "2022-08-21T00:00:00Z").0
            == ["review-11@caldav.example.com 2022-08-20T15:00:00Z 2022-08-20T15:00:00Z 2022-08-20T16:00:00Z Review true"])
    }

    /// A vdir is one calendar: revisions in two of its files are one event's.
    @Test func revisionsAcrossTheFilesOfAVdir() throws {
        let uid = "UID:dentist@vdir"
        let a = Self.calendar(Self.event(uid, "SEQUENCE:0", "DTSTART:20220820T150000Z", "DURATION:PT1H", "SUMMARY:Dentist"))
        let b = Self.calendar(Self.event(uid, "SEQUENCE:4", "DTSTART:20221020T150000Z", "DURATION:PT1H", "SUMMARY:Dentist later"))
        let window = TimeWindow(start: try utc("2022-08-20T00:00:00Z"), end: try utc("2022-08-21T00:00:00Z"))
        for filtered in [false, true] {
            let files = try [a, b].map { try ICalReader.read(Data($0.utf8), file: "x.ics", window: filtered ? window : nil) }
            let found = OccurrenceExpander(options: ExpansionOptions(floatingZone: TimeZone(identifier: "UTC")!), diagnostics: Diagnostics())
                .occurrences(in: window, calendars: [LoadedCalendar(name: "vdir", color: nil, files: files)])
            #expect(found.isEmpty, "filtered: \(filtered)")
        }
    }

    /// Exact copies (a file concatenated twice): nothing says which is current, each
    /// instance is given once.
    @Test func tiedCopiesGiveEachInstanceOnce() throws {
        let e = Self.event("UID:copy@t", "DTSTAMP:20220101T000000Z", "DTSTART:20220820T150000Z", "DURATION:PT1H", "SUMMARY:Copy")
        #expect(try read(Self.calendar(e + e), "2022-08-20T00:00:00Z", "2022-08-21T00:00:00Z").0.count == 1)
    }

    // MARK: 3. Exchange's all-day series

    /// Exchange writes an all-day series with overrides whose RECURRENCE-ID is the
    /// date at midnight UTC: the override replaces the instance on that date.
    @Test func exchangeDateTimeRecurrenceIDsOnADateSeries() throws {
        let uid = "UID:040000008200E00074C5B7101A82E0080000000010B0C6E2C38ED601000000000000000010000000"
        let text = Self.calendar(
            Self.event(uid, "DTSTAMP:20200901T000000Z", "DTSTART;VALUE=DATE:20200914", "DTEND;VALUE=DATE:20200915",
                       "RRULE:FREQ=WEEKLY;COUNT=10;BYDAY=MO", "SUMMARY:Office day", "TRANSP:OPAQUE")
            + Self.event(uid, "DTSTAMP:20200901T000000Z", "RECURRENCE-ID:20200921T000000Z", "DTSTART;VALUE=DATE:20200922",
                         "DTEND;VALUE=DATE:20200923", "SUMMARY:Office day (Tuesday)"))
        let found = try read(text, "2020-09-21T00:00:00Z", "2020-09-24T00:00:00Z", tz: "America/Los_Angeles").0
        let short = "040000008200E00074C5B7101A82E0080000000010B0C6E2C38ED601000000000000000010000000"
        // Its recurrence id is the RECURRENCE-ID as written (the same with or without its
        // master, which the pre-filter may drop).
        #expect(found == ["\(short) 2020-09-21T00:00:00Z 2020-09-22 2020-09-23 Office day (Tuesday) true"])
        // A window with only the original date: the moved-away instance is not there.
        #expect(try read(text, "2020-09-21T08:00:00Z", "2020-09-22T06:00:00Z", tz: "America/Los_Angeles").0.isEmpty)
    }

    // MARK: 4. An override without a UID

    /// A hand-made or truncated export: a RECURRENCE-ID event without a UID belongs to
    /// no series and stands on its own.
    @Test func anOverrideWithoutAUIDStandsOnItsOwn() throws {
        let text = Self.calendar(Self.event("RECURRENCE-ID:20220820T150000Z", "DTSTART:20220820T160000Z",
                                            "DURATION:PT30M", "SUMMARY:Lonely"))
        #expect(try read(text, "2022-08-20T00:00:00Z", "2022-08-21T00:00:00Z").0
            == ["- 2022-08-20T15:00:00Z 2022-08-20T16:00:00Z 2022-08-20T16:30:00Z Lonely true"])
    }

    // MARK: 5. Spans that cannot be

    @Test(arguments: [
        // Generators that write a date with hours (seen in school and sports feeds): a day.
        ("DTSTART;VALUE=DATE:20260302\r\nDURATION:PT10H", "2026-03-02 2026-03-03", "an all-day event with a DURATION of hours; read as 1 day"),
        ("DTSTART;VALUE=DATE:20260302\r\nDURATION:P1DT2H", "2026-03-02 2026-03-04", "an all-day event with a DURATION of hours; read as 2 days"),
        ("DTSTART:20260302T100000Z\r\nDTEND:20260302T090000Z", "2026-03-02T10:00:00Z 2026-03-02T10:00:00Z", "DTEND is before DTSTART; DTEND is ignored (no length)"),
        ("DTSTART;VALUE=DATE:20260302\r\nDTEND;VALUE=DATE:20260301", "2026-03-02 2026-03-03", "DTEND is not after its all-day DTSTART; read as one day"),
        ("DTSTART:20260302T100000Z\r\nDURATION:-PT1H", "2026-03-02T10:00:00Z 2026-03-02T10:00:00Z", "a negative DURATION; it is ignored"),
        ("DTSTART:20260302T110000Z\r\nDURATION:PT30M\r\nRRULE:FREQ=DAILY;UNTIL=20260201T000000Z", "2026-03-02T11:00:00Z 2026-03-02T11:30:00Z", "RRULE UNTIL is before DTSTART; only DTSTART is used"),
        ("DTSTART:20260302T120000Z\r\nDURATION:PT30M\r\nRRULE:", "2026-03-02T12:00:00Z 2026-03-02T12:30:00Z", "an empty RRULE; only DTSTART is used"),
        ("DTSTART:2026031T150000Z\r\nDURATION:PT1H", "", "no valid DTSTART (DTSTART 2026031T150000Z is not a date-time; libical would read 2026-03-01T15:00:00); event skipped"),
    ])
    func spansThatCannotBe(_ lines: String, _ span: String, _ warning: String) throws {
        let text = Self.calendar(Self.event("UID:s@t", "SUMMARY:S", lines))
        for window in [("2026-02-27T00:00:00Z", "2026-03-05T00:00:00Z"), ("2026-03-02T00:00:00Z", "2026-03-03T00:00:00Z")] {
            let (found, warnings) = try read(text, window.0, window.1)
            let rid = lines.contains("RRULE") && !lines.hasSuffix("RRULE:") ? span.split(separator: " ")[0] : "-"
            #expect(found == (span.isEmpty ? [] : ["s@t \(rid) \(span) S true"]))
            #expect(warnings == ["g.ics: event \"S\" (s@t): \(warning)"])
        }
    }

    // MARK: 6. X-WR-TIMEZONE

    /// Google Calendar's and Apple's exports name their zone in X-WR-TIMEZONE and may
    /// write floating times: those are read in it. UTC and TZID values, and dates, are not.
    @Test func xWRTimezoneReadsFloatingTimes() throws {
        let text = Self.calendar(
            Self.event("UID:float@google.com", "DTSTART:20220820T090000", "DTEND:20220820T100000", "SUMMARY:Floating")
            + Self.event("UID:utc@google.com", "DTSTART:20220820T150000Z", "DTEND:20220820T160000Z", "SUMMARY:UTC")
            + Self.event("UID:zoned@google.com", "DTSTART;TZID=Europe/Berlin:20220820T180000", "DURATION:PT1H", "SUMMARY:Berlin")
            + Self.event("UID:day@google.com", "DTSTART;VALUE=DATE:20220820", "SUMMARY:Day")
            + Self.event("UID:weekly@google.com", "DTSTART:20220806T110000", "DURATION:PT1H", "RRULE:FREQ=WEEKLY", "SUMMARY:Weekly"),
            head: "X-WR-CALNAME:Family\r\nX-WR-TIMEZONE:America/New_York\r\n")
        let found = try read(text, "2022-08-20T00:00:00Z", "2022-08-21T00:00:00Z", tz: "Europe/Berlin").0
        #expect(found == [
            "day@google.com - 2022-08-20 2022-08-21 Day true",
            "float@google.com - 2022-08-20T13:00:00Z 2022-08-20T14:00:00Z Floating true",
            "utc@google.com - 2022-08-20T15:00:00Z 2022-08-20T16:00:00Z UTC true",
            "weekly@google.com 2022-08-20T15:00:00Z 2022-08-20T15:00:00Z 2022-08-20T16:00:00Z Weekly true",
            "zoned@google.com - 2022-08-20T16:00:00Z 2022-08-20T17:00:00Z Berlin true",
        ])
        let unknown = text.replacingOccurrences(of: "America/New_York", with: "Mars/Olympus")
        let (shifted, warnings) = try read(unknown, "2022-08-20T00:00:00Z", "2022-08-21T00:00:00Z", tz: "Europe/Berlin")
        #expect(shifted.contains("float@google.com - 2022-08-20T07:00:00Z 2022-08-20T08:00:00Z Floating true"))
        #expect(warnings.contains("g.ics: event \"Floating\" (float@google.com): unknown X-WR-TIMEZONE \"Mars/Olympus\"; its floating times are read in Europe/Berlin"))
    }

    // MARK: 7a. Outlook.com zone names

    /// Outlook.com writes Windows display names as TZID, with no VTIMEZONE.
    @Test(arguments: [
        ("(UTC-08:00) Pacific Time (US & Canada)", "2022-08-20T16:00:00Z"),
        ("(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna", "2022-08-20T07:00:00Z"),
        ("(UTC) Coordinated Universal Time", "2022-08-20T09:00:00Z"),
        ("(GMT-05:00) Eastern Time (US & Canada)", "2022-08-20T13:00:00Z"),
    ])
    func outlookDisplayNames(_ tzid: String, _ start: String) throws {
        let text = Self.calendar(Self.event("UID:o@outlook.com", "DTSTART;TZID=\"\(tzid)\":20220820T090000",
                                            "DTEND;TZID=\"\(tzid)\":20220820T093000", "SUMMARY:O"))
        let (found, warnings) = try read(text, "2022-08-19T00:00:00Z", "2022-08-22T00:00:00Z")
        #expect(found.first?.contains(" \(start) ") == true, "\(found)")
        #expect(warnings.isEmpty)
        #expect(WindowsDisplayNames.ianaIdentifier(forDisplayName: "(UTC-08:00) pacific time (us & canada)") == "America/Los_Angeles")
    }
}
