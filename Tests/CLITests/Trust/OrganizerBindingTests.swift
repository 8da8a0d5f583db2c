import Foundation
import Testing

/// Organizer binding (issue #27; RFC 5546 §6.1): a stored event changes only at its
/// organizer's word. Forged updates and cancellations — another ORGANIZER, a mail from
/// someone else, a REQUEST for an event I organise — are held: the calendar stays
/// byte-identical, nothing is recorded or mailed; the genuine organizer's later
/// messages still apply (a forged SEQUENCE locks nobody out).
@Suite struct OrganizerBindingTests {
    static let me = "me@example.com"
    static let uid = "binding-1@example.org"

    /// A REQUEST or CANCEL for `uid` from `organizer` (with an optional SENT-BY).
    static func message(method: String = "REQUEST", organizer: String = "alice@example.org", sentBy: String? = nil,
                        sequence: Int = 0, start: String = "20310303T100000Z", summary: String = "Planning",
                        uid: String = uid) -> String {
        let sent = sentBy.map { ";SENT-BY=\"mailto:\($0)\"" } ?? ""
        return [
            "BEGIN:VCALENDAR", "PRODID:-//Test//Binding//EN", "VERSION:2.0", "METHOD:\(method)",
            "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260101T090000Z", "SEQUENCE:\(sequence)",
            "DTSTART:\(start)", "DURATION:PT1H", "SUMMARY:\(summary)",
            "STATUS:\(method == "CANCEL" ? "CANCELLED" : "CONFIRMED")",
            "ORGANIZER;CN=Organizer\(sent):mailto:\(organizer)",
            "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:\(me)",
            "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
    }

    /// The message as an e-mail from `from`.
    static func mail(_ ics: String, from: String, method: String = "REQUEST") -> String {
        [
            "From: \(from)", "To: \(me)", "Subject: Invitation", "Date: Tue, 1 Dec 2026 10:00:00 +0100",
            "Message-ID: <\(UUID().uuidString)@mail.example.org>", "MIME-Version: 1.0",
            "Content-Type: text/calendar; charset=UTF-8; method=\(method)", "", ics,
        ].joined(separator: "\r\n")
    }

    struct Box {
        let root: String
        var calendar: String { root + "/cal.ics" }
        var state: String { root + "/state" }

        func file(_ name: String, _ text: String) throws -> String {
            let path = root + "/" + name
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }

        func accept(_ path: String) throws -> Run {
            try Binary.run(["accept", "--me", OrganizerBindingTests.me, "--state", state, path, calendar])
        }

        func bytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: calendar)) }
        func text() throws -> String { String(decoding: try bytes(), as: UTF8.self) }
    }

    func box(calendar: String = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//Empty//EN\r\nEND:VCALENDAR\r\n") throws -> Box {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-binding-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let box = Box(root: root)
        try Data(calendar.utf8).write(to: URL(fileURLWithPath: box.calendar))
        return box
    }

    /// Alice's invitation, accepted: the stored copy the forgeries aim at.
    func accepted() throws -> Box {
        let b = try box()
        let run = try b.accept(try b.file("invite.ics", Self.message()))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try b.text().contains("UID:\(Self.uid)"))
        return b
    }

    @Test func aForgedCancellationIsHeldAndTheOrganizersStillApplies() throws {
        let b = try accepted()
        let before = try b.bytes()
        let forged = try b.accept(try b.file("forged.ics", Self.message(method: "CANCEL", organizer: "mallory@evil.example", sequence: 1)))
        #expect(forged.status == 1, "\(forged.stderr)")
        #expect(forged.stdout.hasPrefix("held: Planning (id \(Self.uid)): organizer changed: "), "\(forged.stdout)")
        #expect(forged.stdout.contains("alice@example.org") && forged.stdout.contains("mallory@evil.example"))
        #expect(try b.bytes() == before, "a forged cancellation changed the calendar")
        let genuine = try b.accept(try b.file("cancel.ics", Self.message(method: "CANCEL", sequence: 1)))
        #expect(genuine.status == 0, "\(genuine.stderr)")
        #expect(genuine.stdout.hasPrefix("cancelled: "), "\(genuine.stdout)")
        #expect(try b.text().contains("STATUS:CANCELLED"))
    }

    @Test func aForgedSequenceLocksNobodyOut() throws {
        let b = try accepted()
        let before = try b.bytes()
        let forged = try b.accept(try b.file("forged.ics", Self.message(organizer: "mallory@evil.example", sequence: 2_147_483_647,
                                                                        start: "20310304T100000Z", summary: "Moved by Mallory")))
        #expect(forged.status == 1)
        #expect(forged.stdout.contains("organizer changed"), "\(forged.stdout)")
        #expect(try b.bytes() == before)
        let update = try b.accept(try b.file("update.ics", Self.message(sequence: 1, start: "20310305T100000Z", summary: "Planning, moved")))
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stdout.hasPrefix("accepted: Planning, moved"), "\(update.stdout)")
        #expect(try b.text().contains("DTSTART:20310305T100000Z"))
        #expect(try !b.text().contains("mallory"))
    }

    @Test func aRequestForAnEventIOrganiseChangesNothing() throws {
        let mine = Self.message(organizer: Self.me, summary: "My meeting").replacingOccurrences(of: "METHOD:REQUEST\r\n", with: "")
        let b = try box(calendar: mine)
        let before = try b.bytes()
        let run = try b.accept(try b.file("hijack.ics", Self.message(organizer: "mallory@evil.example", sequence: 5)))
        #expect(run.status == 1)
        #expect(run.stdout.contains(": you organise this event: "), "\(run.stdout)")
        #expect(try b.bytes() == before)
    }

    /// The ORGANIZER line is right, the mail is not the organizer's: held; the organizer's
    /// own mail, and its SENT-BY delegate's, apply.
    @Test func aMailFromSomeoneElseIsHeldAndTheDelegatesApplies() throws {
        let b = try box()
        let first = try b.accept(try b.file("invite.eml", Self.mail(Self.message(sentBy: "assistant@example.org"),
                                                                    from: "Alice <alice@example.org>")))
        #expect(first.status == 0, "\(first.stderr)")
        let before = try b.bytes()
        let forged = try b.accept(try b.file("forged.eml", Self.mail(Self.message(method: "CANCEL", sequence: 1),
                                                                     from: "Mallory <mallory@evil.example>", method: "CANCEL")))
        #expect(forged.status == 1)
        #expect(forged.stdout.contains(": not from the organizer: mailed by mallory@evil.example"), "\(forged.stdout)")
        #expect(try b.bytes() == before)
        // Listing the organizer beside himself in From does not make it the organizer's.
        for from in ["Mallory <mallory@evil.example>, Alice <alice@example.org>", "Friends: alice@example.org; <mallory@evil.example>"] {
            let listed = try b.accept(try b.file("listed.eml", Self.mail(Self.message(method: "CANCEL", sequence: 1), from: from, method: "CANCEL")))
            #expect(listed.status == 1)
            #expect(listed.stdout.contains(": not from the organizer: mailed by no single From address"), "\(listed.stdout)")
            #expect(try b.bytes() == before)
        }
        let delegate = try b.accept(try b.file("delegate.eml", Self.mail(Self.message(method: "CANCEL", sentBy: "assistant@example.org", sequence: 1),
                                                                         from: "Assistant <Assistant@Example.org>", method: "CANCEL")))
        #expect(delegate.status == 0, "\(delegate.stdout) \(delegate.stderr)")
        #expect(try b.text().contains("STATUS:CANCELLED"))
    }

    /// A SEQUENCE libical would misread (99999999999 → 1215752191) is bad data, not a version.
    @Test(arguments: ["99999999999", "-1", "2147483648", "1.5"])
    func aSequenceOutOfRangeIsBadData(_ sequence: String) throws {
        let b = try accepted()
        let before = try b.bytes()
        let text = Self.message(sequence: 1).replacingOccurrences(of: "SEQUENCE:1\r\n", with: "SEQUENCE:\(sequence)\r\n")
        let run = try b.accept(try b.file("bad.ics", text))
        #expect(run.status == 65, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("SEQUENCE:\(sequence) is not a whole number from 0 to 2147483647"), "\(run.stderr)")
        #expect(try b.bytes() == before)
    }
}
