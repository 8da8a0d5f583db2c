import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalScan
@testable import CoolcalWriting
@testable import CoolcalCalendarsTests

/// sabre/vobject's iTIP broker expectations (`process.jsonl`: `BrokerProcessMessageTest`,
/// an incoming message and the stored calendar, and what the calendar becomes — null for
/// "nothing to do"), run through coolcal's own changes on the stored text: a REQUEST or
/// CANCEL as `accept` and `merge` apply it (`ITIPChange`), a REPLY as the organizer's side
/// does (`ReplyChange`), anything else as held (nothing written). The result is compared
/// by meaning, event by event (by RECURRENCE-ID): SEQUENCE, STATUS, DTSTART, DTEND or
/// DURATION, and each attendee's PARTSTAT; sabre's `SCHEDULE-STATUS` (a CalDAV server's
/// note) and its dropping of `RSVP` are not compared. Known differences are listed with
/// their reasons and counted.
@Suite struct PeerProcessTests {
    static let known: [String: String] = [
        "testReplyPartyCrasher": "RFC 5546's party crasher is held for the person (issue #28), never added as sabre adds it",
        "testReplyPartyCrashCreateException": "RFC 5546's party crasher is held for the person (issue #28), never added as sabre adds it",
    ]

    /// What is compared of a calendar: one line per VEVENT, sorted — its instance, SEQUENCE,
    /// STATUS, start and end as instants (a floating or date value as written; an end from
    /// DTEND or DTSTART plus DURATION), and each attendee's PARTSTAT.
    static func meaning(_ text: String) throws -> [String] {
        let calendar = try ICalReader.read(Data(text.utf8), file: "peer.ics")
        func instant(_ t: ICalTime?) -> Int64? {
            guard let t else { return nil }
            return t.isDate ? t.fields.secondsAsUTC : CalendarText.instant(t, calendar.zones) ?? t.fields.secondsAsUTC
        }
        return calendar.events.map { e in
            let attendees = e.attendees.map { "\(CalendarAddress.normalized($0.address))=\(($0.partstat ?? "NEEDS-ACTION").uppercased())" }.sorted()
            let start = instant(e.start)
            let end = instant(e.end) ?? e.duration.flatMap { d in start.map { $0 + (d.negative ? -1 : 1) * Int64(d.days * 86_400 + d.seconds) } }
            return "\(instant(e.recurrenceID).map(String.init) ?? "master") seq=\(e.sequence ?? 0) status=\(e.status ?? "-") "
                + "start=\(start.map(String.init) ?? "-") end=\(end.map(String.init) ?? "-") attendees=\(attendees.joined(separator: ","))"
        }.sorted()
    }

    /// What coolcal makes of the stored calendar given the message: the new text, or nil
    /// when nothing is written.
    static func process(_ input: String, existing: String?) throws -> String? {
        let stored = existing ?? "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n"
        let read = try ICalReader.read(Data(input.utf8), file: "message.ics")
        guard let first = (read.events + read.answers).first, let uid = first.uid else { return nil }
        let message = try ITIPMessage(Data(input.utf8), uid: uid, zones: read.zones, file: "message.ics")
        let organizer = first.organizer.map { [CalendarAddress.normalized($0)] } ?? []
        let attendee = first.attendees.first.map { [CalendarAddress.normalized($0.address)] } ?? []
        let change: CalendarChange
        switch read.method {
        case "REQUEST": change = ITIPChange(message: message, cancel: false, me: attendee)
        case "CANCEL": change = ITIPChange(message: message, cancel: true, me: attendee)
        case "REPLY": change = ReplyChange(message: message, me: organizer, sender: nil)
        default: return nil  // published, or no method: held for the person, nothing written
        }
        let text = CalendarText(bytes: Data(stored.utf8))
        let calendar = try ICalReader.read(Data(stored.utf8), file: "stored.ics")
        let (edited, outcome) = try change.apply(to: text, calendar: calendar, file: "stored.ics")
        guard let edited, outcome != .absent, outcome.heldReason == nil else { return nil }
        return String(decoding: edited, as: UTF8.self)
    }

    @Test func brokerProcessMessage() throws {
        guard let cases = try PeerCorpus.cases("process.jsonl") else { return }
        var tally = PeerTally("process.jsonl")
        for c in cases {
            let name = (c["test"] as? String ?? "?").components(separatedBy: "::").last ?? "?"
            guard let input = c["input"] as? String else {
                tally.record(name, .notTranslatable("no input"))
                continue
            }
            let got = try Self.process(input, existing: c["existing"] as? String)
            let expected = c["expected"] as? String
            let same: Bool
            switch (got, expected) {
            case (nil, nil): same = true
            case (let got?, let expected?): same = try Self.meaning(got) == Self.meaning(expected)
            default: same = false
            }
            if let reason = Self.known[name] {
                // A listed case that agrees with sabre fails: the list stays true.
                tally.record(name, same ? .failed("listed as known-different but agrees with sabre") : .knownDifferent(reason))
            } else {
                let detail = "coolcal \(try got.map(Self.meaning) ?? ["nothing"]) sabre \(try expected.map(Self.meaning) ?? ["nothing"])"
                tally.record(name, same ? .passed : .failed(detail))
            }
        }
        tally.report()
    }

    /// A reply names only an instance the organizer made: one whose RECURRENCE-ID is no
    /// instance of the series (10:30 of a daily 10:00) adds nothing to the calendar; a
    /// real one (the 25th, 10:00) gets its override.
    @Test func aReplyCannotAddAnInstance() throws {
        let series = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:daily\r\nSEQUENCE:1\r\nRRULE:FREQ=DAILY;COUNT=10\r\n"
            + "DTSTART:20310724T100000Z\r\nDTEND:20310724T110000Z\r\nORGANIZER:mailto:o@example.org\r\nATTENDEE:mailto:b@example.org\r\n"
            + "END:VEVENT\r\nEND:VCALENDAR\r\n"
        func reply(_ rid: String) -> String {
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nMETHOD:REPLY\r\nBEGIN:VEVENT\r\nUID:daily\r\nSEQUENCE:1\r\nRECURRENCE-ID:\(rid)\r\n"
                + "ORGANIZER:mailto:o@example.org\r\nATTENDEE;PARTSTAT=ACCEPTED:mailto:b@example.org\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        }
        #expect(try Self.process(reply("20310725T103000Z"), existing: series) == nil, "no instance at 10:30")
        #expect(try Self.process(reply("20310810T100000Z"), existing: series) == nil, "past the series' COUNT")
        let taken = try #require(try Self.process(reply("20310725T100000Z"), existing: series))
        #expect(try Self.meaning(taken).contains { $0.hasPrefix("\(CivilDateTime(year: 2031, month: 7, day: 25, hour: 10).secondsAsUTC) ") && $0.contains("b@example.org=ACCEPTED") })
    }
}
