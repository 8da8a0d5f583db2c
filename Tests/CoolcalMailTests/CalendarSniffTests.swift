import Foundation
import Testing
@testable import CoolcalMail
@testable import CoolcalTestSupport

/// Issue #30: `CalendarSniff` says "no invitation here" only when GMime would find none:
/// over the real-mail corpus (every message whose invitation `MessageReader` finds is
/// sniffed as possible), and over hand-written messages of each shape a calendar part
/// takes (inline, attached, single part, upper case, an encoded file name).
@Suite struct CalendarSniffTests {
    func message(_ text: String) -> Data {
        Data(text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n").utf8)
    }

    static let ics = "BEGIN:VCALENDAR\nVERSION:2.0\nMETHOD:REQUEST\nBEGIN:VEVENT\nUID:u1\nDTSTART:20310101T100000Z\nEND:VEVENT\nEND:VCALENDAR\n"

    @Test func messagesWithoutACalendarPartAreToldWithoutGMime() throws {
        let plain = message("From: a@example.com\nSubject: lunch\nContent-Type: text/plain; charset=utf-8\n\nSee you at the café: https://example.com/a/b.html\n")
        let bare = message("From: a@example.com\nSubject: no type at all\n\nhello\n")
        let alternative = message("""
            From: a@example.com\nSubject: news\nMIME-Version: 1.0\nContent-Type: multipart/alternative; boundary="b"\n
            --b\nContent-Type: text/plain\n\nhello\n--b\nContent-Type: text/html\n\n<p>hello</p>\n--b--\n
            """)
        for data in [plain, bare, alternative] {
            #expect(!CalendarSniff.mayHoldCalendar(data))
            // GMime agrees: no invitation in any of them.
            #expect(throws: MessageError.self) { try MessageReader.read(data) }
        }
    }

    /// The settled rule: any of the words anywhere in the bytes, even in a plain text
    /// body, and the message is GMime's to read — the sniff never judges by headers alone.
    @Test(arguments: ["BEGIN:VCALENDAR", "begin:vcalendar", "the file invite.ics", "type text/calendar", "an APPLICATION/ICS part",
                      "=?UTF-8?Q?caf=C3=A9?="])
    func aWordAnywhereIsForGMime(_ word: String) throws {
        let data = message("From: a@example.com\nSubject: lunch\nContent-Type: text/plain; charset=utf-8\n\nSee you there. \(word)\n")
        #expect(CalendarSniff.mayHoldCalendar(data))
        let without = message("From: a@example.com\nSubject: lunch\nContent-Type: text/plain; charset=utf-8\n\nSee you there.\n")
        #expect(!CalendarSniff.mayHoldCalendar(without))
    }

    @Test(arguments: [
        // Gmail: inline text/calendar in multipart/alternative.
        "Content-Type: multipart/alternative; boundary=\"b\"\n\n--b\nContent-Type: text/plain\n\nx\n--b\nContent-Type: text/calendar; method=REQUEST\n\n@CAL@\n--b--\n",
        // Outlook: the whole message is the calendar, in upper case, folded.
        "Content-Type: TEXT/CALENDAR;\n method=REQUEST\n\n@CAL@",
        // An attachment named .ics, typed as bytes.
        "Content-Type: multipart/mixed; boundary=\"b\"\n\n--b\nContent-Type: text/plain\n\nx\n--b\nContent-Type: application/octet-stream\nContent-Disposition: attachment; filename=\"Invite.ICS\"\n\n@CAL@\n--b--\n",
        // application/ics alone.
        "Content-Type: application/ics; name=\"x\"\n\n@CAL@",
        // A single-part attachment whose name is only in its disposition.
        "Content-Type: application/octet-stream\nContent-Disposition: attachment; filename=meeting.ical\n\n@CAL@",
        // A name hidden in an RFC 2047 word (base64 of "invite.ics").
        "Content-Type: multipart/mixed; boundary=\"b\"\n\n--b\nContent-Type: application/octet-stream; name=\"=?UTF-8?B?aW52aXRlLmljcw==?=\"\n\n@CAL@\n--b--\n",
    ])
    func everyShapeOfACalendarPartIsForGMime(_ shape: String) throws {
        let data = message("From: a@example.com\nSubject: s\nMIME-Version: 1.0\n" + shape.replacingOccurrences(of: "@CAL@", with: Self.ics))
        #expect(CalendarSniff.mayHoldCalendar(data))
    }

    /// Soundness on real mail: whatever invitation GMime finds, the sniff let through.
    @Test func realMailWithAnInvitationIsNeverSkipped() throws {
        let corpus = Checkout.root.appendingPathComponent("../shared/corpora/mail-real").standardized
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: corpus.path).filter({ $0.hasSuffix(".eml") }) else {
            print("note: ../shared/corpora/mail-real is absent; CalendarSniff is not checked on real mail")
            return
        }
        var found = 0, told = 0
        for name in names.sorted() {
            let data = try Data(contentsOf: corpus.appendingPathComponent(name))
            let sniffed = CalendarSniff.mayHoldCalendar(data)
            if (try? MessageReader.read(data)) != nil {
                found += 1
                #expect(sniffed, "\(name): GMime finds an invitation the sniff ruled out")
            } else if !sniffed {
                told += 1
            }
        }
        print("CalendarSniff on \(names.count) real mails: \(found) with an invitation, all let through; \(told) told without GMime")
        #expect(found > 90)
    }
}
