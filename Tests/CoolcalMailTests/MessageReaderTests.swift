import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalMail
@testable import CoolcalInvite
@testable import CoolcalSpool

/// Mail/MessageReader: the sniff, the search for the invitation part, decoding, headers.
@Suite struct MessageReaderTests {
    static let calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:u1\r\nSUMMARY:Caf\u{E9}\r\nDTSTART:20310101T100000Z\r\nDTEND:20310101T110000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"

    func message(_ text: String) -> Data {
        Data(text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n").utf8)
    }

    @Test func sniffTellsMessagesFromJSONAndICalendar() {
        #expect(MessageReader.isMessage(message("From: a@example.com\nSubject: x\n\nbody\n")))
        #expect(MessageReader.isMessage(message("From a@example.com Tue Dec  1 10:00:00 2026\nFrom: a@example.com\n\nbody\n")))
        #expect(MessageReader.isMessage(message("Received: from x\n  by y\nX-Other: 1\nMessage-ID: <a@b>\n\nbody")))
        // A header block without any header a message has, JSON, iCalendar, text: no.
        #expect(!MessageReader.isMessage(message("X-Custom: 1\nX-Other: 2\n\nbody\n")))
        #expect(!MessageReader.isMessage(Data(#"{"title": "T", "start": "x"}"#.utf8)))
        #expect(!MessageReader.isMessage(Data(Self.calendar.utf8)))
        #expect(!MessageReader.isMessage(Data("junk".utf8)))
        #expect(!MessageReader.isMessage(Data()))
        #expect(!MessageReader.isMessage(message(" From: folded first\n\n")))
        #expect(!MessageReader.isMessage(message("From nobody\n")))
    }

    @Test func base64CalendarInAlternativeWithHeaders() throws {
        let b64 = Data(Self.calendar.utf8).base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn])
        let found = try MessageReader.read(message("""
        From: =?UTF-8?Q?J=C3=B6rg_M=C3=BCller?= <joerg@example.com>
        Subject: =?UTF-8?B?RWlubGFkdW5nOiBDYWbDqQ==?=
        Message-ID: <CAF=abc@mail.example.com>
        Date: Tue, 01 Dec 2026 10:00:00 +0100
        MIME-Version: 1.0
        Content-Type: multipart/alternative; boundary="b1"

        --b1
        Content-Type: text/plain; charset=UTF-8

        Hello
        --b1
        Content-Type: text/calendar; charset=UTF-8; method=REQUEST
        Content-Transfer-Encoding: base64

        \(b64)
        --b1--
        """))
        #expect(String(decoding: found.calendar, as: UTF8.self) == Self.calendar)
        #expect(found.partType == "text/calendar")
        var expected = MailHeaders(from: "Jörg Müller <joerg@example.com>", subject: "Einladung: Café",
                                   messageID: "CAF=abc@mail.example.com", date: "Tue, 01 Dec 2026 10:00:00 +0100")
        // The calendar part's own Content-Type method (RFC 6047 §2.4), as written.
        expected.contentMethod = "REQUEST"
        #expect(found.headers == expected)
    }

    @Test func latin1QuotedPrintableIsConvertedToUTF8() throws {
        let qp = Self.calendar.replacingOccurrences(of: "Caf\u{E9}", with: "Caf=E9")
        let found = try MessageReader.read(message("""
        From: a@example.com
        Content-Type: text/calendar; charset=iso-8859-1; method=REQUEST
        Content-Transfer-Encoding: quoted-printable

        \(qp)
        """))
        #expect(String(decoding: found.calendar, as: UTF8.self).contains("SUMMARY:Café\r\n"))
        #expect(found.headers.subject == nil && found.headers.messageID == nil)
    }

    @Test func inlineCalendarBeatsAnEarlierAttachment() throws {
        let other = Self.calendar.replacingOccurrences(of: "UID:u1", with: "UID:attached")
        let found = try MessageReader.read(message("""
        From: a@example.com
        Content-Type: multipart/mixed; boundary=m

        --m
        Content-Type: application/octet-stream; name=invite.ics
        Content-Disposition: attachment; filename=invite.ics

        \(other)
        --m
        Content-Type: text/calendar; charset=utf-8

        \(Self.calendar)
        --m--
        """))
        #expect(String(decoding: found.calendar, as: UTF8.self).contains("UID:u1"))
    }

    @Test func attachmentInAForwardedMessage() throws {
        let found = try MessageReader.read(message("""
        From: fwd@example.com
        Subject: Fwd: x
        Content-Type: multipart/mixed; boundary=outer

        --outer
        Content-Type: text/plain

        see below
        --outer
        Content-Type: message/rfc822

        From: orig@example.com
        Subject: x
        Content-Type: multipart/mixed; boundary=inner

        --inner
        Content-Type: text/plain

        hi
        --inner
        Content-Type: application/octet-stream
        Content-Disposition: attachment; filename="Invite.ICS"
        Content-Transfer-Encoding: base64

        \(Data(Self.calendar.utf8).base64EncodedString())
        --inner--
        --outer--
        """))
        #expect(String(decoding: found.calendar, as: UTF8.self) == Self.calendar)
        // The headers are the outer message's: the one that arrived.
        #expect(found.headers.from == "fwd@example.com")
    }

    @Test func noInvitationNamesWhatWasFound() {
        let data = message("""
        From: a@example.com
        Message-ID: <m1@example.com>
        Content-Type: multipart/mixed; boundary=m

        --m
        Content-Type: multipart/alternative; boundary=a

        --a
        Content-Type: text/plain

        hi
        --a
        Content-Type: text/html

        <p>hi</p>
        --a--
        --m
        Content-Type: image/png; name=a.png
        Content-Transfer-Encoding: base64

        iVBORw0KGgo=
        --m--
        """)
        #expect(throws: MessageError(message: "no calendar invitation in this message (3 parts: text/plain, text/html, image/png)",
                                     headers: MailHeaders(from: "a@example.com", messageID: "m1@example.com"))) {
            try MessageReader.read(data)
        }
        #expect(throws: MessageError(message: "no calendar invitation in this message (1 part: text/plain)",
                                     headers: MailHeaders(from: "a@example.com"))) {
            try MessageReader.read(message("From: a@example.com\n\njust text\n"))
        }
    }

    @Test func aCalendarPartOverTheInvitationBoundIsRefused() {
        let big = String(repeating: "X-PAD:" + String(repeating: "a", count: 70) + "\r\n", count: 14_000)
        let data = message("From: a@example.com\nContent-Type: text/calendar; method=REQUEST\n\nBEGIN:VCALENDAR\n\(big)END:VCALENDAR\n")
        do {
            _ = try MessageReader.read(data)
            Issue.record("a 1 MiB+ calendar part was accepted")
        } catch let e as MessageError {
            #expect(e.message.hasPrefix("the calendar part (text/calendar) is too large ("))
            #expect(e.message.hasSuffix(" bytes; at most 1048576)"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func nestingBeyondTheLimitIsNotFollowed() {
        var text = "From: a@example.com\n"
        for i in 0..<40 { text += "Content-Type: multipart/mixed; boundary=b\(i)\n\n--b\(i)\n" }
        text += "Content-Type: text/calendar; method=REQUEST\n\n\(Self.calendar)"
        #expect(throws: MessageError.self) { try MessageReader.read(message(text)) }
    }

    @Test func sha256IsTheStandardDigest() {
        #expect(MessageReader.sha256(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(MessageReader.sha256(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func maildirFlagsAreAddedInOrder() {
        #expect(Maildir.name("1.M2P3.host", adding: "S") == "1.M2P3.host:2,S")
        #expect(Maildir.name("1.M2P3.host:2,FR", adding: "S") == "1.M2P3.host:2,FRS")
        #expect(Maildir.name("1.M2P3.host:2,S", adding: "S") == "1.M2P3.host:2,S")
        #expect(Maildir.flags(of: "1.host:2,RS") == "RS")
        #expect(Maildir.flags(of: "1.host") == "")
    }
}
