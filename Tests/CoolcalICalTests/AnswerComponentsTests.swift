import CoolcalModel
import CoolcalICal
import Foundation
import Testing
@testable import CoolcalScanTests

/// Issue #28, settled after review: only components of a VCALENDAR without METHOD or
/// with PUBLISH, REQUEST, ADD or CANCEL are versions of an event. An attendee's REPLY
/// kept in a calendar (no DTSTART, a later DTSTAMP) must not hide the organizer's
/// event, a COUNTER must not show its proposed time, on both reading paths.
@Suite struct AnswerComponentsTests {
    static let organizer = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nMETHOD:REQUEST\r\n"
        + "BEGIN:VEVENT\r\nUID:sync\r\nDTSTAMP:20220801T090000Z\r\nSEQUENCE:1\r\nDTSTART:20220820T100000Z\r\n"
        + "DTEND:20220820T110000Z\r\nSUMMARY:Team sync\r\nORGANIZER:mailto:o@example.org\r\n"
        + "ATTENDEE:mailto:b@example.org\r\nEND:VEVENT\r\n"
        // An unrelated event far away, so that the pre-filter has something to drop.
        + "BEGIN:VEVENT\r\nUID:far\r\nDTSTART:20200101T170000Z\r\nDTEND:20200101T180000Z\r\nSUMMARY:far\r\nEND:VEVENT\r\n"
        + "END:VCALENDAR\r\n"

    static func answer(_ method: String, _ body: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nMETHOD:\(method)\r\nBEGIN:VEVENT\r\nUID:sync\r\n"
            + "DTSTAMP:20220805T090000Z\r\nSEQUENCE:1\r\nORGANIZER:mailto:o@example.org\r\n" + body + "END:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    static let window = TimeWindow(start: 1_660_953_600, end: 1_661_040_000) // 2022-08-20 UTC

    @Test(arguments: [
        answer("REPLY", "ATTENDEE;PARTSTAT=ACCEPTED:mailto:b@example.org\r\n"),
        answer("reply ", "ATTENDEE;PARTSTAT=ACCEPTED:mailto:b@example.org\r\n"),
        answer("COUNTER", "DTSTART:20220820T150000Z\r\nDTEND:20220820T160000Z\r\nATTENDEE:mailto:b@example.org\r\n"),
        answer("REFRESH", "ATTENDEE:mailto:b@example.org\r\n"),
        answer("DECLINECOUNTER", "ATTENDEE:mailto:b@example.org\r\n"),
    ])
    func anAnswerKeptBesideTheEventIsNoVersionOfIt(_ kept: String) throws {
        for text in [Self.organizer + kept, kept + Self.organizer] {
            for filtered in [false, true] {
                let (found, _) = try PreFilterTests().occurrences(text, Self.window, filtered: filtered, tz: "UTC")
                #expect(found == ["sync - 2022-08-20T10:00:00Z 2022-08-20T11:00:00Z Team sync true"], "filtered \(filtered): \(found)")
            }
        }
    }

    /// The organizer's cancellation is a version: without a DTSTART it still cancels.
    @Test func aCancellationStillCancels() throws {
        let cancel = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nMETHOD:CANCEL\r\nBEGIN:VEVENT\r\nUID:sync\r\n"
            + "DTSTAMP:20220805T090000Z\r\nSEQUENCE:2\r\nSTATUS:CANCELLED\r\nORGANIZER:mailto:o@example.org\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        for filtered in [false, true] {
            let (found, _) = try PreFilterTests().occurrences(Self.organizer + cancel, Self.window, filtered: filtered, tz: "UTC")
            #expect(found.isEmpty, "filtered \(filtered): \(found)")
        }
    }

    /// An iTIP message's own reader still sees the answer's component.
    @Test func theMessageReaderKeepsThem() throws {
        let calendar = try ICalReader.read(Data(Self.answer("REPLY", "ATTENDEE:mailto:b@example.org\r\n").utf8), file: "r.ics")
        #expect(calendar.events.isEmpty)
        #expect(calendar.answers.map(\.uid) == ["sync"])
    }
}
