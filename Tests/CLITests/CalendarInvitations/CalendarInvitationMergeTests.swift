import Foundation
import Testing

/// `merge --calendar-invitations` on a vdirsyncer-style tree (issue 49): the invitations a
/// scheduling server put straight into Bob's calendar are found pending, held by the trust
/// rules that apply without mail, recorded in the inbox with the calendar they live in,
/// and decided once per version.
@Suite struct CalendarInvitationMergeTests {
    static let bob = "bob@example.com"

    /// `yyyyMMdd'T'HHmmss'Z'` of now plus `days` days, at `hour` UTC.
    static func stamp(days: Int, hour: Int) -> String {
        let day = Date().addingTimeInterval(Double(days) * 86_400)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        let c = calendar.dateComponents([.year, .month, .day], from: day)
        return String(format: "%04d%02d%02dT%02d0000Z", c.year ?? 0, c.month ?? 0, c.day ?? 0, hour)
    }

    static func item(_ uid: String, organizer: String?, partstat: String?, start: String, end: String, summary: String) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Server//EN", "BEGIN:VEVENT", "UID:\(uid)",
                     "DTSTAMP:20260101T000000Z", "DTSTART:\(start)", "DTEND:\(end)", "SUMMARY:\(summary)"]
        if let organizer { lines.append("ORGANIZER:mailto:\(organizer)") }
        if organizer != nil {
            lines.append("ATTENDEE;PARTSTAT=ACCEPTED:mailto:\(organizer ?? "")")
            lines.append("ATTENDEE" + (partstat.map { ";PARTSTAT=\($0)" } ?? "") + (partstat == "NEEDS-ACTION" ? ";RSVP=TRUE" : "")
                         + ":mailto:\(bob)")
        }
        return (lines + ["END:VEVENT", "END:VCALENDAR", ""]).joined(separator: "\r\n")
    }

    struct Tree {
        let root: String
        var calendars: String { root + "/calendars" }
        var work: String { calendars + "/fastmail/work" }

        func put(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: work + "/" + name))
        }

        func merge(_ extra: [String] = [], env: [String: String] = [:]) throws -> Run {
            try Binary.run(["merge", "--json", "--me", CalendarInvitationMergeTests.bob, "--state", root + "/state"] + extra
                           + [calendars + "/fastmail"], env: env)
        }

        func outcomes(_ run: Run) throws -> [String: String] {
            let list = try Binary.json(run.stdout)["outcomes"] as? [[String: Any]] ?? []
            return Dictionary(uniqueKeysWithValues: list.map { ($0["id"] as? String ?? "", $0["outcome"] as? String ?? "") })
        }
    }

    /// Olga is known (an event of hers Bob accepted, long past); her plan overlaps Bob's own
    /// meeting; a stranger's pending event overlaps Olga's lunch, which is otherwise free.
    func tree() throws -> Tree {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-calinv-\(UUID().uuidString)").path
        let t = Tree(root: root)
        try FileManager.default.createDirectory(atPath: t.work, withIntermediateDirectories: true)
        typealias C = CalendarInvitationMergeTests
        try t.put("known.ics", C.item("known-1", organizer: "olga@example.com", partstat: "ACCEPTED",
                                      start: "20200303T100000Z", end: "20200303T110000Z", summary: "Old review"))
        try t.put("own.ics", C.item("own-1", organizer: nil, partstat: nil, start: C.stamp(days: 10, hour: 9),
                                    end: C.stamp(days: 10, hour: 11), summary: "My own meeting"))
        try t.put("plan.ics", C.item("plan-1", organizer: "olga@example.com", partstat: "NEEDS-ACTION",
                                     start: C.stamp(days: 10, hour: 10), end: C.stamp(days: 10, hour: 12), summary: "Plan"))
        try t.put("lunch.ics", C.item("lunch-1", organizer: "olga@example.com", partstat: nil,
                                      start: C.stamp(days: 12, hour: 12), end: C.stamp(days: 12, hour: 13), summary: "Lunch"))
        try t.put("spam.ics", C.item("spam-1", organizer: "spammer@example.net", partstat: "NEEDS-ACTION",
                                     start: C.stamp(days: 12, hour: 11), end: C.stamp(days: 12, hour: 14), summary: "Buy now"))
        try t.put("answered.ics", C.item("answered-1", organizer: "olga@example.com", partstat: "ACCEPTED",
                                         start: C.stamp(days: 20, hour: 10), end: C.stamp(days: 20, hour: 11), summary: "Done"))
        return t
    }

    @Test func pendingOnesAreRecordedHeldOnesFreeAndEachVersionOnce() throws {
        let t = try tree()
        defer { try? FileManager.default.removeItem(atPath: t.root) }
        let first = try t.merge(["--calendar-invitations"])
        #expect(first.status == 0, "\(first.stderr)")
        // Plan overlaps my own meeting; the stranger's is held, so Lunch beside it is free and
        // accepted by the policy (accept-if-free), in place.
        #expect(try t.outcomes(first) == ["plan-1": "busy", "lunch-1": "accepted", "spam-1": "held"])
        #expect(try String(contentsOfFile: t.work + "/lunch.ics", encoding: .utf8).contains("ATTENDEE;PARTSTAT=ACCEPTED:mailto:bob@example.com"))
        let list = try Binary.json(first.stdout)["outcomes"] as? [[String: Any]] ?? []
        #expect(list.first { $0["id"] as? String == "spam-1" }?["held"] as? String == "unknown sender")
        #expect(list.first { $0["id"] as? String == "plan-1" }?["name"] as? String == "[in fastmail/work]")

        let inbox = try Binary.run(["inbox", "--json", "--state", t.root + "/state"])
        let entries = try Binary.json(inbox.stdout)["invitations"] as? [[String: Any]] ?? []
        #expect(Set(entries.map { $0["id"] as? String ?? "" }) == ["plan-1", "lunch-1", "spam-1"])
        #expect(entries.allSatisfy { $0["found_in"] as? String == "fastmail/work" && $0["kind"] as? String == "invitation" })
        #expect(entries.first { $0["id"] as? String == "spam-1" }?["held"] as? String == "unknown sender")
        let text = try Binary.run(["inbox", "--state", t.root + "/state"])
        #expect(text.stdout.contains("Plan  ") && text.stdout.contains("[in fastmail/work]"), "\(text.stdout)")

        // Answered in place: only my PARTSTAT (RSVP gone) and DTSTAMP change; `reply = mail`
        // mails nothing (the server tells the organizer).
        let planNumber = entries.first { $0["id"] as? String == "plan-1" }?["number"] as? Int ?? 0
        let before = try String(contentsOfFile: t.work + "/plan.ics", encoding: .utf8)
        let script = "#!/bin/sh\ncat >> '\(t.root)/sendmail.log'\n"
        try Data(script.utf8).write(to: URL(fileURLWithPath: t.root + "/sendmail"))
        chmod(t.root + "/sendmail", 0o755)
        let replyMail = try Binary.configHome("reply = mail\n")
        let accept = try Binary.run(["accept", "--me", CalendarInvitationMergeTests.bob, "--state", t.root + "/state",
                                     String(planNumber), t.calendars + "/fastmail"],
                                    env: ["XDG_CONFIG_HOME": replyMail, "COOLCAL_SENDMAIL": t.root + "/sendmail"])
        #expect(accept.status == 0, "\(accept.stderr)")
        #expect(accept.stdout == "accepted: Plan: your PARTSTAT set in \(t.work)/plan.ics (found in fastmail/work)\n", "\(accept.stdout)")
        let after = try String(contentsOfFile: t.work + "/plan.ics", encoding: .utf8)
        let changed = zip(before.components(separatedBy: "\r\n"), after.components(separatedBy: "\r\n")).filter { $0 != $1 }
        #expect(changed.map(\.0) == ["DTSTAMP:20260101T000000Z", "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:bob@example.com"])
        #expect(changed.map(\.1).last == "ATTENDEE;PARTSTAT=ACCEPTED:mailto:bob@example.com")
        #expect(changed.first?.1.hasPrefix("DTSTAMP:") == true && changed.first?.1.hasSuffix("Z") == true)
        #expect(before.components(separatedBy: "\r\n").count == after.components(separatedBy: "\r\n").count)
        #expect(!FileManager.default.fileExists(atPath: t.root + "/sendmail.log"), "nothing mailed")
        // Declining keeps the event, at DECLINED; --reply mails an iMIP REPLY explicitly.
        let spamNumber = entries.first { $0["id"] as? String == "spam-1" }?["number"] as? Int ?? 0
        let decline = try Binary.run(["decline", "--reply", "--me", CalendarInvitationMergeTests.bob, "--state", t.root + "/state",
                                      String(spamNumber), t.calendars + "/fastmail"], env: ["COOLCAL_SENDMAIL": t.root + "/sendmail"])
        #expect(decline.status == 0, "\(decline.stderr)")
        #expect(try String(contentsOfFile: t.work + "/spam.ics", encoding: .utf8)
            .contains("ATTENDEE;PARTSTAT=DECLINED:mailto:bob@example.com"))
        let mailed = (try? String(contentsOfFile: t.root + "/sendmail.log", encoding: .utf8)) ?? ""
        #expect(mailed.contains("To: spammer@example.net") || mailed.contains("To: <spammer@example.net>"), "\(mailed)")
        #expect(mailed.contains("METHOD:REPLY") && mailed.contains("PARTSTAT=DECLINED"), "\(mailed)")
        let answered = try Binary.json(Binary.run(["inbox", "--json", "--state", t.root + "/state"]).stdout)["invitations"] as? [[String: Any]] ?? []
        #expect(answered.first { $0["id"] as? String == "plan-1" }?["answer"] as? String == "accepted")
        #expect(answered.first { $0["id"] as? String == "lunch-1" }?["answer"] as? String == "accepted")
        #expect(answered.first { $0["id"] as? String == "spam-1" }?["answer"] as? String == "declined")
        // `conflicts N` reads the stored copy: Plan against my own meeting, itself left out.
        let conflicts = try Binary.run(["conflicts", "--json", "--me", CalendarInvitationMergeTests.bob, "--state", t.root + "/state",
                                        String(planNumber), t.calendars + "/fastmail"])
        let found = try Binary.json(conflicts.stdout)["conflicts"] as? [[String: Any]] ?? []
        #expect(found.map { $0["uid"] as? String } == ["own-1"], "\(conflicts.stdout) \(conflicts.stderr)")
        // Nothing new: nothing said again.
        let second = try t.merge(["--calendar-invitations"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try t.outcomes(second).isEmpty)
        // The server moved Plan (same SEQUENCE) and reset my PARTSTAT: it comes back, now free, accepted.
        typealias C = CalendarInvitationMergeTests
        try t.put("plan.ics", C.item("plan-1", organizer: "olga@example.com", partstat: "NEEDS-ACTION",
                                     start: C.stamp(days: 11, hour: 15), end: C.stamp(days: 11, hour: 16), summary: "Plan"))
        let third = try t.merge(["--calendar-invitations"])
        #expect(try t.outcomes(third) == ["plan-1": "accepted"])
    }

    @Test func offByDefaultAndTheConfigKeyTurnsItOn() throws {
        let t = try tree()
        defer { try? FileManager.default.removeItem(atPath: t.root) }
        // Without a spool nor the option: nothing to do is a usage error, as before.
        let off = try t.merge()
        #expect(off.status == 64, "\(off.stderr)")
        let config = try Binary.configHome("calendar-invitations = yes\n")
        let on = try t.merge(env: ["XDG_CONFIG_HOME": config])
        #expect(on.status == 0, "\(on.stderr)")
        #expect(try t.outcomes(on).count == 3)
        let shown = try Binary.run(["config"], env: ["XDG_CONFIG_HOME": config])
        #expect(shown.stdout.contains("calendar-invitations yes  (config file)"), "\(shown.stdout)")
        let bad = try Binary.run(["config"], env: ["XDG_CONFIG_HOME": try Binary.configHome("calendar-invitations = maybe\n")])
        #expect(bad.status == 78, "\(bad.stderr)")
    }

    /// A mailed invitation over the time of a held one found in the calendar is free.
    @Test func aHeldOneIsFreeForTheSpoolsInvitations() throws {
        let t = try tree()
        defer { try? FileManager.default.removeItem(atPath: t.root) }
        typealias C = CalendarInvitationMergeTests
        try t.put("spam2.ics", C.item("spam-2", organizer: "spammer@example.net", partstat: "NEEDS-ACTION",
                                      start: C.stamp(days: 14, hour: 9), end: C.stamp(days: 14, hour: 12), summary: "Buy more"))
        let spool = t.root + "/spool"
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
        let invite = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Mail//EN", "METHOD:REQUEST", "BEGIN:VEVENT",
                      "UID:mailed-1", "DTSTAMP:20260101T000000Z", "SEQUENCE:0", "DTSTART:\(C.stamp(days: 14, hour: 10))",
                      "DTEND:\(C.stamp(days: 14, hour: 11))", "SUMMARY:Review", "ORGANIZER:mailto:olga@example.com",
                      "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:\(C.bob)", "END:VEVENT", "END:VCALENDAR", ""]
        try Data(invite.joined(separator: "\r\n").utf8).write(to: URL(fileURLWithPath: spool + "/review.ics"))
        let run = try Binary.run(["merge", "--json", "--calendar-invitations", "--me", C.bob, "--state", t.root + "/state",
                                  "--spool", spool, t.work])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try t.outcomes(run) == ["plan-1": "busy", "lunch-1": "accepted", "spam-1": "held", "spam-2": "held",
                                        "mailed-1": "accepted"], "\(run.stdout)")
    }

    /// `reply --tentative N` answers in place in the config's calendars, its comment a COMMENT.
    @Test func replyTentativeAnswersInPlaceWithAComment() throws {
        let t = try tree()
        defer { try? FileManager.default.removeItem(atPath: t.root) }
        #expect(try t.merge(["--calendar-invitations"]).status == 0)
        let entries = try Binary.json(Binary.run(["inbox", "--json", "--state", t.root + "/state"]).stdout)["invitations"] as? [[String: Any]] ?? []
        let plan = String(entries.first { $0["id"] as? String == "plan-1" }?["number"] as? Int ?? 0)
        let config = try Binary.configHome("calendar = \(t.calendars)/fastmail\n")
        let printed = try Binary.run(["reply", "--tentative", "--mail", "--me", CalendarInvitationMergeTests.bob, "--state", t.root + "/state", plan],
                                     env: ["XDG_CONFIG_HOME": config])
        #expect(printed.status == 64, "\(printed.stderr)")
        let reply = try Binary.run(["reply", "--tentative", "--comment", "Maybe, if the train is on time", "--me", CalendarInvitationMergeTests.bob,
                                    "--state", t.root + "/state", plan], env: ["XDG_CONFIG_HOME": config])
        #expect(reply.status == 0, "\(reply.stderr)")
        #expect(reply.stdout == "tentatively accepted: Plan: your PARTSTAT set in \(t.work)/plan.ics (found in fastmail/work)\n")
        let text = try String(contentsOfFile: t.work + "/plan.ics", encoding: .utf8)
        #expect(text.contains("ATTENDEE;PARTSTAT=TENTATIVE:mailto:bob@example.com\r\nCOMMENT:Maybe\\, if the train is on time\r\nEND:VEVENT"), "\(text)")
        #expect(text.contains("SEQUENCE") == false && !text.contains("SCHEDULE-STATUS"))
    }
}
