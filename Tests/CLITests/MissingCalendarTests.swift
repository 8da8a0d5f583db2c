import Foundation
import Testing

/// Issue #46 item 8: only `accept --create` starts a calendar file; `merge` and
/// `process` never create the calendar they write; a wholly past invitation is accepted
/// with a warning.
@Suite struct MissingCalendarTests {
    /// A new, empty directory.
    func directory() throws -> String {
        URL(fileURLWithPath: try Binary.temp("x", Data())).deletingLastPathComponent().path
    }

    @Test func mergeNeverCreatesItsCalendar() throws {
        let dir = try directory()
        let spool = dir + "/spool"
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Binary.sample("invite-free.json"), toPath: spool + "/a.json")
        let cal = dir + "/typo.ics"
        let run = try Binary.run(["merge", "--me", "me@example.com", "--state", dir + "/state", "--spool", spool, cal])
        #expect(run.status == 66)
        #expect(run.stderr == "coolcal: error: \(cal): no such file (merge never creates the calendar it writes; "
                + "coolcal accept --create … creates it)\n")
        #expect(!FileManager.default.fileExists(atPath: cal))
        #expect(try FileManager.default.contentsOfDirectory(atPath: spool).filter { !$0.hasPrefix(".") } == ["a.json"],
                "the invitation stays pending")
    }

    @Test func processParksRatherThanCreate() throws {
        let dir = try directory()
        let cal = dir + "/typo.ics"
        let ics = OrganizerBindingTests.message()
        let mail = OrganizerBindingTests.mail(ics, from: "alice@example.org")
        let run = try ProcessRun.run(["--recipient", "me@example.com", "--accept-from", "anyone", "--state", dir + "/state", cal],
                                     message: Data(mail.utf8))
        // A calendar a person must create: parked, and delivered as usual (#45's classes).
        #expect(run.status == 0, "\(run.text)\(run.stderr)")
        #expect(run.text == "error (\(cal): no such file (process never creates the calendar it writes; "
                + "coolcal accept --create … creates it); parked, answered once fixed)\n", "\(run.text)")
        #expect(!FileManager.default.fileExists(atPath: cal))
    }

    @Test func acceptingAPastInvitationWarnsAndWrites() throws {
        let cal = try Binary.temp("work.ics", try Data(contentsOf: URL(fileURLWithPath: Binary.sample("work.ics"))))
        // The sample reunion is in August 2022.
        let run = try Binary.run(["accept", Binary.sample("invite.json"), cal])
        #expect(run.status == 0)
        #expect(run.stdout == "accepted: Family Reunion (id 12): added to \(cal)\n")
        #expect(run.stderr == "coolcal: warning: every instance ended before now\n")
        let future = try Binary.temp("f.json", Data(#"{"title": "Later", "start": "2040-01-01T10:00:00Z", "end": "2040-01-01T11:00:00Z", "id": 90}"#.utf8))
        let quiet = try Binary.run(["accept", future, cal])
        #expect(quiet.status == 0)
        #expect(quiet.stderr == "")
    }
}
