import Foundation
import Testing

/// Answering by mail with the built binary: `reply --mail` read by Python's `email`
/// and `icalendar` and by libical, header injection, `reply --send` and
/// `accept --reply` through msmtp to a real SMTP server, queueing and failures.
@Suite(.serialized) struct MailAnswerTests {
    /// One instance of a weekly meeting, re-sent (SEQUENCE 3) by an organizer whose name
    /// is not ASCII, with a summary that is not ASCII either.
    static let instance = """
        BEGIN:VCALENDAR\r
        PRODID:-//Test//EN\r
        VERSION:2.0\r
        METHOD:REQUEST\r
        BEGIN:VEVENT\r
        UID:weekly-42@example.org\r
        SEQUENCE:3\r
        RECURRENCE-ID:20260310T090000Z\r
        DTSTART:20260310T100000Z\r
        DTEND:20260310T110000Z\r
        DTSTAMP:20260301T120000Z\r
        ORGANIZER;CN="Jürgen Müller":mailto:juergen@example.org\r
        ATTENDEE;CN="Jürgen Müller";PARTSTAT=ACCEPTED:mailto:juergen@example.org\r
        ATTENDEE;CN=Me Myself;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:me@example.com\r
        ATTENDEE;CN=Other;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:other@example.com\r
        SUMMARY:Planungsrunde – Büro\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    /// A plain invitation from Alice, with `summary` as given (escaped iCalendar text).
    static func invitation(summary: String = "Project kickoff", organizer: String = "mailto:alice@example.com",
                           sequence: Int = 0) -> String {
        """
        BEGIN:VCALENDAR\r
        PRODID:-//Test//EN\r
        VERSION:2.0\r
        METHOD:REQUEST\r
        BEGIN:VEVENT\r
        UID:kickoff-9@example.org\r
        SEQUENCE:\(sequence)\r
        DTSTART:20260822T080000Z\r
        DTEND:20260822T090000Z\r
        DTSTAMP:20260815T091500Z\r
        ORGANIZER;CN=Alice Example:\(organizer)\r
        ATTENDEE;CN=Me;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:me@example.com\r
        SUMMARY:\(summary)\r
        END:VEVENT\r
        END:VCALENDAR\r

        """
    }

    struct Files {
        var home: URL
        var invite: String
        var calendar: String
        var state: String
        var env: [String: String]
    }

    /// A home with the invitation, an empty calendar, a state directory and a config
    /// whose `domain` is mail.example.net.
    func files(_ invitation: String, name: String = "invite.ics") throws -> Files {
        let home = try ServerProcess.temporaryHome("mail")
        let invite = home.appendingPathComponent(name)
        try Data(invitation.utf8).write(to: invite)
        let calendar = home.appendingPathComponent("cal.ics")
        try Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\nEND:VCALENDAR\r\n".utf8).write(to: calendar)
        let config = try Binary.configHome("domain = mail.example.net\nme = me@example.com\n")
        return Files(home: home, invite: invite.path, calendar: calendar.path, state: home.appendingPathComponent("state").path,
                     env: ["XDG_CONFIG_HOME": config])
    }

    /// What Python's `email` and `icalendar` read in a message (Tests/Mail/read_reply.py).
    func python(_ message: String) throws -> [String: Any] {
        let file = try Binary.temp("message.eml", Data(message.utf8))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try RadicaleServer.python())
        p.arguments = [Binary.root.appendingPathComponent("Tests/Mail/read_reply.py").path, file]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw SetupError("read_reply.py failed: \(errors)") }
        return try Binary.json(String(decoding: data, as: UTF8.self))
    }

    /// The message without what differs between two builds of it: Date, Message-Id,
    /// DTSTAMP and the MIME boundary.
    static func normalized(_ message: String) -> String {
        var text = message.replacingOccurrences(of: "\r\n", with: "\n")
        if let range = text.range(of: #"boundary="[^"]+""#, options: .regularExpression) {
            let boundary = String(text[range].dropFirst(10).dropLast())
            text = text.replacingOccurrences(of: boundary, with: "BOUNDARY")
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("Date: ") && !$0.hasPrefix("Message-Id: ") && !$0.hasPrefix("DTSTAMP:") }
            .joined(separator: "\n")
    }

    static func headers(_ message: String) -> [Substring] {
        let head = message.components(separatedBy: "\n\n").first ?? ""
        return head.split(separator: "\n")
    }

    @Test func replyMailAsMailClientsReadIt() throws {
        let f = try files(Self.instance)
        let run = try Binary.run(["reply", "--accept", "--mail", f.invite], env: f.env)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        // Headers in ASCII only: the non-ASCII names and summary are RFC 2047 words.
        #expect(Self.headers(run.stdout).allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) })
        #expect(Self.headers(run.stdout).contains("Subject: Accepted: Planungsrunde =?UTF-8?B?4oCTIELDvHJv?="))
        let mail = try python(run.stdout)
        let headers = try #require(mail["headers"] as? [String: Any])
        #expect(mail["header_names"] as? [String] == ["Date", "From", "Subject", "To", "Message-Id", "MIME-Version", "Content-Type"])
        #expect(mail["from_address"] as? String == "me@example.com")
        #expect(mail["from_name"] as? String == "Me Myself")
        #expect(mail["to_address"] as? [String] == ["juergen@example.org"])
        #expect(mail["to_name"] as? String == "Jürgen Müller")
        #expect(headers["Subject"] as? String == "Accepted: Planungsrunde – Büro")
        #expect(headers["MIME-Version"] as? String == "1.0")
        #expect((headers["Date"] as? String)?.hasSuffix("+0000") == true)
        let id = try #require(headers["Message-ID"] as? String)
        #expect(id.hasPrefix("<") && id.hasSuffix("@mail.example.net>"), "\(id)")
        #expect(headers["In-Reply-To"] is NSNull && headers["References"] is NSNull)
        #expect(mail["content_type"] as? String == "multipart/alternative")
        #expect(mail["defects"] as? [String] == [])
        let parts = try #require(mail["parts"] as? [[String: Any]])
        #expect(parts.map { $0["content_type"] as? String } == ["text/plain", "text/calendar"])
        #expect(parts[0]["text"] as? String == "Me Myself has accepted this invitation.\n")
        #expect(parts[1]["params"] as? [String: String] == ["charset": "UTF-8", "method": "REPLY"])
        let calendar = try #require(parts[1]["calendar"] as? [String: Any])
        #expect(calendar["method"] as? String == "REPLY")
        let events = try #require(calendar["events"] as? [[String: Any]])
        #expect(events.count == 1)
        #expect(events.first?["uid"] as? String == "weekly-42@example.org")
        #expect(events.first?["sequence"] as? Int == 3)
        #expect(events.first?["recurrence_id"] as? String == "2026-03-10T09:00:00+00:00")
        #expect(events.first?["summary"] as? String == "Planungsrunde – Büro")
        let attendees = try #require(events.first?["attendees"] as? [[String: Any]])
        #expect(attendees.map { $0["address"] as? String } == ["mailto:me@example.com"])
        #expect(attendees.map { $0["partstat"] as? String } == ["ACCEPTED"])
    }

    @Test(arguments: [("--decline", "DECLINED", "Declined", "declined"),
                      ("--tentative", "TENTATIVE", "Tentative", "tentatively accepted")])
    func otherAnswers(_ flag: String, _ partstat: String, _ word: String, _ verb: String) throws {
        let f = try files(Self.invitation())
        let run = try Binary.run(["reply", flag, "--comment", "Im Urlaub, sorry", "--mail", f.invite], env: f.env)
        #expect(run.status == 0, "\(run.stderr)")
        let mail = try python(run.stdout)
        #expect((mail["headers"] as? [String: Any])?["Subject"] as? String == "\(word): Project kickoff")
        #expect(mail["to_address"] as? [String] == ["alice@example.com"])
        #expect(mail["to_name"] as? String == "Alice Example")
        let parts = try #require(mail["parts"] as? [[String: Any]])
        #expect(parts.first?["text"] as? String == "Me has \(verb) this invitation.\n\nIm Urlaub, sorry\n")
        let event = try #require(((parts.last?["calendar"] as? [String: Any])?["events"] as? [[String: Any]])?.first)
        #expect(event["recurrence_id"] is NSNull)
        #expect(event["comment"] as? String == "Im Urlaub, sorry")
        #expect((event["attendees"] as? [[String: Any]])?.map { $0["partstat"] as? String } == [partstat])
    }

    /// libical (through coolcal's reader) reads the calendar part as the instance answered
    /// (read as a plain calendar: a METHOD:REPLY component is never a version of an event,
    /// so as sent it lists nothing).
    @Test func calendarPartReadBackByLibical() throws {
        let f = try files(Self.instance)
        let run = try Binary.run(["reply", "--accept", "--mail", f.invite], env: f.env)
        let parts = try #require(try python(run.stdout)["parts"] as? [[String: Any]])
        let text = try #require(parts.last?["text"] as? String)
        #expect(text.contains("METHOD:REPLY\r\n") || text.contains("METHOD:REPLY\n"))
        let asSent = try Binary.temp("reply.ics", Data(text.utf8))
        let none = try Binary.run(["events", "--json", "--from", "2026-03-01T00:00:00Z", "--to", "2026-04-01T00:00:00Z", asSent])
        #expect((try Binary.json(none.stdout)["events"] as? [[String: Any]])?.isEmpty == true, "\(none.stdout)")
        let plain = text.replacingOccurrences(of: "METHOD:REPLY\r\n", with: "").replacingOccurrences(of: "METHOD:REPLY\n", with: "")
        let part = try Binary.temp("reply-plain.ics", Data(plain.utf8))
        let events = try Binary.run(["events", "--json", "--from", "2026-03-01T00:00:00Z", "--to", "2026-04-01T00:00:00Z", part])
        #expect(events.status == 0, "\(events.stderr)")
        let list = try #require(try Binary.json(events.stdout)["events"] as? [[String: Any]])
        #expect(list.count == 1)
        #expect(list.first?["uid"] as? String == "weekly-42@example.org")
        #expect(list.first?["recurrence_id"] as? String == "2026-03-10T09:00:00Z")
        #expect(list.first?["start"] as? String == "2026-03-10T10:00:00Z")
    }

    /// A SUMMARY with a line break cannot add a header: `sendmail -t` would read a Bcc.
    @Test func summaryWithLineBreakAddsNoHeader() throws {
        let f = try files(Self.invitation(summary: #"x\r\nBcc: evil@example.com\nCc: evil2@example.com"#))
        let run = try Binary.run(["reply", "--accept", "--mail", f.invite], env: f.env)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!Self.headers(run.stdout).contains { $0.hasPrefix("Bcc") || $0.hasPrefix("Cc") })
        let mail = try python(run.stdout)
        let headers = try #require(mail["headers"] as? [String: Any])
        #expect(headers["Bcc"] is NSNull && headers["Cc"] is NSNull)
        #expect(mail["header_names"] as? [String] == ["Date", "From", "Subject", "To", "Message-Id", "MIME-Version", "Content-Type"])
        #expect((headers["Subject"] as? String)?.hasPrefix("Accepted: x") == true)
        #expect(mail["to_address"] as? [String] == ["alice@example.com"])
    }

    /// An ORGANIZER that would make two recipients is refused, not cleaned.
    @Test func organizerWithTwoAddressesIsRefused() throws {
        let f = try files(Self.invitation(organizer: "mailto:alice@example.com,evil@example.com"))
        let run = try Binary.run(["reply", "--accept", "--mail", f.invite], env: f.env)
        #expect(run.status == 65)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "coolcal: error: \(f.invite): ORGANIZER 'mailto:alice@example.com,evil@example.com' is not a mail address\n")
    }
}
