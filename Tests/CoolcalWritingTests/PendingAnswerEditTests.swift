import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalWriting

/// The minimal edit that answers an invitation found pending in a calendar (issue 49):
/// expected bytes written by hand.
@Suite struct PendingAnswerEditTests {
    static let me = ["mailto:bob@example.com"]

    static func block(_ lines: [String]) -> [UInt8] { Array((lines.joined(separator: "\r\n") + "\r\n").utf8) }

    static let stored = [
        "BEGIN:VEVENT", "UID:plan-1", "DTSTAMP:20261201T080000Z", "SEQUENCE:3", "DTSTART:20261210T100000Z",
        "SUMMARY:Plan", "ORGANIZER;CN=Olga:mailto:olga@example.com",
        "ATTENDEE;CN=Olga;PARTSTAT=ACCEPTED:mailto:olga@example.com",
        "ATTENDEE;CN=Bob;PARTSTAT=NEEDS-ACTION;RSVP=TRUE;ROLE=REQ-PARTICIPANT:mailto:Bob@Example.com",
        "X-UNKNOWN;P=1:kept as it is",
        "BEGIN:VALARM", "ACTION:EMAIL", "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:bob@example.com", "END:VALARM",
        "END:VEVENT",
    ]

    @Test func onlyPartstatRsvpAndDtstampChange() throws {
        let edited = try #require(PendingAnswerEdit.answer(Self.block(Self.stored), me: Self.me, partstat: "ACCEPTED",
                                                           stamp: "20261206T061500Z", comment: nil))
        #expect(String(decoding: edited, as: UTF8.self) == String(decoding: Self.block([
            "BEGIN:VEVENT", "UID:plan-1", "DTSTAMP:20261206T061500Z", "SEQUENCE:3", "DTSTART:20261210T100000Z",
            "SUMMARY:Plan", "ORGANIZER;CN=Olga:mailto:olga@example.com",
            "ATTENDEE;CN=Olga;PARTSTAT=ACCEPTED:mailto:olga@example.com",
            // 76 octets: folded at 75.
            "ATTENDEE;CN=Bob;PARTSTAT=ACCEPTED;ROLE=REQ-PARTICIPANT:mailto:Bob@Example.c", " om",
            "X-UNKNOWN;P=1:kept as it is",
            "BEGIN:VALARM", "ACTION:EMAIL", "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:bob@example.com", "END:VALARM",
            "END:VEVENT",
        ]), as: UTF8.self))
    }

    @Test func noPartstatGetsOneAndACommentIsAddedEscaped() throws {
        let block = Self.block(["BEGIN:VEVENT", "UID:u", "DTSTAMP:20261201T080000Z", "ORGANIZER:mailto:olga@example.com",
                                "ATTENDEE;RSVP=TRUE:mailto:bob@example.com", "END:VEVENT"])
        let edited = try #require(PendingAnswerEdit.answer(block, me: Self.me, partstat: "DECLINED", stamp: "20261206T061500Z",
                                                           comment: "Sorry; away, back Monday"))
        #expect(String(decoding: edited, as: UTF8.self) == String(decoding: Self.block([
            "BEGIN:VEVENT", "UID:u", "DTSTAMP:20261206T061500Z", "ORGANIZER:mailto:olga@example.com",
            "ATTENDEE;PARTSTAT=DECLINED:mailto:bob@example.com", "COMMENT:Sorry\\; away\\, back Monday", "END:VEVENT",
        ]), as: UTF8.self))
    }

    @Test func anAnsweredOrForeignBlockIsLeftAlone() {
        let answered = Self.block(["BEGIN:VEVENT", "UID:u", "ORGANIZER:mailto:olga@example.com",
                                   "ATTENDEE;PARTSTAT=TENTATIVE:mailto:bob@example.com", "END:VEVENT"])
        let other = Self.block(["BEGIN:VEVENT", "UID:u", "ORGANIZER:mailto:olga@example.com",
                                "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:carl@example.com", "END:VEVENT"])
        #expect(PendingAnswerEdit.answer(answered, me: Self.me, partstat: "ACCEPTED", stamp: "20261206T061500Z", comment: nil) == nil)
        #expect(PendingAnswerEdit.answer(other, me: Self.me, partstat: "ACCEPTED", stamp: "20261206T061500Z", comment: nil) == nil)
    }

    /// A file: the pending override and master answered, the answered override and every
    /// other byte (LF line ends, another event) kept; declining keeps the event.
    @Test func aFileIsEditedInPlaceByteForByte() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-inplace-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/cal.ics"
        let before = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Server//EN",
            "BEGIN:VEVENT", "UID:other", "DTSTAMP:20200101T000000Z", "DTSTART:20261210T080000Z", "SUMMARY:Mine", "END:VEVENT",
            "BEGIN:VEVENT", "UID:r", "DTSTAMP:20261201T080000Z", "DTSTART:20261207T100000Z", "RRULE:FREQ=DAILY;COUNT=3",
            "ORGANIZER:mailto:olga@example.com", "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:bob@example.com", "END:VEVENT",
            "BEGIN:VEVENT", "UID:r", "RECURRENCE-ID:20261208T100000Z", "DTSTAMP:20261201T080000Z", "DTSTART:20261208T150000Z",
            "ORGANIZER:mailto:olga@example.com", "ATTENDEE;PARTSTAT=ACCEPTED:mailto:bob@example.com", "END:VEVENT",
            "END:VCALENDAR", "",
        ].joined(separator: "\n")
        try Data(before.utf8).write(to: URL(fileURLWithPath: path))
        let answer = InPlaceAnswer(writer: CalendarWriter(lockTimeout: 5), me: Self.me)
        #expect(try answer.answer(uid: "r", at: .file(path), partstat: "DECLINED", stamp: "20261206T061500Z", comment: nil) == .edited(path))
        let after = try String(contentsOfFile: path, encoding: .utf8)
        #expect(after == before
            .replacingOccurrences(of: "DTSTAMP:20261201T080000Z\nDTSTART:20261207T100000Z", with: "DTSTAMP:20261206T061500Z\nDTSTART:20261207T100000Z")
            .replacingOccurrences(of: "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:bob@example.com", with: "ATTENDEE;PARTSTAT=DECLINED:mailto:bob@example.com"))
        // Answered already: nothing to do, nothing written.
        #expect(try answer.answer(uid: "r", at: .file(path), partstat: "ACCEPTED", stamp: "20261206T070000Z", comment: nil) == .notPending(path))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == after)
    }
}
