import Foundation
import Testing

/// `accept` and `decline`: never lose a byte, idempotent, atomic, locked.
@Suite struct AcceptEndToEndTests {
    let env = ["XDG_CONFIG_HOME": "/nonexistent"]

    func copyOfSample(_ name: String) throws -> String {
        try Binary.temp(name, try Data(contentsOf: URL(fileURLWithPath: Binary.sample(name))))
    }

    func read(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func invite(_ id: Int, _ title: String, _ start: String, _ end: String) throws -> String {
        let json = "{\"title\": \(String(reflecting: title)), \"start\": \"\(start)\", \"end\": \"\(end)\", \"id\": \(id)}"
        return try Binary.temp("invite-\(id).json", Data(json.utf8))
    }

    @Test func originalBytesSurviveInOrder() throws {
        let cal = try copyOfSample("work.ics")
        let before = try read(cal)
        let run = try Binary.run(["accept", Binary.sample("invite.json"), cal])
        #expect(run.status == 0)
        #expect(run.stdout == "accepted: Family Reunion (id 12): added to \(cal)\n")
        let after = try read(cal)
        let tail = Data("END:VCALENDAR\r\n".utf8)
        // Old file = after minus exactly one inserted block before the final END:VCALENDAR.
        #expect(after.prefix(before.count - tail.count) == before.prefix(before.count - tail.count))
        #expect(after.suffix(tail.count) == tail)
        let inserted = String(decoding: after.dropFirst(before.count - tail.count).dropLast(tail.count), as: UTF8.self)
        #expect(inserted.hasPrefix("BEGIN:VEVENT\r\nUID:coolcal-invite-12@"))
        #expect(inserted.hasSuffix("END:VEVENT\r\n"))
        #expect(inserted.contains("\r\nDTSTART:20220820T160000Z\r\nDTEND:20220820T200000Z\r\n"))
        #expect(inserted.contains("\r\nX-COOLCAL-INVITE-ID:12\r\n"))
        #expect(!inserted.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "CRLF file stays CRLF")
    }

    @Test func lfFilesStayLF() throws {
        let cal = try copyOfSample("family.ics")
        #expect(try Binary.run(["accept", Binary.sample("invite-free.json"), cal]).status == 0)
        #expect(!String(decoding: try read(cal), as: UTF8.self).contains("\r"))
    }

    /// The calendar is read through the pre-filter for the new time's window, where the
    /// stored copy (years away) is not: it must still be found and replaced, not doubled.
    @Test func aPayloadMovedFarAwayReplacesItsStoredCopy() throws {
        let cal = try copyOfSample("family.ics")
        let first = try Binary.temp("a.json", Data(#"{"title": "Moved", "start": "2024-03-01T10:00:00Z", "end": "2024-03-01T11:00:00Z", "id": 77}"#.utf8))
        let moved = try Binary.temp("b.json", Data(#"{"title": "Moved", "start": "2031-09-01T10:00:00Z", "end": "2031-09-01T11:00:00Z", "id": 77}"#.utf8))
        #expect(try Binary.run(["accept", first, cal]).status == 0)
        let run = try Binary.run(["accept", moved, cal])
        #expect(run.stdout == "accepted: Moved (id 77): updated in \(cal)\n")
        let text = String(decoding: try read(cal), as: UTF8.self)
        #expect(text.components(separatedBy: "X-COOLCAL-INVITE-ID:77").count == 2)
        #expect(text.contains("DTSTART:20310901T100000Z") && !text.contains("DTSTART:20240301T100000Z"))
    }

    @Test func acceptingTwiceChangesNothingAndResendReplaces() throws {
        let cal = try copyOfSample("family.ics")
        let original = try read(cal)
        _ = try Binary.run(["accept", Binary.sample("invite.json"), cal])
        let once = try read(cal)
        let again = try Binary.run(["accept", Binary.sample("invite.json"), cal])
        #expect(again.stdout.hasSuffix("already in \(cal), unchanged\n"))
        #expect(try read(cal) == once)
        let moved = try invite(12, "Family Reunion (moved)", "2022-08-21T08:00:00-08:00", "2022-08-21T12:00:00-08:00")
        let resend = try Binary.run(["accept", moved, cal])
        #expect(resend.stdout.hasSuffix("updated in \(cal)\n"))
        let text = String(decoding: try read(cal), as: UTF8.self)
        #expect(text.components(separatedBy: "X-COOLCAL-INVITE-ID:12").count == 2, "one event for id 12")
        #expect(text.contains("SUMMARY:Family Reunion (moved)\nDTSTART:20220821T160000Z"))
        #expect(text.contains("SEQUENCE:1\n"))
        #expect(text.hasPrefix(String(decoding: original.dropLast("END:VCALENDAR\n".utf8.count), as: UTF8.self)))
    }

    @Test func injectionAttemptStaysOneEvent() throws {
        let cal = try copyOfSample("family.ics")
        let evil = try invite(66, "Party\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:evil\r\nSUMMARY:owned", "2022-09-01T10:00:00Z", "2022-09-01T11:00:00Z")
        #expect(try Binary.run(["accept", evil, cal]).status == 0)
        let events = try Binary.run(["events", "--json", "--from", "2022-09-01", cal])
        let list = try #require(try Binary.json(events.stdout)["events"] as? [[String: Any]])
        #expect(list.count == 1)
        #expect(list.first?["summary"] as? String == "Party\nEND:VEVENT\nBEGIN:VEVENT\nUID:evil\nSUMMARY:owned")
        #expect(!String(decoding: try read(cal), as: UTF8.self).contains("\nUID:evil"))
    }

    @Test func modeAndSymlinkAreKept() throws {
        let cal = try copyOfSample("family.ics")
        chmod(cal, 0o640)
        let link = URL(fileURLWithPath: cal).deletingLastPathComponent().appendingPathComponent("link.ics").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: cal)
        #expect(try Binary.run(["accept", Binary.sample("invite.json"), link]).status == 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: cal)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o640)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == cal)
        #expect(String(decoding: try read(cal), as: UTF8.self).contains("X-COOLCAL-INVITE-ID:12"))
    }

    @Test func danglingSymlinkIsWrittenAtItsTarget() throws {
        let dir = URL(fileURLWithPath: try Binary.temp("x", Data())).deletingLastPathComponent().path
        try FileManager.default.createSymbolicLink(atPath: dir + "/cal.ics", withDestinationPath: "nothere.ics")
        #expect(try Binary.run(["accept", Binary.sample("invite.json"), dir + "/cal.ics"]).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/cal.ics") == "nothere.ics")
        #expect(String(decoding: try read(dir + "/nothere.ics"), as: UTF8.self).contains("X-COOLCAL-INVITE-ID:12"))
    }

    @Test func unicodeLineSeparatorsStayInTheTitle() throws {
        let cal = try copyOfSample("work.ics")
        let odd = try invite(77, "A\u{2028}B\rD", "2030-03-01T10:00:00Z", "2030-03-01T11:00:00Z")
        #expect(try Binary.run(["accept", odd, cal]).status == 0)
        let once = try read(cal)
        #expect(try Binary.run(["accept", odd, cal]).stdout.hasSuffix("unchanged\n"))
        #expect(try read(cal) == once)
        let events = try Binary.run(["events", "--json", "--from", "2030-03-01", cal])
        let list = try #require(try Binary.json(events.stdout)["events"] as? [[String: Any]])
        #expect(list.first { ($0["uid"] as? String)?.hasPrefix("coolcal-invite-77") == true }?["summary"] as? String == "A\u{2028}B\nD")
    }

    @Test func ifFreeAndDryRun() throws {
        let cal = try copyOfSample("work.ics")
        let before = try read(cal)
        let busy = try Binary.run(["accept", "--if-free", Binary.sample("invite.json"), cal, Binary.sample("family.ics")])
        #expect(busy.status == 1)
        #expect(busy.stdout.hasPrefix("not accepted: Family Reunion (id 12): 3 conflicts in the window\n"))
        #expect(try read(cal) == before)
        let dry = try Binary.run(["accept", "--dry-run", Binary.sample("invite-free.json"), cal])
        #expect(dry.status == 0)
        #expect(dry.stdout.hasPrefix("BEGIN:VEVENT\r\nUID:coolcal-invite-13@"))
        #expect(try read(cal) == before)
        let free = try Binary.run(["accept", "--if-free", Binary.sample("invite-free.json"), cal, Binary.sample("family.ics")])
        #expect(free.status == 0)
        // Accepted once, the event is "this invitation", not a conflict with itself.
        #expect(try Binary.run(["accept", "--if-free", Binary.sample("invite-free.json"), cal]).status == 0)
    }

    @Test func vdirGetsANewSafelyNamedFile() throws {
        let dir = URL(fileURLWithPath: try Binary.temp("vdir/keep.ics", try read(Binary.sample("vdir/3c5e8a0f27d14b6e9a1f0c2d4e6b8a90.ics"))))
            .deletingLastPathComponent().path
        let run = try Binary.run(["accept", Binary.sample("invite.json"), dir], env: ["XDG_CONFIG_HOME": try Binary.configHome("domain = ../../x\n")])
        #expect(run.status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".ics") }.sorted()
        #expect(files == ["coolcal-invite-12@.._.._x.ics", "keep.ics"])
        let events = try Binary.run(["events", "--json", "--from", "2022-08-20", dir])
        #expect((try Binary.json(events.stdout)["events"] as? [[String: Any]])?.contains { $0["summary"] as? String == "Family Reunion" } == true)
    }

    @Test func badInputChangesNothing() throws {
        let cal = try copyOfSample("work.ics")
        let before = try read(cal)
        let bad = try Binary.temp("bad.json", Data(#"{"title": "", "start": "x", "end": "y", "id": 1}"#.utf8))
        let run = try Binary.run(["accept", bad, cal])
        #expect(run.status == 65)
        #expect(run.stdout == "")
        #expect(try read(cal) == before)
        let garbage = try Binary.temp("garbage.ics", Data("not a calendar".utf8))
        #expect(try Binary.run(["accept", Binary.sample("invite.json"), garbage]).status == 65)
        #expect(try read(garbage) == Data("not a calendar".utf8))
        let missingDir = try Binary.run(["accept", "--create", Binary.sample("invite.json"), "/nonexistent/dir/cal.ics"])
        #expect(missingDir.status == 73)
        // (The sample reunion is in 2022: the warning comes first.)
        #expect(missingDir.stderr == "coolcal: warning: every instance ended before now\n"
                + "coolcal: error: /nonexistent/dir/cal.ics: its directory does not exist\n")
    }

    @Test func newCalendarFileIsCreatedOnlyWithCreate() throws {
        let dir = URL(fileURLWithPath: try Binary.temp("x", Data())).deletingLastPathComponent().path
        let cal = dir + "/new.ics"
        let refused = try Binary.run(["accept", Binary.sample("invite.json"), cal])
        #expect(refused.status == 66)
        #expect(refused.stdout == "")
        #expect(refused.stderr == "coolcal: error: \(cal): no such file (coolcal accept --create … creates it)\n")
        #expect(!FileManager.default.fileExists(atPath: cal))
        let dry = try Binary.run(["accept", "--dry-run", Binary.sample("invite.json"), cal])
        #expect(dry.status == 66)
        #expect(try Binary.run(["accept", "--create", Binary.sample("invite.json"), cal]).status == 0)
        let text = String(decoding: try read(cal), as: UTF8.self)
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//coolcal//coolcal//EN\r\nBEGIN:VEVENT\r\n"))
        #expect(text.hasSuffix("END:VEVENT\r\nEND:VCALENDAR\r\n"))
    }

    @Test func lockHeldTooLongIs75() throws {
        let cal = try copyOfSample("family.ics")
        let lockPath = URL(fileURLWithPath: cal).deletingLastPathComponent().appendingPathComponent(".family.ics.coolcal-lock").path
        let fd = open(lockPath, O_RDONLY | O_CREAT, 0o644)
        #expect(fd >= 0)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX) == 0)
        let before = try read(cal)
        let run = try Binary.run(["accept", Binary.sample("invite.json"), cal], env: ["COOLCAL_LOCK_TIMEOUT": "0.3"])
        #expect(run.status == 75)
        #expect(run.stderr.contains("locked by another coolcal"))
        #expect(try read(cal) == before)
    }

    /// With nothing accepted in its own state, decline changes no calendar (what it
    /// undoes after an accept: ChangeOfMindTests).
    @Test func declineWithNothingAcceptedTouchesNoCalendar() throws {
        let state = URL(fileURLWithPath: try Binary.temp("x", Data())).deletingLastPathComponent().appendingPathComponent("state").path
        let run = try Binary.run(["decline", Binary.sample("invite.json")], env: ["COOLCAL_STATE": state])
        #expect(run.status == 0)
        #expect(run.stdout == "declined: Family Reunion (id 12)\n")
        let bad = try Binary.run(["decline", "-"], stdin: "{}")
        #expect(bad.status == 65)
        #expect(bad.stderr == "coolcal: error: <stdin>: missing \"title\"\n")
    }
}
