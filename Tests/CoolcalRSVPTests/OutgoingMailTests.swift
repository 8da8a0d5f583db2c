import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalMail
@testable import CoolcalICal
@testable import CoolcalInvite
@testable import CoolcalRSVP

/// Issue #44, what coolcal sends: every kind of mail (REPLY, COUNTER, DECLINECOUNTER, the
/// organizer's REQUEST, and #46's comment REPLY) carries UTF-8 bytes under its `charset=UTF-8` label — checked on
/// the bytes after the transfer encoding is undone, never by a parse that would forgive
/// Latin-1 — with the Subject and the From's name as UTF-8 encoded-words, and no line
/// over 78 octets.
@Suite struct OutgoingMailTests {
    static let now = Date(timeIntervalSince1970: 1_787_000_000)
    static let me = "zoe@example.com"
    static let name = "Zoë"

    static func invitation(title: String, method: String = "REQUEST", extra: [String] = []) -> String {
        ([
            "BEGIN:VCALENDAR", "PRODID:-//Test//EN", "VERSION:2.0", "METHOD:\(method)",
            "BEGIN:VTIMEZONE", "TZID:Europe/Berlin",
            "BEGIN:STANDARD", "DTSTART:19701025T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100",
            "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD",
            "BEGIN:DAYLIGHT", "DTSTART:19700329T020000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
            "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT", "END:VTIMEZONE",
            "BEGIN:VEVENT", "UID:cafe-1@example.org", "SEQUENCE:2",
            "DTSTART;TZID=Europe/Berlin:20310822T100000", "DTEND;TZID=Europe/Berlin:20310822T110000",
            "DTSTAMP:20260815T091500Z", "ORGANIZER;CN=Jürgen Groß:mailto:juergen@example.org",
            "ATTENDEE;CN=Zoe;PARTSTAT=\(method == "COUNTER" ? "NEEDS-ACTION" : "NEEDS-ACTION;RSVP=TRUE"):mailto:\(me)",
            "ATTENDEE;CN=Ådne;PARTSTAT=ACCEPTED:mailto:adne@example.org",
            "SUMMARY:\(title)", "LOCATION:Straße 5, Köln",
        ] + extra + ["END:VEVENT", "END:VCALENDAR", ""]).joined(separator: "\r\n")
    }

    static func file(_ text: String) throws -> InvitationFile {
        try InviteLoader.open(Data(text.utf8), name: "invite.ics", floatingZone: TimeZone(identifier: "UTC")!, acceptingReplies: true)
    }

    /// The attendee's REPLY and COUNTER, and, with the roles turned round (the counter
    /// from Ådne to Zoë, who organises), the DECLINECOUNTER and the rescheduling REQUEST.
    static func everyKind(title: String, comment: String? = nil, name: String = name) throws -> [(String, ReplyMessage)] {
        let invite = try file(invitation(title: title))
        let reply = try MailReply(invite, me: [me], partstat: "ACCEPTED", comment: comment, now: now, domain: "example.com", name: name)
        let counter = try MailReply.counter(invite, me: [me], start: .instant(1_945_000_000), end: .instant(1_945_003_600),
                                            comment: comment, now: now, domain: "example.com", name: name)
        let proposal = try file(invitation(title: title, method: "COUNTER")
            .replacingOccurrences(of: "mailto:juergen@example.org", with: "mailto:\(me)"))
        let decline = try MailReply.declineCounter(proposal, attendee: "adne@example.org", me: [me], comment: comment, now: now,
                                                   domain: "example.com", name: name)
        let organized = invitation(title: title).replacingOccurrences(of: "mailto:juergen@example.org", with: "mailto:\(me)")
        let block = try #require(organized.range(of: "BEGIN:VEVENT").flatMap { start in
            organized.range(of: "END:VEVENT\r\n").map { String(organized[start.lowerBound..<$0.upperBound]) }
        })
        let zone = try #require(organized.range(of: "BEGIN:VTIMEZONE").flatMap { start in
            organized.range(of: "END:VTIMEZONE\r\n").map { String(organized[start.lowerBound..<$0.upperBound]) }
        })
        let request = try #require(ITIPMessage.request(events: [block], zones: [zone]))
        let update = try #require(try MailReply.update(uid: "cafe-1@example.org", title: title, request: request, sequence: 3,
                                                       attendees: ["mailto:\(me)", "mailto:adne@example.org"], me: [me], now: now,
                                                       domain: "example.com", name: name))
        let comment = try MailReply(invite, me: [me], partstat: "NEEDS-ACTION", comment: comment ?? "Running late", now: now,
                                    domain: "example.com", name: name, commentOnly: true)
        return [("REPLY", reply.message), ("COUNTER", counter.message), ("DECLINECOUNTER", decline.message),
                ("REQUEST", update.message), ("comment REPLY", comment.message)]
    }

    static let utf8Zoe: [UInt8] = Array("Zoë".utf8)

    /// é as UTF-8 (`C3 A9`) in both parts, never Latin-1 (`E9`) under the UTF-8 label;
    /// the title's en dash likewise; the Subject and the From's name UTF-8 encoded-words.
    @Test(arguments: ["Café-Besprechung", "Planung – Q3"])
    func everyKindSendsUTF8(_ title: String) throws {
        for (kind, message) in try Self.everyKind(title: title, comment: "Grüße, Zoë") {
            let mail = WireMail(message.rendered())
            let calendar = try #require(mail.part("text/calendar"), "\(kind)")
            let text = try #require(mail.part("text/plain"), "\(kind)")
            for part in [calendar, text] {
                #expect(part.header("Content-Type")?.contains("charset=UTF-8") == true, "\(kind): \(part.headers)")
                #expect(String(validating: part.bytes, as: UTF8.self) != nil, "\(kind): not UTF-8")
                #expect(!part.bytes.contains(0xE9) && !part.bytes.contains(0xEB), "\(kind): Latin-1 bytes under a UTF-8 label")
            }
            // The title is in the calendar's SUMMARY (not in DECLINECOUNTER, whose table has none).
            if kind != "DECLINECOUNTER" {
                #expect(calendar.bytes.contains(bytes: Array("SUMMARY:\(title)".utf8)), "\(kind): \(calendar.text)")
            }
            #expect(calendar.bytes.contains(bytes: Array("COMMENT:Grüße\\, Zoë".utf8)) || kind == "REQUEST", "\(kind)")
            #expect(text.bytes.contains(bytes: Self.utf8Zoe), "\(kind): \(text.text)")
            if title.hasPrefix("Café") {
                #expect(calendar.rawLines.contains { $0.contains("Caf=C3=A9") } || kind == "DECLINECOUNTER", "\(kind)")
            }
            let subject = try #require(mail.header("Subject"), "\(kind)")
            let words = WireMail.encodedWords(subject)
            #expect(!words.isEmpty && words.allSatisfy { $0.charset == "utf-8" }, "\(kind): \(subject)")
            let foreign = String(title.unicodeScalars.filter { !$0.isASCII })
            #expect(words.flatMap(\.bytes).contains(bytes: Array(foreign.utf8)), "\(kind): \(subject)")
            let from = try #require(mail.header("From"), "\(kind)")
            let fromWords = WireMail.encodedWords(from)
            #expect(fromWords.map(\.charset) == ["utf-8"] && fromWords.first?.bytes == Self.utf8Zoe, "\(kind): \(from)")
        }
    }

    /// RFC 5322 §2.1.1: no line over 78 octets, in the headers or in any part, whatever
    /// the title or the comment; a long comment line goes out quoted-printable.
    @Test(arguments: ["Zoë", "Zoe"])
    func noLineIsLongerThan78(_ name: String) throws {
        let long = String(repeating: "Ein sehr langer Titel für das Café ", count: 4) + "Ende"
        let comment = "Short line.\n" + String(repeating: "a rather long comment line without any break at all ", count: 4)
        for (kind, message) in try Self.everyKind(title: long, comment: comment, name: name) {
            let mail = WireMail(message.rendered())
            let over = mail.lines.filter { $0.utf8.count > 78 }
            #expect(over.isEmpty, "\(kind): \(over)")
            let text = try #require(mail.part("text/plain"))
            // The update carries no comment: nothing of the user's to encode.
            #expect(text.header("Content-Transfer-Encoding")?.lowercased().hasSuffix("quoted-printable") == true || kind == "REQUEST",
                    "\(kind)")
            #expect(text.text.contains(comment) || kind == "REQUEST", "\(kind): the comment's words survive")
            // The calendar part stays folded at 75 octets (RFC 5545 §3.1), its UTF-8 unsplit.
            let calendar = try #require(mail.part("text/calendar"))
            let folded = calendar.bytes.split(separator: 0x0A).filter { $0.count > 75 }
            #expect(folded.isEmpty, "\(kind): \(folded.map { String(decoding: $0, as: UTF8.self) })")
            #expect(String(validating: calendar.bytes, as: UTF8.self) != nil, "\(kind)")
            // coolcal's own sentence is wrapped, not encoded: every line of it within 76 columns.
            let own = text.text.components(separatedBy: "\n\n").first ?? ""
            #expect(own.split(separator: "\n").allSatisfy { $0.count <= 76 }, "\(kind): \(own)")
        }
    }

    /// An ASCII text with short lines stays 7bit, readable as it is.
    @Test func plainASCIIStaysSevenBit() throws {
        for (kind, message) in try Self.everyKind(title: "Sync", name: "Zoe") {
            let mail = WireMail(message.rendered())
            let text = try #require(mail.part("text/plain"))
            #expect(text.header("Content-Transfer-Encoding") == nil || text.header("Content-Transfer-Encoding")?.hasSuffix("7bit") == true,
                    "\(kind): \(text.headers)")
        }
    }

    /// My ATTENDEE's SENT-BY goes out only when the mail is from that address (the first
    /// of `me`); one left from an earlier answer by someone else is dropped.
    @Test func aStaleSentByIsDropped() throws {
        let text = Self.invitation(title: "Sync").replacingOccurrences(
            of: "ATTENDEE;CN=Zoe;", with: "ATTENDEE;CN=Zoe;SENT-BY=\"mailto:assistant@example.com\";")
        let invite = try Self.file(text)
        func calendars(_ me: [String]) throws -> [String] {
            let reply = try MailReply(invite, me: me, partstat: "ACCEPTED", comment: nil, now: Self.now, domain: "example.com")
            let counter = try MailReply.counter(invite, me: me, start: .instant(1_945_000_000), end: .instant(1_945_003_600),
                                                comment: nil, now: Self.now, domain: "example.com")
            return [reply.message.calendar, counter.message.calendar]
        }
        for calendar in try calendars([Self.me]) {
            #expect(!calendar.contains("SENT-BY"), "\(calendar)")
            #expect(calendar.contains("mailto:\(Self.me)"))
        }
        // Sent from the assistant's address: the SENT-BY is true, and kept.
        for calendar in try calendars(["assistant@example.com", Self.me]) {
            let unfolded = calendar.replacingOccurrences(of: "\r\n ", with: "")
            #expect(unfolded.contains("SENT-BY=\"mailto:assistant@example.com\""), "\(calendar)")
        }
    }
}
