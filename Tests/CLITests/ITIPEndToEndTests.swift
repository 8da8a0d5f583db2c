import Foundation
import Testing

/// iTIP round trips with the built binary: REQUEST → conflicts / accept / reply,
/// a newer REQUEST, a stale one, CANCEL (whole series and one instance).
@Suite struct ITIPEndToEndTests {
    let me = "me@example.com"
    let uid = "kickoff-7@example.org"

    /// An iTIP message as Thunderbird would mail it; times in Europe/Berlin.
    func message(method: String = "REQUEST", sequence: Int = 0, stamp: String = "20220815T091500Z",
                 start: String = "20220822T100000", end: String = "20220822T110000",
                 rrule: String? = nil, recurrenceID: String? = nil, uid: String? = nil) -> String {
        var lines = ["BEGIN:VCALENDAR", "PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN", "VERSION:2.0",
                     "METHOD:\(method)", "BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "BEGIN:DAYLIGHT",
                     "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "TZNAME:CEST", "DTSTART:19700329T020000",
                     "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT", "BEGIN:STANDARD",
                     "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "TZNAME:CET", "DTSTART:19701025T030000",
                     "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD", "END:VTIMEZONE",
                     "BEGIN:VEVENT", "UID:\(uid ?? self.uid)", "DTSTAMP:\(stamp)", "SEQUENCE:\(sequence)",
                     "ORGANIZER;CN=Alice:mailto:alice@example.org",
                     "ATTENDEE;PARTSTAT=ACCEPTED;CN=Alice:mailto:alice@example.org",
                     "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE;CN=Me:mailto:\(me)",
                     "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:bob@example.org",
                     "SUMMARY:Kickoff", "DTSTART;TZID=Europe/Berlin:\(start)", "DTEND;TZID=Europe/Berlin:\(end)"]
        if let rrule { lines.append("RRULE:\(rrule)") }
        if let recurrenceID { lines.append("RECURRENCE-ID;TZID=Europe/Berlin:\(recurrenceID)") }
        if method == "CANCEL" { lines.append("STATUS:CANCELLED") }
        lines += ["END:VEVENT", "END:VCALENDAR"]
        return lines.map { $0 + "\r\n" }.joined()
    }

    func file(_ text: String, _ name: String = "invite.ics") throws -> String {
        try Binary.temp(name, Data(text.utf8))
    }

    func calendar() throws -> String {
        try Binary.temp("work.ics", try Data(contentsOf: URL(fileURLWithPath: Binary.sample("work.ics"))))
    }

    func read(_ path: String) throws -> String { String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self) }

    func coolcal(_ args: [String]) throws -> Run {
        try Binary.run(args, env: ["COOLCAL_STATE": try Binary.temp("state/.keep", Data()) + "-dir"])
    }

    /// The occurrences `events --json` sees in a calendar on 2022-08-22 … 2022-09-10.
    func events(_ cal: String) throws -> [[String: Any]] {
        let run = try Binary.run(["events", "--json", "--from", "2022-08-22T00:00:00Z", "--to", "2022-09-10T00:00:00Z", cal])
        #expect(run.status == 0, "\(run.stderr)")
        return try Binary.json(run.stdout)["events"] as? [[String: Any]] ?? []
    }

    func mine(_ cal: String) throws -> [[String: Any]] {
        try events(cal).filter { $0["uid"] as? String == uid }
    }

    @Test func requestIsAnInvitationWhoseIDIsTheUID() throws {
        let run = try Binary.run(["conflicts", "--json", "--buffer", "0", try file(message()), try calendar()])
        #expect(run.status == 0 || run.status == 1, "\(run.stderr)")
        let invite = try Binary.json(run.stdout)["invite"] as? [String: Any]
        #expect(invite?["id"] as? String == uid)
        #expect(invite?["start"] as? String == "2022-08-22T08:00:00Z")
        #expect(invite?["end"] as? String == "2022-08-22T09:00:00Z")
    }

    /// A weekly invitation is checked instance by instance: its EXDATE, its moved
    /// instance (an override in the same message) and its later weeks.
    @Test func aRecurringInvitationIsCheckedInstanceByInstance() throws {
        var text = message(rrule: "FREQ=WEEKLY;COUNT=5")
        text = text.replacingOccurrences(of: "RRULE:FREQ=WEEKLY;COUNT=5\r\n",
                                         with: "RRULE:FREQ=WEEKLY;COUNT=5\r\nEXDATE;TZID=Europe/Berlin:20220905T100000\r\n")
        // The third week moves from Monday 10:00 to Tuesday 15:00 (Berlin).
        let moved = ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20220815T091500Z", "SEQUENCE:0",
                     "RECURRENCE-ID;TZID=Europe/Berlin:20220912T100000", "SUMMARY:Kickoff (moved)",
                     "DTSTART;TZID=Europe/Berlin:20220913T150000", "DTEND;TZID=Europe/Berlin:20220913T160000", "END:VEVENT"]
        text = text.replacingOccurrences(of: "END:VCALENDAR\r\n", with: moved.map { $0 + "\r\n" }.joined() + "END:VCALENDAR\r\n")
        let events = [
            ("dentist", "Dentist", "20220913T133000Z", "20220913T140000Z"),
            ("old-slot", "Where the moved one was", "20220912T080000Z", "20220912T090000Z"),
            ("excluded-week", "In the excluded week", "20220905T080000Z", "20220905T090000Z"),
        ].map { "BEGIN:VEVENT\r\nUID:\($0.0)\r\nSUMMARY:\($0.1)\r\nDTSTART:\($0.2)\r\nDTEND:\($0.3)\r\nEND:VEVENT\r\n" }
        let busy = try Binary.temp("busy.ics", Data(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:test\r\n" + events.joined()
                                                     + "END:VCALENDAR\r\n").utf8))
        let run = try Binary.run(["conflicts", "--json", "--buffer", "0", try file(text), busy])
        #expect(run.status == 1, "\(run.stderr)")
        let doc = try Binary.json(run.stdout)
        let instances = (doc["instances"] as? [[String: Any]] ?? []).map { "\($0["start"] as? String ?? "") \($0["free"] as? Bool ?? true)" }
        #expect(instances == ["2022-08-22T08:00:00Z true", "2022-08-29T08:00:00Z true", "2022-09-13T13:00:00Z false",
                              "2022-09-19T08:00:00Z true"])
        let conflicts = (doc["conflicts"] as? [[String: Any]] ?? []).map { "\($0["uid"] as? String ?? "") \($0["instance"] as? String ?? "")" }
        #expect(conflicts == ["dentist 2022-09-13T13:00:00Z"])
        #expect((doc["invite"] as? [String: Any])?["start"] as? String == "2022-08-22T08:00:00Z")
        let human = try Binary.run(["conflicts", "--buffer", "0", try file(text), busy])
        #expect(human.stdout.contains("repeats: 4 instances checked, through "))
        #expect(human.stdout.contains("Dentist  [busy.ics]  overlaps the instance of Sep 13, 2022"))
        // A single (non-recurring) invitation has no "instances".
        let single = try Binary.json(try Binary.run(["conflicts", "--json", try file(message()), busy]).stdout)
        #expect(single["instances"] == nil)
    }

    @Test func acceptStoresTheOrganizersEventWithMyAcceptance() throws {
        let cal = try calendar()
        let before = try read(cal)
        let run = try coolcal(["accept", "--me", me, try file(message()), cal])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "accepted: Kickoff (id \(uid)): added to \(cal)\n")
        let after = try read(cal)
        let tail = "END:VCALENDAR\r\n"
        #expect(after.hasPrefix(String(before.dropLast(tail.count))), "every old byte kept, in order")
        let added = String(after.dropFirst(before.count - tail.count))
        let unfolded = added.replacingOccurrences(of: "\r\n ", with: "")
        #expect(unfolded.contains("UID:\(uid)\r\n"))
        #expect(unfolded.contains("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n"), "the zone travels with the event")
        #expect(unfolded.contains("ORGANIZER;CN=Alice:mailto:alice@example.org"))
        let attendees = unfolded.components(separatedBy: "\r\n").filter { $0.hasPrefix("ATTENDEE") }
        #expect(attendees.count == 3)
        let mineLine = attendees.first { $0.hasSuffix("mailto:\(me)") } ?? ""
        #expect(mineLine.contains("PARTSTAT=ACCEPTED") && !mineLine.contains("RSVP"))
        #expect(attendees.first { $0.hasSuffix("bob@example.org") }?.contains("PARTSTAT=NEEDS-ACTION") == true,
                "other attendees stay as sent")
        let stored = try mine(cal)
        #expect(stored.count == 1)
        #expect(stored.first?["start"] as? String == "2022-08-22T08:00:00Z")
        #expect(stored.first?["busy"] as? Bool == true)
        let again = try coolcal(["accept", "--me", me, try file(message()), cal])
        #expect(again.stdout.hasSuffix("already in \(cal), unchanged\n"))
        #expect(try read(cal) == after)
    }

    @Test func withoutMeTheEventIsStoredAndAWarningSaysWhy() throws {
        let cal = try calendar()
        let run = try coolcal(["accept", try file(message()), cal])
        #expect(run.status == 0)
        #expect(run.stderr.contains("no --me"))
        #expect(try mine(cal).count == 1)
    }

    @Test func newerSequenceReplacesOlderIsIgnored() throws {
        let cal = try calendar()
        #expect(try coolcal(["accept", "--me", me, try file(message()), cal]).status == 0)
        let moved = try coolcal(["accept", "--me", me, try file(message(sequence: 2, start: "20220823T140000", end: "20220823T150000")), cal])
        #expect(moved.stdout.hasSuffix("updated in \(cal)\n"), "\(moved.stdout)\(moved.stderr)")
        #expect(try read(cal).components(separatedBy: "UID:\(uid)").count == 2, "one VEVENT for the UID")
        #expect(try mine(cal).map { $0["start"] as? String } == ["2022-08-23T12:00:00Z"])
        let afterMove = try read(cal)
        let stale = try coolcal(["accept", "--me", me, try file(message(sequence: 1)), cal])
        #expect(stale.status == 0)
        #expect(stale.stdout == "ignored: Kickoff (id \(uid)): the calendar has a newer version (SEQUENCE 2; this is SEQUENCE 1); \(cal) unchanged\n")
        #expect(try read(cal) == afterMove)
        // Same SEQUENCE: the later DTSTAMP wins, an earlier one is ignored.
        let later = try coolcal(["accept", "--me", me, try file(message(sequence: 2, stamp: "20220816T000000Z")), cal])
        #expect(later.stdout.hasSuffix("updated in \(cal)\n"))
        #expect(try mine(cal).map { $0["start"] as? String } == ["2022-08-22T08:00:00Z"])
        let earlier = try coolcal(["accept", "--me", me, try file(message(sequence: 2, stamp: "20220815T120000Z", start: "20220824T100000", end: "20220824T110000")), cal])
        #expect(earlier.stdout.hasPrefix("ignored: "))
        #expect(try mine(cal).map { $0["start"] as? String } == ["2022-08-22T08:00:00Z"])
    }

    @Test func anEarlierVersionDoesNotMakeTheNewOneBusy() throws {
        let cal = try calendar()
        #expect(try coolcal(["accept", "--me", me, try file(message()), cal]).status == 0)
        let later = try file(message(sequence: 1, start: "20220822T103000", end: "20220822T113000"))
        let check = try Binary.run(["conflicts", "--json", "--buffer", "0", later, cal])
        let ignored = (try Binary.json(check.stdout)["ignored"] as? [[String: Any]]) ?? []
        #expect(ignored.contains { $0["uid"] as? String == uid && $0["reason"] as? String == "this invitation" })
        let run = try coolcal(["accept", "--if-free", "--buffer", "0", "--me", me, later, cal])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasSuffix("updated in \(cal)\n"))
    }

    @Test func cancelMarksTheStoredEventCancelled() throws {
        let cal = try calendar()
        let untouched = try read(cal)
        let nothing = try coolcal(["accept", try file(message(method: "CANCEL", sequence: 1)), cal])
        #expect(nothing.status == 0)
        #expect(nothing.stdout.hasSuffix("not in \(cal); nothing to cancel\n"))
        #expect(try read(cal) == untouched)
        #expect(try coolcal(["accept", "--me", me, try file(message()), cal]).status == 0)
        let cancel = try coolcal(["accept", try file(message(method: "CANCEL", sequence: 1)), cal])
        #expect(cancel.stdout == "cancelled: Kickoff (id \(uid)): marked cancelled in \(cal)\n")
        let stored = try mine(cal)
        #expect(stored.count == 1)
        #expect(stored.first?["status"] as? String == "CANCELLED")
        #expect(stored.first?["busy"] as? Bool == false)
        #expect(try read(cal).hasPrefix(String(untouched.dropLast("END:VCALENDAR\r\n".count))))
        // The window is free again for another invitation at that time.
        let other = try file(message(uid: "other@example.org"))
        #expect(try Binary.run(["conflicts", "--buffer", "0", other, cal]).status == 0)
        // conflicts refuses a cancellation: there is nothing to check.
        let check = try Binary.run(["conflicts", try file(message(method: "CANCEL", sequence: 1)), cal])
        #expect(check.status == 65)
        #expect(check.stderr.contains("is a cancellation (METHOD:CANCEL)"))
    }

    @Test func staleCancelIsIgnored() throws {
        let cal = try calendar()
        #expect(try coolcal(["accept", "--me", me, try file(message(sequence: 3)), cal]).status == 0)
        let before = try read(cal)
        let cancel = try coolcal(["accept", try file(message(method: "CANCEL", sequence: 2)), cal])
        #expect(cancel.stdout.hasPrefix("ignored: Kickoff (id \(uid)): the calendar has a newer version (SEQUENCE 3; this is SEQUENCE 2)"))
        #expect(try read(cal) == before)
    }

    @Test func cancellingOneInstanceOfASeries() throws {
        let cal = try calendar()
        let weekly = message(rrule: "FREQ=WEEKLY;COUNT=3")
        #expect(try coolcal(["accept", "--me", me, try file(weekly), cal]).status == 0)
        #expect(try mine(cal).count == 3)
        let one = message(method: "CANCEL", sequence: 1, start: "20220829T100000", end: "20220829T110000",
                          recurrenceID: "20220829T100000")
        let run = try coolcal(["accept", try file(one), cal])
        #expect(run.stdout.hasSuffix("marked cancelled in \(cal)\n"), "\(run.stdout)\(run.stderr)")
        let stored = try mine(cal)
        #expect(stored.count == 3)
        let busy = stored.map { "\($0["start"] as? String ?? "") \($0["busy"] as? Bool ?? true)" }
        #expect(busy == ["2022-08-22T08:00:00Z true", "2022-08-29T08:00:00Z false", "2022-09-05T08:00:00Z true"])
    }

    @Test func replyAnswersAsTheAttendeeOnly() throws {
        let invite = try file(message(sequence: 4, rrule: nil, recurrenceID: "20220822T100000"))
        let run = try Binary.run(["reply", "--me", "MAILTO:Me@Example.com", "--tentative", "--comment", "Late; sorry", invite])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
        #expect(lines.first == "BEGIN:VCALENDAR" && lines.contains("METHOD:REPLY"))
        #expect(lines.contains("UID:\(uid)") && lines.contains("SEQUENCE:4"))
        #expect(lines.contains("RECURRENCE-ID;TZID=Europe/Berlin:20220822T100000"))
        #expect(lines.contains("ORGANIZER;CN=Alice:mailto:alice@example.org"))
        #expect(lines.contains("COMMENT:Late\\; sorry"))
        let attendees = lines.filter { $0.hasPrefix("ATTENDEE") }
        #expect(attendees.count == 1)
        #expect(attendees.first?.contains("PARTSTAT=TENTATIVE") == true && attendees.first?.hasSuffix("mailto:\(me)") == true)
        #expect(lines.contains("BEGIN:VTIMEZONE"), "the zone its times name")
        let stamp = lines.first { $0.hasPrefix("DTSTAMP:") }.map { String($0.dropFirst(8)) } ?? ""
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        formatter.timeZone = TimeZone(identifier: "UTC")
        let when = formatter.date(from: stamp)
        #expect(when.map { abs($0.timeIntervalSinceNow) < 120 } == true, "DTSTAMP is now, not the organizer's")
    }

    @Test func replyRefusesWhatItCannotAnswer() throws {
        let invite = try file(message())
        let stranger = try Binary.run(["reply", "--me", "eve@example.org", "--accept", invite])
        #expect(stranger.status == 65)
        #expect(stranger.stderr.contains("eve@example.org is not an attendee of this invitation (attendees: mailto:alice@example.org, mailto:me@example.com, mailto:bob@example.org)"))
        #expect(stranger.stdout.isEmpty)
        let payload = try Binary.run(["reply", "--me", me, "--accept", Binary.sample("invite.json")])
        #expect(payload.status == 65 && payload.stderr.contains("is a push payload"))
        #expect(try Binary.run(["reply", "--me", me, invite]).status == 64)
        #expect(try Binary.run(["reply", "--me", me, "--accept", "--decline", invite]).status == 64)
        #expect(try Binary.run(["reply", "--accept", invite]).status == 64)
        let answer = try file(message(method: "REPLY"))
        let notInvite = try Binary.run(["conflicts", answer, try calendar()])
        #expect(notInvite.status == 65)
        #expect(notInvite.stderr.contains("METHOD:REPLY is not an invitation"))
    }

    @Test func uidsNeverEscapeTheVdir() throws {
        let root = URL(fileURLWithPath: try Binary.temp("outside/.keep", Data())).deletingLastPathComponent()
        let vdir = root.appendingPathComponent("cal")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        for (i, bad) in ["../../x", "a/b", "..", "/etc/passwd"].enumerated() {
            let run = try coolcal(["accept", try file(message(uid: bad), "bad-\(i).ics"), vdir.path])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let outside = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        #expect(outside == [".keep", "cal"])
        let inside = try FileManager.default.contentsOfDirectory(atPath: vdir.path).filter { $0.hasSuffix(".ics") }
        #expect(inside.count == 4)
        #expect(inside.allSatisfy { !$0.hasPrefix(".") && !$0.contains("/") })
        let control = try coolcal(["accept", try file(message(uid: "a\u{1b}[31m")), vdir.path])
        #expect(control.status == 65 && control.stderr.contains("the UID contains control characters"))
    }

    /// vdirsyncer names files after server hrefs, not UIDs: the event is found by UID.
    @Test func aVdirEventIsFoundWhateverItsFileIsCalled() throws {
        let vdir = URL(fileURLWithPath: try Binary.temp("cal/.keep", Data())).deletingLastPathComponent()
        try Data(message().utf8).write(to: vdir.appendingPathComponent("f81d4fae-7dec.ics"))
        let newer = try coolcal(["accept", "--me", me, try file(message(sequence: 1, start: "20220822T120000", end: "20220822T130000")), vdir.path])
        #expect(newer.stdout.hasSuffix("updated in \(vdir.path)\n"), "\(newer.stdout)\(newer.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: vdir.path).filter { $0.hasSuffix(".ics") }
        #expect(files == ["f81d4fae-7dec.ics"])
        #expect(try mine(vdir.path).map { $0["start"] as? String } == ["2022-08-22T10:00:00Z"])
    }

    @Test func mergeAppliesRequestsAndCancellations() throws {
        let cal = try calendar()
        let spool = URL(fileURLWithPath: try Binary.temp("spool/.keep", Data())).deletingLastPathComponent()
        try Data(message().utf8).write(to: spool.appendingPathComponent("1-request.ics"))
        try Data(message(method: "CANCEL", sequence: 1).utf8).write(to: spool.appendingPathComponent("2-cancel.ics"))
        // Alice's invitations are ones I accept (one address in accept-from).
        let run = try coolcal(["merge", "--me", me, "--accept-from", "alice@example.org", "--policy", "accept-all",
                               "--spool", spool.path, cal])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("accepted  1-request.ics  Kickoff"))
        #expect(run.stdout.contains("cancelled 2-cancel.ics  Kickoff"))
        #expect(try mine(cal).first?["status"] as? String == "CANCELLED")
        let done = try FileManager.default.contentsOfDirectory(atPath: spool.appendingPathComponent("done").path)
        #expect(done.contains("2-cancel.ics.outcome"))
    }
}
