import Foundation
import Testing

/// One way a message reaches coolcal for the borrowed-name tests (issue #43): `merge`
/// from a Maildir, or `process` on standard input as a delivery agent runs it. Both keep
/// one calendar (Alice known: an accepted event of hers in it), one state and a sendmail
/// that logs every message it is given, so a test asks the same questions of either:
/// what was said, whether the calendar moved a byte, whether anyone was mailed.
struct BorrowedNameDesk {
    enum Way: String, CaseIterable, CustomTestStringConvertible {
        case merge, process
        var testDescription: String { rawValue }
    }

    let way: Way
    let root: String
    var calendar: String { root + "/cal.ics" }
    var state: String { root + "/state" }
    var maildir: String { root + "/Maildir" }
    var sendmailLog: String { root + "/sendmail.log" }
    /// The config file's text for every run (nil: none).
    var config: String?
    private var count = 0

    static let me = OrganizerBindingTests.me

    init(_ way: Way, calendar: String = HeldMergeTests.calendarKnowingAlice, config: String? = nil) throws {
        self.way = way
        self.config = config
        root = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-borrowed-\(UUID().uuidString)").path
        for folder in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(atPath: root + "/Maildir/" + folder, withIntermediateDirectories: true)
        }
        try Data(calendar.utf8).write(to: URL(fileURLWithPath: self.calendar))
        let script = "#!/bin/sh\ncat >> '\(sendmailLog)'\necho '--- end of message' >> '\(sendmailLog)'\n"
        try Data(script.utf8).write(to: URL(fileURLWithPath: root + "/sendmail"))
        chmod(root + "/sendmail", 0o755)
    }

    /// What coolcal said of one message: the outcome word (merge's, or process's RFC 9671
    /// word), the held reason, and the whole line or JSON for messages.
    struct Said: CustomStringConvertible {
        var outcome: String
        var held: String?
        var raw: String
        var description: String { raw }
    }

    /// Delivers `message` the desk's way and says what coolcal made of it.
    mutating func deliver(_ message: String) throws -> Said {
        count += 1
        var env = ["COOLCAL_SENDMAIL": root + "/sendmail"]
        if let config {
            try FileManager.default.createDirectory(atPath: root + "/xdg/coolcal", withIntermediateDirectories: true)
            try Data(config.utf8).write(to: URL(fileURLWithPath: root + "/xdg/coolcal/config"))
            env["XDG_CONFIG_HOME"] = root + "/xdg"
        }
        switch way {
        case .merge:
            let name = "\(count).message"
            try Data(message.utf8).write(to: URL(fileURLWithPath: maildir + "/tmp/" + name))
            guard rename(maildir + "/tmp/" + name, maildir + "/new/" + name) == 0 else { throw CocoaError(.fileWriteUnknown) }
            let run = try Binary.run(["merge", "--json", "--reply", "--me", Self.me, "--state", state, "--spool", maildir, calendar],
                                     env: env)
            let outcomes = try Binary.json(run.stdout)["outcomes"] as? [[String: Any]] ?? []
            let mine = outcomes.first { ($0["name"] as? String)?.hasSuffix(name) == true }
            return Said(outcome: mine?["outcome"] as? String ?? "(none)", held: mine?["held"] as? String,
                        raw: run.stdout + run.stderr)
        case .process:
            let run = try ProcessRun.run(["--reply", "--recipient", Self.me, "--state", state, calendar], message: Data(message.utf8),
                                         env: env)
            // process leaves its replies in the outbox for the next merge: sent now, so
            // the sendmail's log holds all that coolcal would tell anyone.
            let flush = try Binary.run(["outbox", "flush", "--state", state], env: env)
            let line = run.text.trimmingCharacters(in: .newlines) + (flush.status == 0 ? "" : "\n(outbox flush: \(flush.status) \(flush.stderr))")
            let held = line.hasPrefix("no_action (held: ") ? String(line.dropFirst("no_action (held: ".count).dropLast()) : nil
            return Said(outcome: line, held: held, raw: line + "\n" + run.stderr)
        }
    }

    func bytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: calendar)) }
    func text() throws -> String { String(decoding: try bytes(), as: UTF8.self) }
    func mailed() -> String { (try? String(contentsOfFile: sendmailLog, encoding: .utf8)) ?? "" }
    /// How many messages the sendmail was given.
    func mailCount() -> Int { mailed().components(separatedBy: "--- end of message").count - 1 }

    /// `inbox --held --json`'s entries: id → held reason.
    func heldEntries() throws -> [String: String] {
        let run = try Binary.run(["inbox", "--held", "--json", "--state", state])
        let entries = try Binary.json(run.stdout)["invitations"] as? [[String: Any]] ?? []
        var found: [String: String] = [:]
        for entry in entries {
            if let id = entry["id"] as? String, let held = entry["held"] as? String { found[id] = held }
        }
        return found
    }

    /// An e-mail of `ics` from `from`, with extra header lines on top.
    static func mail(_ ics: String, from: String?, headers: [String] = [], method: String = "REQUEST",
                     messageID: String = "<\(UUID().uuidString)@mail.example.org>") -> String {
        let sender: [String] = from.map { ["From: \($0)"] } ?? []
        let rest: [String] = [
            "To: \(me)", "Subject: Invitation", "Date: Tue, 1 Dec 2026 10:00:00 +0100",
            "Message-ID: \(messageID)", "MIME-Version: 1.0",
            "Content-Type: text/calendar; charset=UTF-8; method=\(method)", "", ics,
        ]
        return (headers + sender + rest).joined(separator: "\r\n")
    }

    /// A calendar of `method` with these VEVENT bodies (each a list of property lines).
    static func calendar(method: String, _ events: [[String]]) -> String {
        var lines: [String] = ["BEGIN:VCALENDAR", "PRODID:-//Test//Borrowed//EN", "VERSION:2.0", "METHOD:\(method)"]
        for event in events { lines += ["BEGIN:VEVENT"] + event + ["END:VEVENT"] }
        lines += ["END:VCALENDAR", ""]
        return lines.joined(separator: "\r\n")
    }

    /// One VEVENT's lines: `organizer` with an optional raw parameter text (`;SENT-BY=…`),
    /// me as an attendee unless `attendees` says otherwise.
    static func event(uid: String, organizer: String = "alice@example.org", organizerParameters: String = "",
                      sequence: Int = 0, stamp: String = "20260101T090000Z", start: String = "20310303T100000Z",
                      summary: String = "Planning", attendees: [String]? = nil, extra: [String] = []) -> [String] {
        let head: [String] = ["UID:\(uid)", "DTSTAMP:\(stamp)", "SEQUENCE:\(sequence)", "DTSTART:\(start)", "DURATION:PT1H",
                              "SUMMARY:\(summary)", "ORGANIZER;CN=Organizer\(organizerParameters):mailto:\(organizer)"]
        let invited: [String] = attendees ?? ["ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:\(me)"]
        return head + invited + extra
    }
}
