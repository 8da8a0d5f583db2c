import Foundation

/// E-mails as the big clients write them, built here by hand (not by coolcal): each
/// carries `MailCorpus.calendar` (or its cancellation) in its own way.
enum MailCorpus {
    /// The invitation alone, as the `.ics` a client attaches (UTF-8, CRLF).
    static func calendar(uid: String = "corpus-1@example.com", summary: String = "Planung – Café Übersicht",
                         start: String = "20310303T100000Z", end: String = "20310303T110000Z",
                         method: String = "REQUEST", status: String = "CONFIRMED") -> String {
        [
            "BEGIN:VCALENDAR", "PRODID:-//Corpus//Mail//EN", "VERSION:2.0", "METHOD:\(method)",
            "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260101T090000Z", "SEQUENCE:0",
            "DTSTART:\(start)", "DTEND:\(end)", "SUMMARY:\(summary)", "STATUS:\(status)",
            "ORGANIZER;CN=Alice Example:mailto:alice@example.com",
            "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:me@example.com",
            "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
    }

    static let cancel = calendar(method: "CANCEL", status: "CANCELLED")

    /// Base64 in 76-column lines, CRLF, as MIME writes it.
    static func base64(_ text: String) -> String { base64(Data(text.utf8)) }
    static func base64(_ data: Data) -> String {
        data.base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
    }

    /// Quoted-printable of UTF-8 text, lines soft-broken (`=` CRLF) at 76 columns.
    static func quotedPrintable(_ text: String) -> String {
        var out = ""
        for line in text.components(separatedBy: "\r\n") {
            var current = ""
            for byte in line.utf8 {
                let piece = (byte >= 33 && byte <= 126 && byte != 61) || byte == 32
                    ? String(UnicodeScalar(byte)) : String(format: "=%02X", byte)
                if current.count + piece.count > 75 {
                    out += current + "=\r\n"
                    current = ""
                }
                current += piece
            }
            out += current + "\r\n"
        }
        return out
    }

    /// Joins header and body lines with CRLF.
    static func lines(_ parts: [String]) -> Data { Data(parts.joined(separator: "\r\n").utf8) }

    static let headers = [
        "From: Alice Example <alice@example.com>",
        "To: me@example.com",
        "Subject: =?UTF-8?Q?Einladung=3A_Planung_=E2=80=93_Caf=C3=A9?=",
        "Date: Tue, 1 Dec 2026 10:00:00 +0100",
        "MIME-Version: 1.0",
    ]
    static let subject = "Einladung: Planung – Café"
    static let from = "Alice Example <alice@example.com>"

    /// Gmail: multipart/alternative of text/plain, text/html and text/calendar with
    /// method=REQUEST, the calendar base64.
    static func gmail(_ ics: String = calendar(), id: String = "CAGmail001@mail.gmail.com") -> Data {
        // Gmail's Content-Type says the body's method (RFC 6047 §2.4).
        let method = ics.components(separatedBy: "\r\n").first { $0.hasPrefix("METHOD:") }.map { String($0.dropFirst(7)) } ?? "REQUEST"
        return lines(headers + [
            "Message-ID: <\(id)>",
            "Content-Type: multipart/alternative; boundary=\"000000000000a1b2c3\"",
            "",
            "--000000000000a1b2c3",
            "Content-Type: text/plain; charset=\"UTF-8\"; format=flowed; delsp=yes",
            "Content-Transfer-Encoding: base64",
            "",
            base64("You have been invited to the following event.\r\n"),
            "--000000000000a1b2c3",
            "Content-Type: text/html; charset=\"UTF-8\"",
            "Content-Transfer-Encoding: quoted-printable",
            "",
            "<p>You have been invited</p>",
            "--000000000000a1b2c3",
            "Content-Type: text/calendar; charset=\"UTF-8\"; method=\(method)",
            "Content-Transfer-Encoding: base64",
            "",
            base64(ics),
            "--000000000000a1b2c3--",
            "",
        ])
    }

    /// Outlook: multipart/mixed of a multipart/alternative (text/plain, base64
    /// text/calendar) and the same invitation as an application/ics attachment.
    static func outlook() -> Data {
        lines(headers + [
            "Message-ID: <AM0PR01MB1234ABCD@AM0PR01MB1234.eurprd01.prod.exchangelabs.com>",
            "Thread-Topic: Planung",
            "Content-Type: multipart/mixed;",
            "\tboundary=\"_002_AM0PR01MB_\"",
            "",
            "--_002_AM0PR01MB_",
            "Content-Type: multipart/alternative;",
            "\tboundary=\"_000_AM0PR01MB_\"",
            "",
            "--_000_AM0PR01MB_",
            "Content-Type: text/plain; charset=\"iso-8859-1\"",
            "Content-Transfer-Encoding: quoted-printable",
            "",
            "Planung =96 Caf=E9",
            "",
            "--_000_AM0PR01MB_",
            "Content-Type: text/calendar; charset=\"utf-8\"; method=REQUEST",
            "Content-Transfer-Encoding: base64",
            "",
            base64(calendar()),
            "--_000_AM0PR01MB_--",
            "",
            "--_002_AM0PR01MB_",
            "Content-Type: application/ics; name=\"invite.ics\"",
            "Content-Description: invite.ics",
            "Content-Disposition: attachment; filename=\"invite.ics\"; size=900",
            "Content-Transfer-Encoding: base64",
            "",
            base64(calendar()),
            "--_002_AM0PR01MB_--",
            "",
        ])
    }

    /// Thunderbird/Apple Mail style: a single text/calendar part, quoted-printable with
    /// soft line breaks, UTF-8 summary.
    static func quotedPrintable() -> Data {
        let long = calendar(summary: "Planung – Café Übersicht mit einer sehr langen Beschreibung für die Zeile")
        return lines(headers + [
            "Message-ID: <qp-0001@thunderbird.example>",
            "Content-Type: text/calendar; charset=UTF-8; method=REQUEST",
            "Content-Transfer-Encoding: quoted-printable",
            "",
            quotedPrintable(long),
        ])
    }

    /// The Gmail message forwarded as an attachment (message/rfc822).
    static func forwarded() -> Data {
        lines([
            "From: Bob Forwarder <bob@example.org>",
            "To: me@example.com",
            "Subject: Fwd: Einladung",
            "Date: Tue, 1 Dec 2026 11:00:00 +0100",
            "Message-ID: <fwd-0001@example.org>",
            "MIME-Version: 1.0",
            "Content-Type: multipart/mixed; boundary=\"fwd\"",
            "",
            "--fwd",
            "Content-Type: text/plain; charset=utf-8",
            "",
            "See the invitation below.",
            "--fwd",
            "Content-Type: message/rfc822",
            "Content-Disposition: inline",
            "",
            String(decoding: gmail(), as: UTF8.self),
            "--fwd--",
            "",
        ])
    }

    /// A legacy client: text/calendar in windows-1252, 8bit, a summary with é and an en dash.
    static func windows1252() -> Data {
        var data = Data(lines(headers + [
            "Message-ID: <cp1252-0001@legacy.example>",
            "Content-Type: text/calendar; charset=windows-1252; method=REQUEST",
            "Content-Transfer-Encoding: 8bit",
            "", "",
        ]))
        data.append(calendar().data(using: .windowsCP1252) ?? Data())
        return data
    }

    /// Only an .ics attachment, as application/octet-stream.
    static func attachmentOnly() -> Data {
        lines(headers + [
            "Message-ID: <att-0001@example.net>",
            "Content-Type: multipart/mixed; boundary=\"att\"",
            "",
            "--att",
            "Content-Type: text/plain; charset=us-ascii",
            "",
            "Please find the invitation attached.",
            "--att",
            "Content-Type: application/octet-stream; name=\"invite.ics\"",
            "Content-Disposition: attachment; filename=\"invite.ics\"",
            "Content-Transfer-Encoding: base64",
            "",
            base64(calendar()),
            "--att--",
            "",
        ])
    }

    /// The organizer's cancellation, as Gmail sends it.
    static func cancellation() -> Data { gmail(cancel, id: "CAGmail-cancel@mail.gmail.com") }

    /// The Gmail message in an mbox: a `From ` line first.
    static func mbox() -> Data {
        var data = Data("From alice@example.com Tue Dec  1 10:00:00 2026\n".utf8)
        data.append(gmail())
        return data
    }

    /// No invitation at all: text, HTML and a picture.
    static func noInvitation() -> Data {
        lines(headers + [
            "Message-ID: <plain-0001@example.com>",
            "Content-Type: multipart/mixed; boundary=\"m\"",
            "",
            "--m",
            "Content-Type: multipart/alternative; boundary=\"a\"",
            "",
            "--a",
            "Content-Type: text/plain; charset=utf-8",
            "",
            "Lunch?",
            "--a",
            "Content-Type: text/html; charset=utf-8",
            "",
            "<p>Lunch?</p>",
            "--a--",
            "--m",
            "Content-Type: image/png; name=\"cat.png\"",
            "Content-Disposition: attachment; filename=\"cat.png\"",
            "Content-Transfer-Encoding: base64",
            "",
            base64(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])),
            "--m--",
            "",
        ])
    }

    /// The invitations: (name, message, the bare .ics it carries).
    static let invitations: [(String, Data, String)] = [
        ("gmail.eml", gmail(), calendar()),
        ("outlook.eml", outlook(), calendar()),
        ("quoted-printable.eml", quotedPrintable(),
         calendar(summary: "Planung – Café Übersicht mit einer sehr langen Beschreibung für die Zeile")),
        ("forwarded.eml", forwarded(), calendar()),
        ("windows-1252.eml", windows1252(), calendar()),
        ("attachment-only.eml", attachmentOnly(), calendar()),
        ("mbox.eml", mbox(), calendar()),
    ]
}
