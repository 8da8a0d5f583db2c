import Foundation
import Testing

/// Issue #44, what coolcal sends, through the binary and a sendmail that logs: every way
/// coolcal mails — merge's and process's automatic REPLY, `accept --reply`, `decline
/// --reply`, `reply --send`, the COUNTER, the DECLINECOUNTER and the organizer's REQUEST
/// after taking a counter — with `name = Zoë` and a title whose one non-ASCII character
/// fits Latin-1 (é) or does not (–): UTF-8 bytes under every `charset=UTF-8` (checked on
/// the quoted-printable, never by a parse), UTF-8 encoded-words, no line over 78 octets;
/// and the rescheduling REQUEST against RFC 5546 §3.2.2's table, every attendee asked again.
@Suite struct OutgoingMailEndToEndTests {
    typealias T = OrganizerBindingTests
    static let me = T.me

    /// The title's non-ASCII character as quoted-printable UTF-8, and as Latin-1 (nil when
    /// it has none).
    static let titles: [(title: String, utf8: String, latin1: String?)] = [
        ("Café-Besprechung", "Caf=C3=A9", "Caf=E9"), ("Planung – Q3", "=E2=80=93", nil),
    ]

    struct Box {
        let box: HeldMergeTests.Box
        var root: String { box.root }
        var env: [String: String] { ["COOLCAL_SENDMAIL": root + "/sendmail", "XDG_CONFIG_HOME": root + "/xdg"] }

        init(calendar: String? = nil) throws {
            box = try HeldMergeTests().box()
            try FileManager.default.createDirectory(atPath: root + "/xdg/coolcal", withIntermediateDirectories: true)
            try Data("name = Zoë\n".utf8).write(to: URL(fileURLWithPath: root + "/xdg/coolcal/config"))
            if let calendar { try Data(calendar.utf8).write(to: URL(fileURLWithPath: box.calendar)) }
        }

        func run(_ args: [String], stdin: String? = nil) throws -> Run {
            try Binary.run(args + ["--state", root + "/state"], stdin: stdin, env: env)
        }

        func file(_ name: String, _ text: String) throws -> String {
            try Data(text.utf8).write(to: URL(fileURLWithPath: root + "/" + name))
            return root + "/" + name
        }

        func mails() -> [String] {
            box.mailed().components(separatedBy: "--- end of message\n").filter { !$0.isEmpty }
        }
    }

    /// Alice's invitation for March `day`: each on a day of its own, so that none is busy
    /// with another.
    static func invitation(_ title: String, uid: String, day: Int) -> String {
        T.mail(T.message(start: "203103\(day < 10 ? "0" : "")\(day)T100000Z", summary: title, uid: uid),
               from: "Alice <alice@example.org>")
    }

    /// The checks every mail must pass; `kind` names it in failures.
    static func checkBytes(_ mail: String, title: (title: String, utf8: String, latin1: String?), kind: String,
                           titleInCalendar: Bool = true) {
        let (head, body) = split(mail)
        #expect(body.components(separatedBy: "Content-Type: text/").count == 3, "\(kind): a text and a calendar part\n\(mail)")
        for part in body.components(separatedBy: "Content-Type: text/").dropFirst() {
            let type = part.prefix { $0 != "\n" }
            #expect(type.contains("charset=UTF-8"), "\(kind): \(type)")
        }
        // Zoë in the text part, é or – in the calendar's SUMMARY: UTF-8, quoted-printable.
        #expect(body.contains("Zo=C3=AB"), "\(kind): the name's ë as UTF-8\n\(body)")
        #expect(!titleInCalendar || body.contains("SUMMARY:" + (title.title.hasPrefix("Caf") ? title.utf8 : "Planung " + title.utf8)),
                "\(kind): the title as UTF-8\n\(body)")
        for latin1 in ["=E9", "=EB"] {
            #expect(!body.contains(latin1), "\(kind): Latin-1 \(latin1) under a UTF-8 label\n\(body)")
        }
        let subject = head.first { $0.hasPrefix("Subject:") } ?? ""
        #expect(subject.lowercased().contains("=?utf-8?") && !subject.lowercased().contains("iso-8859"), "\(kind): \(subject)")
        let from = (head.first { $0.hasPrefix("From:") } ?? "").lowercased()
        #expect(from.contains("=?utf-8?b?wm/dqw==?=") || from.contains("=?utf-8?q?zo=c3=ab?="), "\(kind): \(from)")
        let long = mail.split(separator: "\n").filter { $0.utf8.count > 78 }
        #expect(long.isEmpty, "\(kind): lines over 78 octets: \(long)")
    }

    /// Headers (unfolded) and body.
    static func split(_ mail: String) -> ([String], String) {
        let parts = mail.components(separatedBy: "\n\n")
        let head = (parts.first ?? "").replacingOccurrences(of: "\n ", with: " ").split(separator: "\n").map(String.init)
        return (head, parts.dropFirst().joined(separator: "\n\n"))
    }

    /// The calendar part, quoted-printable undone, unfolded, as (name with parameters, value) lines.
    static func calendarLines(_ mail: String) -> [String] {
        guard let start = mail.range(of: "BEGIN:VCALENDAR"), let end = mail.range(of: "END:VCALENDAR") else { return [] }
        let qp = String(mail[start.lowerBound..<end.upperBound]).replacingOccurrences(of: "=\n", with: "")
        var bytes: [UInt8] = []
        var i = qp.utf8.startIndex
        let utf8 = qp.utf8
        while i < utf8.endIndex {
            if utf8[i] == UInt8(ascii: "="), let a = utf8.index(i, offsetBy: 2, limitedBy: utf8.endIndex), a < utf8.endIndex,
               let byte = UInt8(String(decoding: utf8[utf8.index(after: i)...a], as: UTF8.self), radix: 16) {
                bytes.append(byte)
                i = utf8.index(after: a)
            } else {
                bytes.append(utf8[i])
                i = utf8.index(after: i)
            }
        }
        return String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
            .replacingOccurrences(of: "\n ", with: "").split(separator: "\n").map(String.init)
    }

    // MARK: - The attendee's mails

    @Test(arguments: [0, 1])
    func everyWayAnAttendeeMailsIsUTF8(_ which: Int) throws {
        let title = Self.titles[which]
        let b = try Box()
        var kinds: [String] = []
        func sent(_ kind: String, _ run: Run) {
            #expect(run.status == 0, "\(kind): \(run.stdout)\(run.stderr)")
            kinds.append(kind)
        }
        // merge's automatic reply.
        try b.box.deliver("1.invite", Self.invitation(title.title, uid: "merge@example.org", day: 3))
        sent("merge", try b.box.merge(config: "name = Zoë\n"))
        // process's.
        sent("process", try b.run(["process", "--reply", "--me", Self.me, b.box.calendar],
                                  stdin: Self.invitation(title.title, uid: "process@example.org", day: 5)))
        // accept --reply, decline --reply, reply --send, reply --counter --send.
        let accepted = try b.file("accept.eml", Self.invitation(title.title, uid: "accept@example.org", day: 7))
        sent("accept --reply", try b.run(["accept", "--reply", "--me", Self.me, accepted, b.box.calendar]))
        let declined = try b.file("decline.eml", Self.invitation(title.title, uid: "decline@example.org", day: 9))
        sent("decline --reply", try b.run(["decline", "--reply", "--me", Self.me, declined]))
        let replied = try b.file("reply.eml", Self.invitation(title.title, uid: "reply@example.org", day: 11))
        sent("reply --send", try b.run(["reply", "--tentative", "--send", "--me", Self.me, replied]))
        let countered = try b.file("counter.eml", Self.invitation(title.title, uid: "counter@example.org", day: 13))
        sent("reply --counter --send", try b.run(["reply", "--counter", "--send", "--me", Self.me, "--tz", "UTC", "--buffer", "0",
                                                  "--comment", "Später – bitte", countered, b.box.calendar]))
        let mails = b.mails()
        #expect(mails.count == kinds.count, "\(kinds): \(mails.map { Self.split($0).0.filter { $0.hasPrefix("Subject") } })")
        for (kind, mail) in zip(kinds, mails) {
            Self.checkBytes(mail, title: title, kind: kind)
        }
        #expect(mails.last?.contains("method=COUNTER") == true)
    }

    /// The fifth way: `review` in a terminal, `a` with `reply = mail`.
    @Test(arguments: [0, 1])
    func reviewMailsUTF8(_ which: Int) throws {
        let title = Self.titles[which]
        let pane = try TerminalPane { dir in
            let script = "#!/bin/sh\ncat >> '\(dir)/sendmail.log'\necho '--- end of message' >> '\(dir)/sendmail.log'\n"
            try Data(script.utf8).write(to: URL(fileURLWithPath: dir + "/sendmail"))
            chmod(dir + "/sendmail", 0o755)
            try FileManager.default.createDirectory(atPath: dir + "/no-config/coolcal", withIntermediateDirectories: true)
            try Data("me = \(Self.me)\nname = Zoë\nreply = mail\nsendmail = \(dir)/sendmail\n".utf8)
                .write(to: URL(fileURLWithPath: dir + "/no-config/coolcal/config"))
            let run = try Binary.run(["notify", "--state", dir + "/state", "-"],
                                     stdin: Self.invitation(title.title, uid: "review@example.org", day: 15))
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(pane.waitFor("invitation 1 of 1"), "\(pane.screen)")
        pane.keys("a")
        #expect(pane.waitFor("accepted: "), "\(pane.screen)")
        pane.keys("q")
        #expect(pane.status() == "0", "\(pane.file("err.txt"))")
        let log = (try? String(contentsOfFile: pane.dir + "/sendmail.log", encoding: .utf8)) ?? ""
        let mails = log.components(separatedBy: "--- end of message\n").filter { !$0.isEmpty }
        #expect(mails.count == 1, "\(log)")
        for mail in mails { Self.checkBytes(mail, title: title, kind: "review") }
    }

    // MARK: - The organizer's mails

    static let bob = "bob@example.org"

    /// My event: Bob, Carol and Dave have answered; I am an attendee of it too.
    static func organized(_ title: String) -> String {
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Mine//EN",
            "BEGIN:VEVENT", "UID:sync-9@example.com", "DTSTAMP:20260101T090000Z", "SEQUENCE:1",
            "DTSTART:20310303T100000Z", "DURATION:PT1H", "SUMMARY:\(title)",
            "ORGANIZER;CN=Zoë:mailto:\(me)",
            "ATTENDEE;CN=Zoë;PARTSTAT=ACCEPTED:mailto:\(me)",
            "ATTENDEE;CN=Bob Example;PARTSTAT=ACCEPTED;RSVP=FALSE:mailto:\(bob)",
            "ATTENDEE;CN=Carol;PARTSTAT=TENTATIVE:mailto:carol@example.org",
            "ATTENDEE;CN=Dave;PARTSTAT=DECLINED:mailto:dave@example.org",
            "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
    }

    /// Bob's proposal of `start`–`end` for my event.
    static func counter(_ title: String, start: String, end: String) -> String {
        let ics = [
            "BEGIN:VCALENDAR", "PRODID:-//Test//Bob//EN", "VERSION:2.0", "METHOD:COUNTER",
            "BEGIN:VEVENT", "UID:sync-9@example.com", "DTSTAMP:20260102T090000Z", "SEQUENCE:1",
            "DTSTART:\(start)", "DTEND:\(end)", "SUMMARY:\(title)", "ORGANIZER:mailto:\(me)",
            "ATTENDEE;CN=Bob Example;PARTSTAT=ACCEPTED:mailto:\(bob)", "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        return [
            "From: Bob Example <\(bob)>", "To: \(me)", "Subject: New time proposed", "Date: Fri, 2 Jan 2026 10:00:00 +0100",
            "Message-ID: <\(UUID().uuidString)@example.org>", "MIME-Version: 1.0",
            "Content-Type: text/calendar; charset=UTF-8; method=COUNTER", "", ics,
        ].joined(separator: "\r\n")
    }

    /// My box with Bob's counter recorded; the inbox number of the counter.
    static func proposed(_ title: String, start: String, end: String) throws -> (Box, Int) {
        let b = try Box(calendar: organized(title))
        try b.box.deliver("1.counter", counter(title, start: start, end: end))
        let merged = try b.box.merge()
        #expect(try b.box.outcomes(merged).map { $0["outcome"] as? String } == ["proposed"], "\(merged.stdout)\(merged.stderr)")
        let inbox = try Binary.json(try b.run(["inbox", "--json"]).stdout)["invitations"] as? [[String: Any]] ?? []
        return (b, try #require(inbox.first { $0["kind"] as? String == "counter" }?["number"] as? Int))
    }

    @Test(arguments: [0, 1])
    func theOrganizersMailsAreUTF8(_ which: Int) throws {
        let title = Self.titles[which]
        let (declining, number) = try Self.proposed(title.title, start: "20310303T130000Z", end: "20310303T140000Z")
        let declined = try declining.run(["reply", "--decline-counter", "--send", "--me", Self.me, "--comment", "Leider – nein",
                                          String(number)])
        #expect(declined.status == 0, "\(declined.stderr)")
        let decline = try #require(declining.mails().first)
        Self.checkBytes(decline, title: title, kind: "DECLINECOUNTER", titleInCalendar: false)
        #expect(decline.contains("\nTo: \(Self.bob)\n") && !decline.contains("ATTENDEE"), "\(decline)")

        let (accepting, again) = try Self.proposed(title.title, start: "20310303T130000Z", end: "20310303T140000Z")
        let accepted = try accepting.run(["accept", "--reply", "--me", Self.me, String(again), accepting.box.calendar])
        #expect(accepted.status == 0, "\(accepted.stdout)\(accepted.stderr)")
        Self.checkBytes(try #require(accepting.mails().first), title: title, kind: "REQUEST")
    }

    /// RFC 5546 §3.2.2, the VEVENT of a REQUEST: ATTENDEE one or more; DTSTAMP, DTSTART,
    /// ORGANIZER, SUMMARY and UID once; SEQUENCE once (it is above 0); DTEND or DURATION,
    /// not both; at most once each of the single-valued rest; REQUEST-STATUS never.
    static let requestOnce: Set<String> = ["DTSTAMP", "DTSTART", "ORGANIZER", "SUMMARY", "UID", "SEQUENCE"]
    static let requestAtMostOnce: Set<String> = [
        "CLASS", "COMMENT", "CREATED", "DESCRIPTION", "DTEND", "DURATION", "GEO", "LAST-MODIFIED", "LOCATION", "PRIORITY",
        "RECURRENCE-ID", "STATUS", "TRANSP", "URL",
    ]

    static func attendees(_ lines: [String]) -> [String: String] {
        var found: [String: String] = [:]
        for line in lines where line.hasPrefix("ATTENDEE") {
            let address = line.components(separatedBy: ":mailto:").last ?? ""
            let head = line.components(separatedBy: ":mailto:").first ?? ""
            let parameters = head.split(separator: ";").dropFirst().filter { $0.hasPrefix("PARTSTAT=") || $0.hasPrefix("RSVP=") }
            found[address] = parameters.sorted().joined(separator: ";")
        }
        return found
    }

    /// Taking Bob's new time: the REQUEST follows §3.2.2's table and asks every attendee
    /// but me again — Bob, who proposed it, included.
    @Test func theReschedulingRequestAsksEveryAttendeeAgain() throws {
        let (b, number) = try Self.proposed("Team sync", start: "20310303T130000Z", end: "20310303T140000Z")
        let before = try b.box.bytes()
        let accepted = try b.run(["accept", "--reply", "--me", Self.me, String(number), b.box.calendar])
        #expect(accepted.status == 0, "\(accepted.stdout)\(accepted.stderr)")
        let mail = try #require(b.mails().first)
        let lines = Self.calendarLines(mail)
        #expect(lines.contains("METHOD:REQUEST"))
        let event = Array(lines.drop { $0 != "BEGIN:VEVENT" }.dropFirst().prefix { $0 != "END:VEVENT" })
        let names = event.map { String($0.prefix { $0 != ":" && $0 != ";" }) }
        #expect(names.filter { $0 == "ATTENDEE" }.count >= 1)
        for name in Self.requestOnce {
            #expect(names.filter { $0 == name }.count == 1, "\(name) once: \(names)")
        }
        for name in Self.requestAtMostOnce {
            #expect(names.filter { $0 == name }.count <= 1, "\(name) at most once: \(names)")
        }
        #expect(!(names.contains("DTEND") && names.contains("DURATION")), "\(names)")
        #expect(!names.contains("REQUEST-STATUS"))
        #expect(event.contains("DTSTART:20310303T130000Z") && event.contains("SEQUENCE:2"), "\(event)")
        #expect(Self.attendees(event) == [
            Self.me: "PARTSTAT=ACCEPTED",
            Self.bob: "PARTSTAT=NEEDS-ACTION;RSVP=TRUE",
            "carol@example.org": "PARTSTAT=NEEDS-ACTION;RSVP=TRUE",
            "dave@example.org": "PARTSTAT=NEEDS-ACTION;RSVP=TRUE",
        ], "\(event)")
        // My calendar keeps the answers given until the attendees reply.
        let written = try b.box.bytes()
        let after = String(decoding: written, as: UTF8.self)
        #expect(after.contains("PARTSTAT=DECLINED:mailto:dave@example.org") && before != written)
    }

    /// A counter that proposes the time the event already has moves nothing: the REQUEST
    /// keeps every PARTSTAT.
    @Test func aRequestThatMovesNoTimeKeepsEveryAnswer() throws {
        let (b, number) = try Self.proposed("Team sync", start: "20310303T100000Z", end: "20310303T110000Z")
        let accepted = try b.run(["accept", "--reply", "--me", Self.me, String(number), b.box.calendar])
        #expect(accepted.status == 0, "\(accepted.stdout)\(accepted.stderr)")
        let mail = try #require(b.mails().first)
        let event = Self.calendarLines(mail)
        #expect(Self.attendees(event) == [
            Self.me: "PARTSTAT=ACCEPTED",
            Self.bob: "PARTSTAT=ACCEPTED;RSVP=FALSE",
            "carol@example.org": "PARTSTAT=TENTATIVE",
            "dave@example.org": "PARTSTAT=DECLINED",
        ], "\(event)")
    }
}
