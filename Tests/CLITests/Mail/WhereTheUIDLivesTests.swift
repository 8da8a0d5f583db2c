import Foundation
import Testing

/// Issue #44, "an update is written where the UID already lives": Alice's update and
/// cancellation of an event that lives in my second calendar land there (the first
/// calendar byte-identical), through `merge` from a Maildir and through `process`; a
/// colleague's calendar holding the same meeting without naming me is never written; an
/// event split across two calendars earlier is updated in both, and the line says so.
@Suite struct WhereTheUIDLivesTests {
    static let me = "me@example.com"
    static let uid = "lives-elsewhere@example.org"

    /// A calendar holding `events` (VEVENT lines each), CRLF.
    static func calendar(_ events: [[String]]) -> Data {
        let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Where//EN"] + events.flatMap { ["BEGIN:VEVENT"] + $0 + ["END:VEVENT"] }
            + ["END:VCALENDAR", ""]
        return Data(lines.joined(separator: "\r\n").utf8)
    }

    /// The meeting as stored: Alice organises it, `attendee` is invited (and has accepted).
    static func stored(attendee: String = me) -> [String] {
        ["UID:\(uid)", "DTSTAMP:20300101T090000Z", "SEQUENCE:0", "DTSTART:20310505T100000Z", "DURATION:PT1H",
         "SUMMARY:Planning", "ORGANIZER:mailto:alice@example.org", "ATTENDEE;PARTSTAT=ACCEPTED:mailto:\(attendee)"]
    }

    /// Something else of mine, so that the first calendar is not empty.
    static let other = ["UID:dentist@example.org", "DTSTAMP:20300101T090000Z", "DTSTART:20310601T080000Z",
                        "DURATION:PT1H", "SUMMARY:Dentist"]

    /// Alice's mail: the update (SEQUENCE 1, moved to 11:00, new title) or the cancellation (SEQUENCE 2).
    static func mail(cancel: Bool = false) -> Data {
        let method = cancel ? "CANCEL" : "REQUEST"
        let ics = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Alice//EN", "METHOD:\(method)", "BEGIN:VEVENT",
                   "UID:\(uid)", "DTSTAMP:2030010\(cancel ? 3 : 2)T090000Z", "SEQUENCE:\(cancel ? 2 : 1)",
                   "DTSTART:20310505T110000Z", "DURATION:PT1H", "SUMMARY:Planning (moved)",
                   "ORGANIZER:mailto:alice@example.org", "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:\(me)",
                   "ATTENDEE;PARTSTAT=ACCEPTED:mailto:bob@example.org"]
            + (cancel ? ["STATUS:CANCELLED"] : []) + ["END:VEVENT", "END:VCALENDAR", ""]
        let headers = ["From: Alice <alice@example.org>", "To: \(me)", "Subject: Planning (moved)",
                       "Date: Wed, 2 Jan 2030 10:00:00 +0000", "Message-ID: <\(UUID().uuidString)@example.org>",
                       "MIME-Version: 1.0", "Content-Type: text/calendar; charset=UTF-8; method=\(method)", ""]
        return Data((headers + [ics.joined(separator: "\r\n")]).joined(separator: "\r\n").utf8)
    }

    struct Desk {
        let root: String
        var maildir: String { root + "/Maildir" }
        var state: String { root + "/state" }
        func path(_ name: String) -> String { root + "/" + name }

        init() throws {
            root = try Spawn.directory()
            for folder in ["cur", "new", "tmp"] {
                try FileManager.default.createDirectory(atPath: maildir + "/" + folder, withIntermediateDirectories: true)
            }
        }

        func write(_ name: String, _ data: Data) throws {
            let url = URL(fileURLWithPath: path(name))
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }

        func bytes(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }
        func text(_ name: String) throws -> String { String(decoding: try bytes(name), as: UTF8.self) }

        /// Delivers as a delivery agent does (tmp/, then new/) and runs `merge` over the Maildir.
        func merge(_ message: Data, _ calendars: [String], json: Bool = true) throws -> Run {
            let name = UUID().uuidString
            try message.write(to: URL(fileURLWithPath: maildir + "/tmp/" + name))
            guard rename(maildir + "/tmp/" + name, maildir + "/new/" + name) == 0 else { throw CocoaError(.fileWriteUnknown) }
            return try Binary.run(["merge"] + (json ? ["--json"] : []) + ["--me", WhereTheUIDLivesTests.me, "--state", state,
                                   "--spool", maildir] + calendars.map(path))
        }

        func process(_ message: Data, _ calendars: [String]) throws -> ProcessRun {
            try ProcessRun.run(["--recipient", WhereTheUIDLivesTests.me, "--state", state] + calendars.map(path), message: message)
        }
    }

    /// The one outcome of a `merge --json` run.
    static func outcome(_ run: Run) throws -> [String: Any] {
        let outcomes = try Binary.json(run.stdout)["outcomes"] as? [[String: Any]] ?? []
        return try #require(outcomes.count == 1 ? outcomes.first : nil, "\(run.stdout)\(run.stderr)")
    }

    /// The VEVENT blocks of the meeting in a calendar's text.
    static func meeting(_ text: String) -> [String] {
        text.components(separatedBy: "BEGIN:VEVENT\r\n").dropFirst().filter { $0.contains("UID:\(uid)\r\n") }
    }

    @Test func anUpdateLandsInTheSecondCalendarAndALaterCancelMarksThatCopy() throws {
        let desk = try Desk()
        try desk.write("first.ics", Self.calendar([Self.other]))
        try desk.write("second.ics", Self.calendar([Self.other.map { $0.replacingOccurrences(of: "dentist", with: "gym") }, Self.stored()]))
        let first = try desk.bytes("first.ics")

        let update = try desk.merge(Self.mail(), ["first.ics", "second.ics"])
        let said = try Self.outcome(update)
        #expect(said["outcome"] as? String == "accepted", "\(said)\(update.stderr)")
        #expect(said["detail"] as? String == "0 conflicts; written to \(desk.path("second.ics"))", "\(said)")
        #expect(try desk.bytes("first.ics") == first, "the first calendar is byte-identical")
        let updated = Self.meeting(try desk.text("second.ics"))
        #expect(updated.count == 1, "\(updated)")
        #expect(updated.first?.contains("SUMMARY:Planning (moved)\r\n") == true, "\(updated)")
        #expect(updated.first?.contains("DTSTART:20310505T110000Z\r\n") == true, "\(updated)")

        let cancel = try desk.merge(Self.mail(cancel: true), ["first.ics", "second.ics"])
        let cancelled = try Self.outcome(cancel)
        #expect(cancelled["outcome"] as? String == "cancelled", "\(cancelled)\(cancel.stderr)")
        #expect(cancelled["detail"] as? String == "marked cancelled in \(desk.path("second.ics"))", "\(cancelled)")
        #expect(try desk.bytes("first.ics") == first, "the first calendar is still byte-identical")
        let after = Self.meeting(try desk.text("second.ics"))
        #expect(after.count == 1 && after.first?.contains("STATUS:CANCELLED\r\n") == true, "\(after)")
    }

    @Test func processWritesWhereItLivesAndNeverIntoAColleaguesCalendar() throws {
        let desk = try Desk()
        try desk.write("first.ics", Self.calendar([Self.other]))
        // A colleague's shared calendar holds the same meeting, naming only her.
        try desk.write("colleague.ics", Self.calendar([Self.stored(attendee: "carol@example.org")]))
        try desk.write("second.ics", Self.calendar([Self.stored()]))
        let first = try desk.bytes("first.ics")
        let colleague = try desk.bytes("colleague.ics")

        let update = try desk.process(Self.mail(), ["first.ics", "colleague.ics", "second.ics"])
        #expect(update.status == 0 && update.text.hasPrefix("updated"), "\(update.text)\(update.stderr)")
        #expect(try desk.bytes("first.ics") == first)
        #expect(try desk.bytes("colleague.ics") == colleague, "the colleague's copy is never written")
        #expect(Self.meeting(try desk.text("second.ics")).first?.contains("SUMMARY:Planning (moved)\r\n") == true)

        let cancel = try desk.process(Self.mail(cancel: true), ["first.ics", "colleague.ics", "second.ics"])
        #expect(cancel.status == 0, "\(cancel.text)\(cancel.stderr)")
        #expect(try desk.bytes("first.ics") == first)
        #expect(try desk.bytes("colleague.ics") == colleague)
        #expect(Self.meeting(try desk.text("second.ics")).first?.contains("STATUS:CANCELLED\r\n") == true)
    }

    @Test func aColleaguesCopyAloneMakesNoUpdateTheInvitationGoesToTheFirstCalendar() throws {
        let desk = try Desk()
        try desk.write("first.ics", Self.calendar([Self.other]))
        try desk.write("colleague.ics", Self.calendar([Self.stored(attendee: "carol@example.org")]))
        let colleague = try desk.bytes("colleague.ics")
        let run = try desk.merge(Self.mail(), ["first.ics", "colleague.ics"])
        let said = try Self.outcome(run)
        // Not stored where it counts: a new invitation, from someone merge does not know yet.
        #expect(said["outcome"] as? String == "held" && said["held"] as? String == "unknown sender", "\(said)\(run.stderr)")
        #expect(try desk.bytes("colleague.ics") == colleague)
    }

    @Test func anEventSplitAcrossTwoCalendarsIsUpdatedInBoth() throws {
        let desk = try Desk()
        try desk.write("first.ics", Self.calendar([Self.other, Self.stored()]))
        try desk.write("second.ics", Self.calendar([Self.stored()]))
        let run = try desk.merge(Self.mail(), ["first.ics", "second.ics"], json: false)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("(0 conflicts; updated in \(desk.path("first.ics")) and \(desk.path("second.ics")))"), "\(run.stdout)")
        for name in ["first.ics", "second.ics"] {
            let copies = Self.meeting(try desk.text(name))
            #expect(copies.count == 1 && copies.first?.contains("SUMMARY:Planning (moved)\r\n") == true, "\(name): \(copies)")
        }
        #expect(try desk.text("first.ics").contains("SUMMARY:Dentist\r\n"), "the rest of the first calendar kept")
    }

    @Test func anAttendeesReplyIsAppliedToMyEventWhereItLives() throws {
        let desk = try Desk()
        try desk.write("first.ics", Self.calendar([Self.other]))
        try desk.write("second.ics", Data(OrganizerRepliesTests.calendar.utf8))
        let first = try desk.bytes("first.ics")
        let before = try desk.text("second.ics")
        let reply = OrganizerRepliesTests.reply(from: "Bob <bob@example.org>", attendee: "bob@example.org", partstat: "ACCEPTED")
        let run = try desk.merge(Data(reply.utf8), ["first.ics", "second.ics"])
        let said = try Self.outcome(run)
        #expect(said["outcome"] as? String == "updated" && said["detail"] as? String == "updated in \(desk.path("second.ics"))",
                "\(said)\(run.stderr)")
        #expect(try desk.bytes("first.ics") == first)
        // Bob's line, and only it, says ACCEPTED now.
        let bob = "ATTENDEE;CN=Bob Example;PARTSTAT=NEEDS-ACTION;RSVP=TRUE;ROLE=REQ-PARTICIPANT:mai\r\n lto:bob@example.org\r\n"
        #expect(before.contains(bob))
        let after = try desk.text("second.ics")
        #expect(!after.contains(bob) && after.contains("PARTSTAT=ACCEPTED") && after.contains("CN=Carol;PARTSTAT=NEEDS-ACTION"), "\(after)")
    }

    @Test func acceptWritesTheUpdateWhereItLivesAndSaysWhere() throws {
        let desk = try Desk()
        try desk.write("first.ics", Self.calendar([Self.other]))
        try desk.write("second.ics", Self.calendar([Self.stored()]))
        try desk.write("update.eml", Self.mail())
        let first = try desk.bytes("first.ics")
        let run = try Binary.run(["accept", "--me", Self.me, "--state", desk.state, desk.path("update.eml"),
                                  desk.path("first.ics"), desk.path("second.ics")])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout == "accepted: Planning (moved): updated in \(desk.path("second.ics"))\n", "\(run.stdout)\(run.stderr)")
        #expect(try desk.bytes("first.ics") == first)
        let copies = Self.meeting(try desk.text("second.ics"))
        #expect(copies.count == 1 && copies.first?.contains("SUMMARY:Planning (moved)\r\n") == true, "\(copies)")
    }

    @Test func anEventInAVdirsyncerTreeIsUpdatedInItsVdir() throws {
        let desk = try Desk()
        try desk.write("first.ics", Self.calendar([Self.other]))
        // vdirsyncer names event files after the server's hrefs, not the UID.
        try desk.write("synced/work/displayname", Data("Work".utf8))
        try desk.write("synced/work/a1b2c3.ics", Self.calendar([Self.stored()]))
        try desk.write("synced/family/displayname", Data("Family".utf8))
        let first = try desk.bytes("first.ics")
        let update = try desk.process(Self.mail(), ["first.ics", "synced"])
        #expect(update.status == 0 && update.text.hasPrefix("updated"), "\(update.text)\(update.stderr)")
        #expect(try desk.bytes("first.ics") == first)
        let copies = Self.meeting(try desk.text("synced/work/a1b2c3.ics"))
        #expect(copies.count == 1 && copies.first?.contains("SUMMARY:Planning (moved)\r\n") == true, "\(copies)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: desk.path("synced/family")) == ["displayname"])
    }
}
