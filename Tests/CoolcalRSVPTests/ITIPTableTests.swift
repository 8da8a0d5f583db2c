import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalInvite
@testable import CoolcalRSVP

/// What coolcal sends against RFC 5546's restriction tables, written out by hand from
/// the RFC: §3.2.8 (DECLINECOUNTER), §3.2.3 (REPLY, as `comment --reply` sends it) and
/// §3.2.2 (REQUEST, as the organizer sends after taking a counter-proposal).
@Suite struct ITIPTableTests {
    /// One content line, unfolded: the components it is inside, its name and its parameters.
    struct Line {
        var path: [String]
        var name: String
        var parameters: String
        var value: String
    }

    static func lines(_ calendar: String) -> [Line] {
        let unfolded = calendar.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n ", with: "")
            .replacingOccurrences(of: "\n\t", with: "")
        var path: [String] = []
        var out: [Line] = []
        for raw in unfolded.split(separator: "\n") {
            let line = String(raw)
            let head = line.prefix { $0 != ":" }
            let name = String(head.prefix { $0 != ";" }).uppercased()
            let value = String(line.dropFirst(head.count + 1))
            if name == "BEGIN" { path.append(value.uppercased()); continue }
            if name == "END" { path.removeLast(); continue }
            out.append(Line(path: path, name: name, parameters: String(head.dropFirst(name.count)), value: value))
        }
        return out
    }

    /// RFC 5546 §3.2.8, the VEVENT of a DECLINECOUNTER: DTSTAMP, ORGANIZER and UID once;
    /// COMMENT, RECURRENCE-ID and SEQUENCE at most once (SEQUENCE present when not 0);
    /// REQUEST-STATUS and X- properties any number; every other property (ATTENDEE among
    /// them) and VALARM never.
    static let declineCounterOnce: Set<String> = ["DTSTAMP", "ORGANIZER", "UID"]
    static let declineCounterAtMostOnce: Set<String> = ["COMMENT", "RECURRENCE-ID", "SEQUENCE"]
    static let declineCounterNever: Set<String> = [
        "ATTACH", "ATTENDEE", "CATEGORIES", "CLASS", "CONTACT", "CREATED", "DESCRIPTION", "DTEND", "DTSTART", "DURATION",
        "EXDATE", "EXRULE", "GEO", "LAST-MODIFIED", "LOCATION", "PRIORITY", "RDATE", "RELATED-TO", "RESOURCES", "RRULE",
        "STATUS", "SUMMARY", "TRANSP", "URL",
    ]

    static func counter(recurrenceID: String?) -> String {
        ([
            "BEGIN:VCALENDAR", "PRODID:-//Test//EN", "VERSION:2.0", "METHOD:COUNTER",
            "BEGIN:VTIMEZONE", "TZID:Europe/Berlin",
            "BEGIN:STANDARD", "DTSTART:19701025T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100",
            "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD",
            "BEGIN:DAYLIGHT", "DTSTART:19700329T020000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
            "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT", "END:VTIMEZONE",
            "BEGIN:VEVENT", "UID:sync-1@example.com", "SEQUENCE:3", "DTSTAMP:20260102T090000Z",
        ] + (recurrenceID.map { ["RECURRENCE-ID;TZID=Europe/Berlin:\($0)"] } ?? []) + [
            "DTSTART:20310303T130000Z", "DTEND:20310303T140000Z", "SUMMARY:Team sync", "LOCATION:Room 1",
            "ORGANIZER;CN=Me:mailto:me@example.com",
            "ATTENDEE;CN=Bob Example;PARTSTAT=NEEDS-ACTION:mailto:bob@example.org",
            "ATTENDEE;CN=Carol;PARTSTAT=ACCEPTED:mailto:carol@example.org",
            "COMMENT:Later?", "END:VEVENT", "END:VCALENDAR", "",
        ]).joined(separator: "\r\n")
    }

    @Test(arguments: [nil, "20310303T110000"])
    func declineCounterFollowsItsTable(_ recurrenceID: String?) throws {
        let file = try InviteLoader.open(Data(Self.counter(recurrenceID: recurrenceID).utf8), name: "c.ics",
                                         floatingZone: TimeZone(identifier: "UTC")!, acceptingReplies: true)
        let mail = try MailReply.declineCounter(file, attendee: "bob@example.org", me: ["me@example.com"], comment: "No, sorry",
                                                now: Date(timeIntervalSince1970: 1_787_000_000), domain: "example.com")
        let lines = Self.lines(mail.message.calendar)
        #expect(lines.first { $0.path == ["VCALENDAR"] && $0.name == "METHOD" }?.value == "DECLINECOUNTER")
        let event = lines.filter { $0.path == ["VCALENDAR", "VEVENT"] }
        let names = event.map(\.name)
        for name in Self.declineCounterOnce {
            #expect(names.filter { $0 == name }.count == 1, "\(name) once: \(names)")
        }
        for name in Self.declineCounterAtMostOnce {
            #expect(names.filter { $0 == name }.count <= 1, "\(name) at most once: \(names)")
        }
        #expect(names.contains("SEQUENCE"), "SEQUENCE 3 must be echoed")
        #expect(event.first { $0.name == "SEQUENCE" }?.value == "3")
        for name in names {
            #expect(!Self.declineCounterNever.contains(name), "\(name) is not allowed in a DECLINECOUNTER")
            #expect(Self.declineCounterOnce.contains(name) || Self.declineCounterAtMostOnce.contains(name)
                    || name == "REQUEST-STATUS" || name.hasPrefix("X-"), "\(name) is not in the table")
        }
        #expect(!lines.contains { $0.path.contains("VALARM") })
        // An instance's RECURRENCE-ID keeps its zone's VTIMEZONE; a series names none.
        let zones = lines.filter { $0.path == ["VCALENDAR", "VTIMEZONE"] && $0.name == "TZID" }.map(\.value)
        #expect(zones == (recurrenceID == nil ? [] : ["Europe/Berlin"]))
        #expect(names.contains("RECURRENCE-ID") == (recurrenceID != nil))
        // Addressed by To only: Bob, not Carol.
        let rendered = mail.message.rendered()
        #expect(rendered.contains("\nTo: bob@example.org\n") && !rendered.contains("carol"), "\(rendered)")
    }

    /// RFC 5546 §3.2.3, the VEVENT of a REPLY: ATTENDEE (the one replying), DTSTAMP,
    /// ORGANIZER and UID once; SEQUENCE at most once (present when not 0); RECURRENCE-ID
    /// at most once, only for an instance; COMMENT and the other single-valued properties
    /// at most once; ATTACH, CONTACT, EXDATE, EXRULE, RDATE, RELATED-TO, REQUEST-STATUS,
    /// RRULE and X- properties any number; VALARM never. A VTIMEZONE for every TZID used.
    static let replyOnce: Set<String> = ["ATTENDEE", "DTSTAMP", "ORGANIZER", "UID"]
    static let replyAtMostOnce: Set<String> = [
        "RECURRENCE-ID", "SEQUENCE", "CATEGORIES", "CLASS", "COMMENT", "CREATED", "DESCRIPTION", "DTEND", "DTSTART",
        "DURATION", "GEO", "LAST-MODIFIED", "LOCATION", "PRIORITY", "RESOURCES", "STATUS", "SUMMARY", "TRANSP", "URL",
    ]
    static let replyAnyNumber: Set<String> = [
        "ATTACH", "CONTACT", "EXDATE", "EXRULE", "RDATE", "RELATED-TO", "REQUEST-STATUS", "RRULE",
    ]

    /// `comment --reply`: a REPLY with the answer as it stands (NEEDS-ACTION while
    /// unanswered, ACCEPTED after an accept) and the comment, by the table.
    @Test(arguments: [nil, "20310822T100000"], ["NEEDS-ACTION", "ACCEPTED"])
    func commentReplyFollowsItsTable(_ recurrenceID: String?, _ partstat: String) throws {
        let text = OutgoingMailTests.invitation(title: "Sync", extra: recurrenceID.map { ["RECURRENCE-ID;TZID=Europe/Berlin:\($0)"] } ?? [])
        let mail = try MailReply(try OutgoingMailTests.file(text), me: [OutgoingMailTests.me], partstat: partstat,
                                 comment: "Running late", now: OutgoingMailTests.now, domain: "example.com", commentOnly: true)
        let lines = Self.lines(mail.message.calendar)
        #expect(lines.first { $0.path == ["VCALENDAR"] && $0.name == "METHOD" }?.value == "REPLY")
        let event = lines.filter { $0.path == ["VCALENDAR", "VEVENT"] }
        let names = event.map(\.name)
        for name in Self.replyOnce {
            #expect(names.filter { $0 == name }.count == 1, "\(name) once: \(names)")
        }
        for name in Self.replyAtMostOnce {
            #expect(names.filter { $0 == name }.count <= 1, "\(name) at most once: \(names)")
        }
        for name in names {
            #expect(Self.replyOnce.contains(name) || Self.replyAtMostOnce.contains(name) || Self.replyAnyNumber.contains(name)
                    || name.hasPrefix("X-"), "\(name) is not in the table")
        }
        #expect(!(names.contains("DTEND") && names.contains("DURATION")), "\(names)")
        #expect(!lines.contains { $0.path.contains("VALARM") })
        #expect(event.first { $0.name == "SEQUENCE" }?.value == "2", "SEQUENCE 2 must be echoed")
        #expect(names.contains("RECURRENCE-ID") == (recurrenceID != nil))
        // The attendee replying is me, with my answer as it stands and no RSVP; the comment as given.
        let attendee = try #require(event.first { $0.name == "ATTENDEE" })
        #expect(attendee.value == "mailto:\(OutgoingMailTests.me)")
        #expect(attendee.parameters.contains(";PARTSTAT=\(partstat)") && !attendee.parameters.contains("RSVP"), "\(attendee.parameters)")
        #expect(event.first { $0.name == "COMMENT" }?.value == "Running late")
        let zones = lines.filter { $0.path == ["VCALENDAR", "VTIMEZONE"] && $0.name == "TZID" }.map(\.value)
        #expect(zones == ["Europe/Berlin"])
        #expect(mail.message.subject == "Comment: Sync")
        let said = partstat == "ACCEPTED" ? "has accepted" : "has not answered"
        #expect(mail.message.text == "Zoe \(said) this invitation, and comments:\n\nRunning late", "\(mail.message.text)")
    }
}
