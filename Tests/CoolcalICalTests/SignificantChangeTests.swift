import Foundation
import Testing
@testable import CoolcalICal

/// RFC 6638 §3.2.8's significant change, the one rule for my PARTSTAT across an update
/// and for the organizer's rescheduling REQUEST: DTSTART, DTEND/DURATION, RRULE, RDATE,
/// EXDATE — and nothing else.
@Suite struct SignificantChangeTests {
    static let base = [
        "UID:s-1@example.org", "DTSTAMP:20260101T090000Z", "SEQUENCE:1",
        "DTSTART;TZID=Europe/Berlin:20310303T100000", "DTEND;TZID=Europe/Berlin:20310303T110000",
        "RRULE:FREQ=WEEKLY;COUNT=5", "RDATE;TZID=Europe/Berlin:20310401T100000",
        "EXDATE;TZID=Europe/Berlin:20310310T100000,20310317T100000",
        "SUMMARY:Sync", "LOCATION:Room 1", "ORGANIZER:mailto:o@example.org",
        "ATTENDEE;PARTSTAT=ACCEPTED:mailto:a@example.org",
    ]

    static func event(_ lines: [String]) throws -> ICalEvent {
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "BEGIN:VEVENT"] + lines + ["END:VEVENT", "END:VCALENDAR", ""])
            .joined(separator: "\r\n")
        return try #require(try ICalReader.read(Data(text.utf8), file: "e.ics").events.first)
    }

    /// `base` with the line of each name in `changes` replaced (added when `base` has
    /// none), and those in `dropping` left out.
    static func changed(_ changes: [String: String], dropping: Set<String> = []) throws -> ICalEvent {
        var lines = base.compactMap { line -> String? in
            let name = String(line.prefix { $0 != ":" && $0 != ";" })
            if dropping.contains(name) { return nil }
            return changes[name] ?? line
        }
        lines += changes.filter { key, _ in !base.contains { $0.hasPrefix(key) } }.map(\.value)
        return try event(lines)
    }

    @Test(arguments: [
        ("DTSTART", "DTSTART;TZID=Europe/Berlin:20310303T110000"),
        ("DTSTART", "DTSTART:20310303T090000Z"),
        ("DTEND", "DTEND;TZID=Europe/Berlin:20310303T113000"),
        ("DURATION", "DURATION:PT2H"),
        ("RRULE", "RRULE:FREQ=WEEKLY;COUNT=6"),
        ("RDATE", "RDATE;TZID=Europe/Berlin:20310402T100000"),
        ("EXDATE", "EXDATE;TZID=Europe/Berlin:20310310T100000"),
    ])
    func aChangeOfTimeIsSignificant(_ name: String, _ line: String) throws {
        let changed = try Self.changed([name: line], dropping: name == "DURATION" ? ["DTEND"] : [])
        #expect(SignificantChange.between(try Self.event(Self.base), changed), "\(line)")
    }

    @Test func droppingARecurrenceIsSignificant() throws {
        for name in ["RRULE", "RDATE", "EXDATE"] {
            #expect(SignificantChange.between(try Self.event(Self.base), try Self.changed([:], dropping: [name])), "\(name)")
        }
    }

    @Test(arguments: [
        ("SUMMARY", "SUMMARY:Renamed"), ("LOCATION", "LOCATION:Room 2"), ("SEQUENCE", "SEQUENCE:2"),
        ("DTSTAMP", "DTSTAMP:20260202T090000Z"), ("ATTENDEE", "ATTENDEE;PARTSTAT=DECLINED:mailto:a@example.org"),
        ("DESCRIPTION", "DESCRIPTION:New agenda"),
    ])
    func anythingElseIsNot(_ name: String, _ line: String) throws {
        #expect(!SignificantChange.between(try Self.event(Self.base), try Self.changed([name: line])), "\(line)")
    }

    /// The same end written as DURATION instead of DTEND, EXDATEs in another order or
    /// on separate lines: the same time.
    @Test func theSameTimeWrittenOtherwiseIsNot() throws {
        let old = try Self.event(Self.base)
        #expect(!SignificantChange.between(old, try Self.changed(["DURATION": "DURATION:PT1H"], dropping: ["DTEND"])))
        #expect(!SignificantChange.between(old, try Self.changed([
            "EXDATE": "EXDATE;TZID=Europe/Berlin:20310317T100000\r\nEXDATE;TZID=Europe/Berlin:20310310T100000",
        ])))
        #expect(!SignificantChange.between(old, old))
    }
}
