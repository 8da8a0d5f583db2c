import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalWriting
@testable import CoolcalTestSupport

/// RFC 5546 ordering applied to a stored calendar, in process: which version wins,
/// and what the edited bytes are.
@Suite struct ITIPChangeTests {
    let uid = "meet-1@example.org"
    static let head = "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//me//EN\n"
    static let other = "BEGIN:VEVENT\nUID:other\nDTSTAMP:20240101T000000Z\nDTSTART:20240105T100000Z\nSUMMARY:keep  me\nEND:VEVENT\n"

    /// One VEVENT of the UID, CRLF-ended (as a mail client sends it).
    func vevent(sequence: Int, stamp: String = "20240101T000000Z", summary: String, _ extra: String...) -> String {
        (["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:\(stamp)", "SEQUENCE:\(sequence)", "SUMMARY:\(summary)"]
            + extra + ["END:VEVENT"]).map { $0 + "\r\n" }.joined()
    }

    func message(_ body: String, method: String = "REQUEST") throws -> ITIPMessage {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//org//EN\r\nMETHOD:\(method)\r\n" + body + "END:VCALENDAR\r\n"
        let data = Data(text.utf8)
        let calendar = try ICalReader.read(data, file: "m.ics")
        return try ITIPMessage(data, uid: uid, zones: calendar.zones, file: "m.ics")
    }

    /// The stored file (LF-ended), the change applied, and the edited file as text.
    func apply(_ message: ITIPMessage, cancel: Bool = false, to stored: String) throws -> (String?, WriteOutcome) {
        let bytes = Array(stored.utf8)
        let calendar = try ICalReader.read(Data(bytes), file: "cal.ics")
        let (data, outcome) = try ITIPChange(message: message, cancel: cancel, me: ["me@example.com"])
            .apply(to: CalendarText(bytes: bytes), calendar: calendar, file: "cal.ics")
        return (data.map { String(decoding: $0, as: UTF8.self) }, outcome)
    }

    func storedEvent(sequence: Int, summary: String, _ extra: String...) -> String {
        (["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20240101T000000Z", "SEQUENCE:\(sequence)", "SUMMARY:\(summary)",
          "DTSTART:20240102T100000Z", "DTEND:20240102T110000Z"] + extra + ["END:VEVENT"]).map { $0 + "\n" }.joined()
    }

    @Test func aNewerSequenceReplacesTheStoredEventAndNothingElse() throws {
        let stored = Self.head + Self.other + storedEvent(sequence: 1, summary: "Old") + "END:VCALENDAR\n"
        let offered = try message(vevent(sequence: 2, summary: "New", "DTSTART:20240102T120000Z", "DTEND:20240102T130000Z"))
        let (text, outcome) = try apply(offered, to: stored)
        #expect(outcome == .updated)
        let edited = try #require(text)
        #expect(edited.hasPrefix(Self.head + Self.other))
        #expect(edited.hasSuffix("END:VEVENT\nEND:VCALENDAR\n"))
        #expect(!edited.contains("\r"), "the stored file's LF line ends are kept")
        let events = try ICalReader.read(Data(edited.utf8), file: "x").events.filter { $0.uid == uid }
        #expect(events.map(\.summary) == ["New"])
        #expect(events.map(\.sequence) == [2])
    }

    /// A file with several revisions of the UID (Confluence re-exports each edit): the
    /// current one decides, and the written version replaces all of them.
    @Test func severalStoredRevisionsAreAllReplaced() throws {
        let revisions = storedEvent(sequence: 4, summary: "Current") + storedEvent(sequence: 1, summary: "Old")
        let stored = Self.head + revisions + Self.other + "END:VCALENDAR\n"
        // Between the two: stale against the current one, although newer than the first-found old one.
        let (none, stale) = try apply(try message(vevent(sequence: 2, summary: "Mid", "DTSTART:20240102T100000Z")), to: stored)
        #expect(none == nil)
        #expect(stale == .stale("the calendar has a newer version (SEQUENCE 4; this is SEQUENCE 2)"))
        let (text, outcome) = try apply(try message(vevent(sequence: 5, summary: "New", "DTSTART:20240102T120000Z")), to: stored)
        #expect(outcome == .updated)
        let events = try ICalReader.read(Data(try #require(text).utf8), file: "x").events.filter { $0.uid == uid }
        #expect(events.map(\.summary) == ["New"])
        // The same version as the current one, now with my acceptance: no revision is left beside it.
        let mine = try message(vevent(sequence: 4, summary: "Current", "DTSTART:20240102T100000Z",
                                      "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:me@example.com"))
        let asked = Self.head + storedEvent(sequence: 4, summary: "Current", "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:me@example.com")
            + storedEvent(sequence: 4, summary: "Current copy", "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:me@example.com") + "END:VCALENDAR\n"
        let (answered, how) = try apply(mine, to: asked)
        #expect(how == .updated)
        let left = try ICalReader.read(Data(try #require(answered).utf8), file: "x").events.filter { $0.uid == uid }
        #expect(left.count == 1)
        #expect(left.first?.attendees.first?.partstat == "ACCEPTED")
    }

    @Test func anOlderSequenceIsStale() throws {
        let stored = Self.head + storedEvent(sequence: 3, summary: "Newest") + "END:VCALENDAR\n"
        let (text, outcome) = try apply(try message(vevent(sequence: 1, summary: "Old", "DTSTART:20240102T100000Z")), to: stored)
        #expect(text == nil)
        #expect(outcome == .stale("the calendar has a newer version (SEQUENCE 3; this is SEQUENCE 1)"))
    }

    @Test func theSameSequenceWithAnEarlierStampIsStale() throws {
        let stored = Self.head + storedEvent(sequence: 2, summary: "S") + "END:VCALENDAR\n"
        let offered = try message(vevent(sequence: 2, stamp: "20231231T000000Z", summary: "S", "DTSTART:20240102T100000Z"))
        let (text, outcome) = try apply(offered, to: stored)
        #expect(text == nil)
        #expect(outcome == .stale("the calendar has a newer version (same SEQUENCE 2, later DTSTAMP)"))
    }

    @Test func theSameVersionIsUnchanged() throws {
        let stored = Self.head + storedEvent(sequence: 2, summary: "S") + "END:VCALENDAR\n"
        let (text, outcome) = try apply(try message(vevent(sequence: 2, summary: "S", "DTSTART:20240102T100000Z")), to: stored)
        #expect(text == nil)
        #expect(outcome == .unchanged)
    }

    @Test func aCancellationMarksTheStoredEventCancelledInPlace() throws {
        let stored = Self.head + Self.other + storedEvent(sequence: 1, summary: "Old", "STATUS:CONFIRMED", "LOCATION:room") + "END:VCALENDAR\n"
        let (text, outcome) = try apply(try message(vevent(sequence: 2, summary: "Old", "DTSTART:20240102T100000Z"), method: "CANCEL"),
                                        cancel: true, to: stored)
        #expect(outcome == .cancelled)
        #expect(text == Self.head + Self.other
            + "BEGIN:VEVENT\nUID:\(uid)\nDTSTAMP:20240101T000000Z\nSEQUENCE:2\nSUMMARY:Old\n"
            + "DTSTART:20240102T100000Z\nDTEND:20240102T110000Z\nSTATUS:CANCELLED\nLOCATION:room\nEND:VEVENT\n"
            + "END:VCALENDAR\n")
    }

    @Test func aCancellationOfAnEventNotStoredIsAbsent() throws {
        let stored = Self.head + Self.other + "END:VCALENDAR\n"
        let (text, outcome) = try apply(try message(vevent(sequence: 0, summary: "X", "DTSTART:20240102T100000Z"), method: "CANCEL"),
                                        cancel: true, to: stored)
        #expect(text == nil)
        #expect(outcome == .absent)
    }

    @Test func anInstanceOverrideIsAddedBesideTheSeries() throws {
        let series = storedEvent(sequence: 0, summary: "Daily", "RRULE:FREQ=DAILY;COUNT=5")
        let stored = Self.head + series + "END:VCALENDAR\n"
        let instance = try message(vevent(sequence: 0, summary: "Moved", "RECURRENCE-ID:20240103T100000Z",
                                          "DTSTART:20240103T150000Z", "DTEND:20240103T160000Z"))
        let (text, outcome) = try apply(instance, to: stored)
        #expect(outcome == .updated)
        let edited = try #require(text)
        #expect(edited.hasPrefix(Self.head + series + "BEGIN:VEVENT\n"))
        #expect(edited.hasSuffix("END:VEVENT\nEND:VCALENDAR\n"))
        let events = try ICalReader.read(Data(edited.utf8), file: "x").events
        #expect(events.map(\.summary) == ["Daily", "Moved"])
        #expect(events.last?.recurrenceID?.fields == CivilDateTime(year: 2024, month: 1, day: 3, hour: 10, minute: 0, second: 0))
    }

    @Test func cancellingOneInstanceAddsACancelledOverride() throws {
        let series = storedEvent(sequence: 0, summary: "Daily", "RRULE:FREQ=DAILY;COUNT=5")
        let stored = Self.head + series + "END:VCALENDAR\n"
        let cancel = try message(vevent(sequence: 0, summary: "Daily", "RECURRENCE-ID:20240104T100000Z",
                                        "DTSTART:20240104T100000Z"), method: "CANCEL")
        let (text, outcome) = try apply(cancel, cancel: true, to: stored)
        #expect(outcome == .cancelled)
        let edited = try #require(text)
        #expect(edited.hasPrefix(Self.head + series))
        let override = try ICalReader.read(Data(edited.utf8), file: "x").events.first { $0.recurrenceID != nil }
        #expect(override?.status == "CANCELLED")
        #expect(override?.recurrenceID?.fields == CivilDateTime(year: 2024, month: 1, day: 4, hour: 10, minute: 0, second: 0))
    }
}
