import Foundation
import Testing
@testable import CLITests

/// `review` with `calendar-invitations = yes` (issue 49): what waits in the calendars is
/// recorded first and shown with the rest; declining it there sets my PARTSTAT in the
/// file (a decline of a mailed invitation needs no calendar; this one does).
@Suite(.serialized) struct ReviewFoundTests {
    @Test func foundInTheCalendarShownAndDeclinedInPlace() throws {
        typealias C = CalendarInvitationMergeTests
        // Wide enough for the line naming the file in full.
        let pane = try ReviewTerminalTests.Pane(width: 180) { dir in
            try FileManager.default.createDirectory(atPath: dir + "/no-config/coolcal", withIntermediateDirectories: true)
            try "me = \(C.bob)\naccept-from = anyone\ncalendar-invitations = yes\n"
                .write(toFile: dir + "/no-config/coolcal/config", atomically: true, encoding: .utf8)
            try C.item("sync-1", organizer: "olga@example.com", partstat: "NEEDS-ACTION",
                       start: C.stamp(days: 9, hour: 10), end: C.stamp(days: 9, hour: 11), summary: "Sync")
                .write(toFile: dir + "/work.ics", atomically: true, encoding: .utf8)
        }
        #expect(pane.waitFor("coolcal review: invitation 1 of 1", "Sync"), "\(pane.screen)")
        pane.keys("d")
        #expect(pane.waitFor("declined: Sync: your PARTSTAT set in \(pane.dir)/work.ics (found in work.ics)"), "\(pane.screen)")
        pane.keys("q")
        #expect(pane.status() == "0", "\(pane.file("err.txt"))")
        let lines = pane.file("work.ics").split(separator: "\r\n").map(String.init)
        #expect(lines.contains("ATTENDEE;PARTSTAT=DECLINED:mailto:\(C.bob)"), "\(lines)")
        #expect(lines.contains("ATTENDEE;PARTSTAT=ACCEPTED:mailto:olga@example.com"))
        // Recorded, not remembered: the entry is answered; merge finds nothing pending any more.
        let merge = try Binary.run(["merge", "--json", "--calendar-invitations", "--me", C.bob, "--state", pane.dir + "/state",
                                    pane.dir + "/work.ics"])
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect((try Binary.json(merge.stdout)["outcomes"] as? [[String: Any]])?.isEmpty == true, "\(merge.stdout)")
    }
}
