import Foundation
import Testing

/// An e-mail is an INVITE: each message of the corpus through `conflicts` and `merge`
/// gives the same invitation as the bare `.ics` it carries.
@Suite struct MailEndToEndTests {
    /// A calendar with one event inside the invitation's window: the check says busy (1).
    static let work = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Corpus//Work//EN",
        "BEGIN:VEVENT", "UID:standup@example.com", "DTSTAMP:20260101T000000Z",
        "DTSTART:20310303T103000Z", "DTEND:20310303T104500Z", "SUMMARY:Standup", "END:VEVENT",
        "END:VCALENDAR", "",
    ].joined(separator: "\r\n")

    struct Dir {
        let path: String
        func file(_ name: String, _ data: Data) throws -> String {
            let full = path + "/" + name
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: full))
            return full
        }
        func read(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path + "/" + name)) }
    }

    func dir() throws -> Dir {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-mail-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return Dir(path: path)
    }

    /// The outcomes of `merge --json`, without what names the file and the mail.
    /// The calendar's directory (`mail/` or `bare/`) is left out of the details too.
    func outcomes(_ run: Run, in directory: String = "") throws -> [[String: String]] {
        let document = try Binary.json(run.stdout)
        let list = document["outcomes"] as? [[String: Any]] ?? []
        return list.map { item in
            var fields: [String: String] = [:]
            for (k, v) in item where !["name", "from", "subject", "message_id"].contains(k) {
                fields[k] = directory.isEmpty ? "\(v)" : "\(v)".replacingOccurrences(of: directory, with: "DIR")
            }
            return fields
        }
    }

    @Test(arguments: MailCorpus.invitations.map { $0.0 })
    func conflictsReadsTheMessageAsTheBareInvitation(_ name: String) throws {
        guard let (_, message, ics) = MailCorpus.invitations.first(where: { $0.0 == name }) else { return }
        let d = try dir()
        let cal = try d.file("work.ics", Data(Self.work.utf8))
        let mail = try d.file(name, message)
        let bare = try d.file("bare.ics", Data(ics.utf8))
        let fromMail = try Binary.run(["conflicts", "--json", "--me", "me@example.com", mail, cal])
        let fromBare = try Binary.run(["conflicts", "--json", "--me", "me@example.com", bare, cal])
        #expect(fromBare.status == 1)
        #expect(fromMail.status == fromBare.status)
        #expect(fromMail.stderr == "")
        #expect(fromMail.stdout == fromBare.stdout)
        let invite = try Binary.json(fromMail.stdout)["invite"] as? [String: Any]
        #expect(invite?["id"] as? String == "corpus-1@example.com")
        #expect((invite?["title"] as? String)?.hasPrefix("Planung – Café Übersicht") == true)
        #expect(invite?["start"] as? String == "2031-03-03T10:00:00Z")
    }

    @Test func standardInputTakesAMessage() throws {
        let d = try dir()
        let cal = try d.file("work.ics", Data(Self.work.utf8))
        let run = try Binary.run(["conflicts", "-q", "-", cal], stdin: String(decoding: MailCorpus.gmail(), as: UTF8.self))
        #expect(run.status == 1)
        #expect(run.stderr == "")
    }

    @Test(arguments: MailCorpus.invitations.map { $0.0 })
    func mergeAnswersTheMessageAsTheBareInvitation(_ name: String) throws {
        guard let (_, message, ics) = MailCorpus.invitations.first(where: { $0.0 == name }) else { return }
        let d = try dir()
        var runs: [Run] = []
        for (spoolName, file, data) in [("mail", name, message), ("bare", "bare.ics", Data(ics.utf8))] {
            _ = try d.file("\(spoolName)/spool/\(file)", data)
            let cal = try d.file("\(spoolName)/work.ics", Data(Self.work.utf8))
            runs.append(try Binary.run(["merge", "--json", "--policy", "accept-all", "--me", "me@example.com", "--accept-from", "anyone",
                                        "--state", d.path + "/\(spoolName)/state", "--spool", d.path + "/\(spoolName)/spool", cal]))
        }
        let (mail, bare) = (runs[0], runs[1])
        #expect(mail.status == 0 && bare.status == 0)
        #expect(mail.stderr == "" && bare.stderr == "")
        let forwarded = name == "forwarded.eml"
        #expect(try outcomes(bare, in: d.path + "/bare").first?["detail"]?.hasPrefix("1 conflict: ") == true)
        #expect(try outcomes(bare, in: d.path + "/bare").first?["detail"]?.hasSuffix("; written to DIR/work.ics") == true)
        if forwarded {
            // Read as the same invitation, but mailed by someone who is not its organizer:
            // held for the person, the calendar and the spool as they were.
            #expect(try outcomes(mail).first?["outcome"] == "held")
            #expect(try outcomes(mail).first?["held"] == "not from the organizer")
            #expect(try d.read("mail/work.ics") == Data(Self.work.utf8))
            #expect(FileManager.default.fileExists(atPath: d.path + "/mail/spool/\(name)"))
        } else {
            #expect(try outcomes(mail, in: d.path + "/mail") == outcomes(bare, in: d.path + "/bare"))
            #expect(try outcomes(mail).first?["outcome"] == "accepted")
            // The same event written, and the message answered (done/), never failed/.
            #expect(try d.read("mail/work.ics") == d.read("bare/work.ics"))
            #expect(FileManager.default.fileExists(atPath: d.path + "/mail/spool/done/\(name)"))
        }
        #expect(!FileManager.default.fileExists(atPath: d.path + "/mail/spool/failed"))
        // The mail's headers come with the outcome and reach the inbox.
        let first = (try Binary.json(mail.stdout)["outcomes"] as? [[String: Any]])?.first
        #expect(first?["from"] as? String == (forwarded ? "Bob Forwarder <bob@example.org>" : MailCorpus.from))
        #expect(first?["subject"] as? String == (forwarded ? "Fwd: Einladung" : MailCorpus.subject))
        let inbox = try Binary.run(["inbox", "--state", d.path + "/mail/state"])
        // Accepted without --reply: the line says the organizer was not told, and how.
        #expect(inbox.stdout.contains("  from " + (forwarded ? "Bob Forwarder <bob@example.org>  held: not from the organizer\n"
                                                             : MailCorpus.from + "  (organizer not told: coolcal reply --accept --send 1)\n")),
                "\(inbox.stdout)")
    }

    @Test func aCancellationByMailAppliesAsTheBareOne() throws {
        let d = try dir()
        var calendars: [Data] = []
        for (spoolName, data) in [("mail", MailCorpus.cancellation()), ("bare", Data(MailCorpus.cancel.utf8))] {
            let cal = try d.file("\(spoolName)/work.ics", Data(Self.work.utf8))
            let state = d.path + "/\(spoolName)/state"
            let accept = try Binary.run(["accept", "--me", "me@example.com", "--state", state,
                                         try d.file("\(spoolName)/request.ics", Data(MailCorpus.calendar().utf8)), cal])
            #expect(accept.status == 0)
            _ = try d.file("\(spoolName)/spool/cancel.eml", data)
            let run = try Binary.run(["merge", "--json", "--me", "me@example.com", "--state", state,
                                      "--spool", d.path + "/\(spoolName)/spool", cal])
            #expect(run.status == 0)
            #expect(try outcomes(run).first?["outcome"] == "cancelled")
            calendars.append(try d.read("\(spoolName)/work.ics"))
        }
        #expect(calendars[0] == calendars[1])
        #expect(String(decoding: calendars[0], as: UTF8.self).contains("STATUS:CANCELLED"))
        // conflicts refuses it just as it refuses the bare cancellation.
        let mail = try d.file("c.eml", MailCorpus.cancellation())
        let cal = try d.file("work.ics", Data(Self.work.utf8))
        let run = try Binary.run(["conflicts", mail, cal])
        #expect(run.status == 65)
        #expect(run.stderr == "coolcal: error: \(mail): is a cancellation (METHOD:CANCEL), not an invitation; apply it to a calendar with 'coolcal accept \(mail) CAL'\n")
    }

    @Test func aMessageWithoutAnInvitationSaysWhatItHolds() throws {
        let d = try dir()
        let cal = try d.file("work.ics", Data(Self.work.utf8))
        let mail = try d.file("message.eml", MailCorpus.noInvitation())
        for command in [["conflicts"], ["accept", "--me", "me@example.com", "--state", d.path + "/state"]] {
            let run = try Binary.run(command + [mail, cal])
            #expect(run.status == 65)
            #expect(run.stdout == "")
            #expect(run.stderr == "coolcal: error: \(mail): no calendar invitation in this message (3 parts: text/plain, text/html, image/png)\n")
        }
        #expect(try d.read("work.ics") == Data(Self.work.utf8))
        // In a plain spool it is failed (in a Maildir it is skipped: MaildirTests).
        _ = try d.file("spool/message.eml", MailCorpus.noInvitation())
        let merge = try Binary.run(["merge", "--me", "me@example.com", "--state", d.path + "/state", "--spool", d.path + "/spool", cal])
        #expect(merge.status == 0)
        #expect(merge.stdout == "failed    message.eml\n")
        #expect(merge.stderr == "coolcal: warning: \(d.path)/spool/message.eml: no calendar invitation in this message (3 parts: text/plain, text/html, image/png)\n")
    }

    @Test func neitherJSONNorICalendarNorAMessage() throws {
        let d = try dir()
        let cal = try d.file("work.ics", Data(Self.work.utf8))
        let run = try Binary.run(["conflicts", "-", cal], stdin: "Dear Sir,\nplease come.\n")
        #expect(run.status == 65)
        #expect(run.stderr == "coolcal: error: <stdin>: neither a JSON push payload, an iCalendar invitation (BEGIN:VCALENDAR) nor an e-mail message (not valid JSON: invalid value at line 1, column 1)\n")
    }

    @Test func notifyTakesABareICalendarInvitationToo() throws {
        let d = try dir()
        let ics = try d.file("invite.ics", Data(MailCorpus.calendar().utf8))
        let run = try Binary.run(["notify", "--state", d.path + "/state", ics])
        #expect(run.status == 0)
        let payload = try Binary.json(run.stdout)
        #expect(payload["title"] as? String == "Planung – Café Übersicht")
        #expect(payload["start"] as? String == "2031-03-03T10:00:00Z")
        #expect(payload["from"] == nil)
        #expect(((payload["aps"] as? [String: Any])?["alert"] as? [String: Any])?["title"] as? String == "You're invited")
    }

    @Test func notifyBuildsAPayloadFromAMailedInvitation() throws {
        let d = try dir()
        let mail = try d.file("gmail.eml", MailCorpus.gmail())
        let run = try Binary.run(["notify", "--state", d.path + "/state", mail])
        #expect(run.status == 0)
        #expect(run.stderr == "")
        let payload = try Binary.json(run.stdout)
        let aps = payload["aps"] as? [String: Any]
        let alert = aps?["alert"] as? [String: Any]
        #expect(alert?["title"] as? String == MailCorpus.subject)
        #expect((alert?["body"] as? String)?.hasPrefix("Planung – Café Übersicht\n3/3/31, 10:00") == true)
        #expect(aps?["badge"] as? Int == 1)
        #expect(aps?["category"] as? String == "INVITATION")
        #expect(payload["id"] as? String == "corpus-1@example.com")
        #expect(payload["from"] as? String == MailCorpus.from)
        let inbox = try Binary.json(try Binary.run(["inbox", "--json", "--state", d.path + "/state"]).stdout)
        let entry = (inbox["invitations"] as? [[String: Any]])?.first
        #expect(entry?["from"] as? String == MailCorpus.from)
        #expect(entry?["subject"] as? String == MailCorpus.subject)
        #expect(entry?["message_id"] as? String == "CAGmail001@mail.gmail.com")
    }
}
