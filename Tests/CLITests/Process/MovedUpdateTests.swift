import Foundation
import Testing

/// Issue #46, items 1 and 3, end to end with the built binary, on a calendar file and on
/// a vdir: a re-sent invitation already in CAL is never busy (even with an event inside
/// its buffer), and an organizer's update that moves an accepted event where I am busy
/// is written, my PARTSTAT back to NEEDS-ACTION, the inbox entry unanswered again.
@Suite struct MovedUpdateTests {
    static let both = [false, true]

    @Test(arguments: both) func aReSentInvitationAlreadyInCALIsNeverBusy(vdir: Bool) throws {
        let desk = try MovedUpdateDesk(vdir: vdir)
        let first = try desk.accept(MovedUpdateDesk.invitation)
        #expect(first.status == 0 && first.stdout == "accepted: Design review: added to \(desk.calendar)\n", "\(first.stdout)\(first.stderr)")
        // "Busy thing" 11:30 sits inside the invitation's two-hour buffer: a new invitation would be busy.
        let again = try desk.accept(MovedUpdateDesk.invitation, ["--if-free"])
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(again.stdout == "accepted: Design review: already in \(desk.calendar), unchanged\n", "\(again.stdout)\(again.stderr)")
        let merged = try desk.merge(MovedUpdateDesk.invitation)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.hasPrefix("accepted  "), "\(merged.stdout)")
        #expect(merged.stdout.hasSuffix("  Design review  Mar 3, 2031, 10:00\u{202F}AM  (already in \(desk.calendar))\ntimes in UTC\n"), "\(merged.stdout)")
        let processed = try desk.process(MovedUpdateDesk.invitation)
        #expect(processed.status == 0, "\(processed.stderr)")
        #expect(processed.stdout == "no_action (already in \(desk.calendar))\n", "\(processed.stdout)\(processed.stderr)")
        #expect(try desk.stored().components(separatedBy: "DTSTART:20310303T100000Z").count == 2, "one copy, at 10:00")
    }

    @Test(arguments: both) func aMoveWhereIAmBusyIsWrittenAndWaitsForMyAnswer(vdir: Bool) throws {
        let desk = try MovedUpdateDesk(vdir: vdir)
        #expect(try desk.accept(MovedUpdateDesk.invitation).status == 0)
        let merged = try desk.merge(MovedUpdateDesk.moved)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.hasPrefix("updated   "), "\(merged.stdout)")
        #expect(merged.stdout.hasSuffix("  Design review  Mar 3, 2031, 11:30\u{202F}AM  (moved; needs your answer: 1 conflict)\ntimes in UTC\n"), "\(merged.stdout)")
        // The calendar's truth: the new time, my PARTSTAT waiting.
        let stored = try desk.stored()
        #expect(stored.contains("DTSTART:20310303T113000Z\r\n") && !stored.contains("DTSTART:20310303T100000Z"), "\(stored)")
        #expect(stored.contains("PARTSTAT=NEEDS-ACTION") && !stored.contains("PARTSTAT=ACCEPTED"), "\(stored)")
        // Unanswered again in the inbox, and what `inbox open` says of it.
        let inbox = try Binary.json(try desk.run(["inbox", "--json", "--state", desk.state]).stdout)
        let entry = try #require((inbox["invitations"] as? [[String: Any]])?.first)
        #expect(entry["answer"] is NSNull, "\(entry)")
        #expect(entry["state"] as? String == "updated", "\(entry)")
        let unanswered = try desk.run(["inbox", "--unanswered", "--state", desk.state])
        #expect(unanswered.stdout.contains("Design review"), "\(unanswered.stdout)")
        let opened = try desk.run(["inbox", "--state", desk.state, "open", "1"])
        let lines = opened.stdout.components(separatedBy: "\n")
        // DateText's local range: a thin space around the en dash, a narrow no-break space before AM/PM.
        #expect(lines.contains("  was: Mar 3, 2031, 10:00\u{2009}–\u{2009}11:00\u{202F}AM"), "\(opened.stdout)")
        #expect(lines.contains("  now: Mar 3, 2031, 11:30\u{202F}AM\u{2009}–\u{2009}12:30\u{202F}PM"), "\(opened.stdout)")
        #expect(lines.contains("  answer: coolcal accept 1 | coolcal decline 1"), "\(opened.stdout)")
        // Answering it again makes it answered.
        #expect(try desk.run(["accept", "--me", MovedUpdateDesk.me, "--state", desk.state, "1", desk.calendar]).status == 0)
        let after = try Binary.json(try desk.run(["inbox", "--json", "--state", desk.state]).stdout)
        #expect((after["invitations"] as? [[String: Any]])?.first?["answer"] as? String == "accepted", "\(after)")
        #expect(try desk.stored().contains("PARTSTAT=ACCEPTED"))
    }

    @Test(arguments: both) func processSaysTheMoveAndTheJSONDetail(vdir: Bool) throws {
        let desk = try MovedUpdateDesk(vdir: vdir)
        #expect(try desk.process(MovedUpdateDesk.invitation, policy: "accept-all").stdout == "added (accepted)\n")
        let moved = try desk.process(MovedUpdateDesk.moved)
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(moved.stdout == "updated (moved; needs your answer: 1 conflict)\n", "\(moved.stdout)\(moved.stderr)")
        #expect(try desk.stored().contains("PARTSTAT=NEEDS-ACTION"))
        // merge --json: outcome and rfc9671 `updated`, the same detail.
        let desk2 = try MovedUpdateDesk(vdir: vdir)
        #expect(try desk2.accept(MovedUpdateDesk.invitation).status == 0)
        let json = try Binary.json(try desk2.merge(MovedUpdateDesk.moved, json: true).stdout)
        let outcome = try #require((json["outcomes"] as? [[String: Any]])?.first)
        #expect(outcome["outcome"] as? String == "updated" && outcome["rfc9671"] as? String == "updated", "\(outcome)")
        #expect(outcome["detail"] as? String == "moved; needs your answer: 1 conflict", "\(outcome)")
    }

    @Test(arguments: both) func eachPolicyAnswersTheMove(vdir: Bool) throws {
        let declining = try MovedUpdateDesk(vdir: vdir)
        #expect(try declining.accept(MovedUpdateDesk.invitation).status == 0)
        let declined = try declining.process(MovedUpdateDesk.moved, policy: "decline-busy")
        #expect(declined.stdout == "updated (declined: 1 conflict)\n", "\(declined.stdout)\(declined.stderr)")
        let stored = try declining.stored()
        #expect(stored.contains("DTSTART:20310303T113000Z\r\n") && stored.contains("PARTSTAT=DECLINED"), "\(stored)")

        let accepting = try MovedUpdateDesk(vdir: vdir)
        #expect(try accepting.accept(MovedUpdateDesk.invitation).status == 0)
        let accepted = try accepting.process(MovedUpdateDesk.moved, policy: "accept-all")
        #expect(accepted.stdout == "updated (accepted)\n", "\(accepted.stdout)\(accepted.stderr)")
        #expect(try accepting.stored().contains("PARTSTAT=ACCEPTED"))
    }

    @Test func reportSaysWouldUpdateWhereBusy() throws {
        let desk = try MovedUpdateDesk(vdir: false)
        #expect(try desk.accept(MovedUpdateDesk.invitation).status == 0)
        let before = try desk.stored()
        let reported = try desk.merge(MovedUpdateDesk.moved, policy: "report")
        #expect(reported.stdout.hasPrefix("would update "), "\(reported.stdout)")
        #expect(try desk.stored() == before, "report writes nothing")
    }

    /// An update that moves no time (a new title) keeps my acceptance, busy or not.
    @Test(arguments: both) func anUpdateThatMovesNoTimeKeepsMyAnswer(vdir: Bool) throws {
        let desk = try MovedUpdateDesk(vdir: vdir)
        #expect(try desk.accept(MovedUpdateDesk.invitation).status == 0)
        let retitled = MovedUpdateDesk.mail(sequence: 1, start: "20310303T100000Z", end: "20310303T110000Z", title: "Design review (room 4)")
        let processed = try desk.process(retitled)
        #expect(processed.stdout == "updated (accepted)\n", "\(processed.stdout)\(processed.stderr)")
        let stored = try desk.stored()
        #expect(stored.contains("SUMMARY:Design review (room 4)") && stored.contains("PARTSTAT=ACCEPTED"), "\(stored)")
    }
}
