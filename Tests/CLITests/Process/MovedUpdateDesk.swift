import Foundation

/// Issue #46's "Design review": a calendar (one file, or a vdir) with "Busy thing"
/// 11:30–12:00 on 3 March 2031, Bob's invitation 10:00–11:00 with a 120-character
/// Outlook-like UID, and his updates; run through the built binary as a person, cron
/// (`merge` on a Maildir) and a mail server (`process` on standard input) run it.
struct MovedUpdateDesk {
    static let me = "me@example.org"
    /// 120 characters, as Outlook's UIDs run.
    static let uid = "040000008200E00074C5B7101A82E008" + String(repeating: "A", count: 88)

    let root: String
    let vdir: Bool
    var calendar: String { root + (vdir ? "/vdir" : "/cal.ics") }
    var state: String { root + "/state" }
    var maildir: String { root + "/Maildir" }

    init(vdir: Bool) throws {
        root = try Spawn.directory()
        self.vdir = vdir
        let busy = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "BEGIN:VEVENT", "UID:busy-1", "DTSTAMP:20260101T000000Z",
            "DTSTART:20310303T113000Z", "DTEND:20310303T120000Z", "SUMMARY:Busy thing", "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        if vdir {
            try FileManager.default.createDirectory(atPath: calendar, withIntermediateDirectories: true)
            try Data(busy.utf8).write(to: URL(fileURLWithPath: calendar + "/busy-1.ics"))
        } else {
            try Data(busy.utf8).write(to: URL(fileURLWithPath: calendar))
        }
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(atPath: maildir + "/" + sub, withIntermediateDirectories: true)
        }
    }

    /// Bob's REQUEST as a mail (a new Message-ID each time: a re-sent invitation).
    static func mail(sequence: Int, start: String, end: String, title: String = "Design review") -> String {
        let ics = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "METHOD:REQUEST", "BEGIN:VEVENT", "UID:\(uid)",
            "DTSTAMP:2026010\(sequence + 1)T090000Z", "SEQUENCE:\(sequence)", "DTSTART:\(start)", "DTEND:\(end)",
            "SUMMARY:\(title)", "ORGANIZER:mailto:bob@example.org", "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:\(me)",
            "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        return ["From: Bob <bob@example.org>", "To: \(me)", "Subject: \(title)", "Date: Fri, 2 Jan 2026 10:00:00 +0100",
                "Message-ID: <\(UUID().uuidString)@example.org>", "MIME-Version: 1.0",
                "Content-Type: text/calendar; charset=UTF-8; method=REQUEST", "", ics].joined(separator: "\r\n")
    }

    static let invitation = mail(sequence: 0, start: "20310303T100000Z", end: "20310303T110000Z")
    /// Moved to 11:30, onto "Busy thing".
    static let moved = mail(sequence: 1, start: "20310303T113000Z", end: "20310303T123000Z")

    func run(_ args: [String], stdin: String? = nil) throws -> Run {
        try Binary.run(args, stdin: stdin, env: ["HOME": root])
    }

    /// `accept` of a message, as a person does it from a saved mail.
    func accept(_ message: String, _ extra: [String] = []) throws -> Run {
        let file = try Binary.temp("invite.eml", Data(message.utf8))
        return try run(["accept"] + extra + ["--me", Self.me, "--state", state, file, calendar])
    }

    /// `merge` of a Maildir holding `message` (cron's run).
    func merge(_ message: String, policy: String = "accept-if-free", json: Bool = false) throws -> Run {
        let name = UUID().uuidString + ".eml"
        try Data(message.utf8).write(to: URL(fileURLWithPath: maildir + "/new/" + name))
        return try run(["merge", "--policy", policy, "--accept-from", "anyone", "--me", Self.me, "--state", state,
                        "--spool", maildir] + (json ? ["--json"] : []) + [calendar])
    }

    /// `process` with the message on standard input (as an MDA runs it).
    func process(_ message: String, policy: String = "accept-if-free") throws -> Run {
        try run(["process", "--policy", policy, "--accept-from", "anyone", "--recipient", Self.me, "--state", state, calendar],
                stdin: message)
    }

    /// Every VEVENT of Bob's UID in the calendar, as text.
    func stored() throws -> String {
        let files = vdir ? try FileManager.default.contentsOfDirectory(atPath: calendar).map { calendar + "/" + $0 } : [calendar]
        return try files.map { try String(contentsOfFile: $0, encoding: .utf8) }
            .flatMap { $0.components(separatedBy: "BEGIN:VEVENT\r\n").dropFirst() }
            .filter { $0.contains(Self.uid.prefix(60)) }.joined()
    }
}
