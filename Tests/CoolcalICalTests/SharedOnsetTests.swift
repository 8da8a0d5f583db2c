import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalCalendars
@testable import CoolcalInvite
@testable import CoolcalTestSupport

/// Issue #28: a VTIMEZONE whose DAYLIGHT and STANDARD observances begin at the same local
/// time (Tine 2.0 sends one) says two things of every later moment; libical takes the
/// summer offset in November. coolcal warns, naming the file and the zone, and reads the
/// TZID in the system zone of that name where there is one.
@Suite struct SharedOnsetTests {
    static func calendar(tzid: String, daylightStart: String, standardStart: String) -> String {
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//onset//EN",
            "BEGIN:VTIMEZONE", "TZID:\(tzid)",
            "BEGIN:DAYLIGHT", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "TZNAME:CEST", "DTSTART:\(daylightStart)", "END:DAYLIGHT",
            "BEGIN:STANDARD", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "TZNAME:CET", "DTSTART:\(standardStart)", "END:STANDARD",
            "END:VTIMEZONE",
            "BEGIN:VEVENT", "UID:onset@example.org", "DTSTAMP:20200101T000000Z",
            "DTSTART;TZID=\(tzid):20301115T130000", "DTEND;TZID=\(tzid):20301115T140000", "SUMMARY:Planning",
            "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
    }

    static func expand(_ text: String) throws -> (spans: [String], warnings: [String]) {
        let calendar = try ICalReader.read(Data(text.utf8), file: "onset.ics")
        let diagnostics = Diagnostics()
        let found = OccurrenceExpander(options: ExpansionOptions(floatingZone: try #require(TimeZone(identifier: "UTC"))),
                                       diagnostics: diagnostics)
            .occurrences(in: TimeWindow(start: try utc("2030-11-01T00:00:00Z"), end: try utc("2030-12-01T00:00:00Z")),
                         calendars: [LoadedCalendar(name: "onset.ics", color: nil, files: [calendar])])
        return (spans(found), diagnostics.warnings)
    }

    @Test func aSystemZoneOfThatNameIsUsed() throws {
        let r = try SharedOnsetTests.expand(SharedOnsetTests.calendar(
            tzid: "Europe/Berlin", daylightStart: "20200301T101500", standardStart: "20200301T101500"))
        // 13:00 in Berlin in November is CET, +01:00.
        #expect(r.spans == ["2030-11-15T12:00:00Z/2030-11-15T13:00:00Z"])
        #expect(r.warnings == ["onset.ics: VTIMEZONE \"Europe/Berlin\": its DAYLIGHT and STANDARD observances both "
                               + "begin at 2020-03-01T10:15:00; the system zone of that name is used instead"])
    }

    @Test func withoutASystemZoneTheFilesZoneStaysAndSaysSo() throws {
        let r = try SharedOnsetTests.expand(SharedOnsetTests.calendar(
            tzid: "Tine/Nowhere", daylightStart: "20200301T101500", standardStart: "20200301T101500"))
        #expect(r.spans.count == 1)
        #expect(r.warnings.contains { $0.hasPrefix("onset.ics: VTIMEZONE \"Tine/Nowhere\": its DAYLIGHT and STANDARD")
            && $0.hasSuffix("no system zone has that name, so the zone is read as it is") })
    }

    @Test func observancesBeginningApartAreLeftAlone() throws {
        // A zone of its own name, no rules: CEST from March 2020, CET from October 2020.
        let r = try SharedOnsetTests.expand(SharedOnsetTests.calendar(
            tzid: "Custom/Berlin", daylightStart: "20200329T020000", standardStart: "20201025T030000"))
        #expect(r.spans == ["2030-11-15T12:00:00Z/2030-11-15T13:00:00Z"])
        #expect(r.warnings.isEmpty)
    }

    /// The real Tine mail (`../shared/corpora/mail-real`, read in place): the corpus's
    /// independent reading (`expected.tsv`) has the meeting at 12:00Z, as its subject says.
    @Test func theTineInvitationIsReadInBerlinTime() throws {
        guard let corpus = Checkout.corpus("mail-real") else {
            print("mail-real corpus absent: theTineInvitationIsReadInBerlinTime skipped")
            return
        }
        let invite = try InviteLoader.load(corpus.appendingPathComponent("tine__calendar_request.eml").path,
                                           floatingZone: try #require(TimeZone(identifier: "UTC")))
        #expect(invite.start.jsonString == "2111-11-21T12:00:00Z")
        #expect(invite.end.jsonString == "2111-11-21T13:00:00Z")
    }
}
