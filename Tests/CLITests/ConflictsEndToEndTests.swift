import Foundation
import Testing

/// `coolcal conflicts` on samples/, whose expected classification is worked out by
/// hand in samples/README.md.
@Suite struct ConflictsEndToEndTests {
    let calendars = [Binary.sample("work.ics"), Binary.sample("family.ics"), Binary.sample("vdir")]

    @Test func samplesAsText() throws {
        let run = try Binary.run(["conflicts", "--me", "me@example.com", Binary.sample("invite.json")] + calendars)
        #expect(run.status == 1)
        #expect(run.stderr == "")
        // ICU puts narrow and thin spaces in ranges; compare with plain spaces.
        let plain = run.stdout.replacingOccurrences(of: "\u{202F}", with: " ").replacingOccurrences(of: "\u{2009}", with: " ")
        let lines = plain.split(separator: "\n").map(String.init)
        #expect(lines.first == "Family Reunion")
        #expect(lines.contains("Busy: 4 conflicts"))
        #expect(lines.contains("  • Aug 20, 2022, 1:30 – 2:30 PM  Breakfast with Sam  [family.ics]  within 2 h before"))
        #expect(lines.contains("  • Aug 20, 2022, 5:30 – 6:00 PM  On-call handover (moved)  [work.ics]  overlaps"))
        #expect(lines.contains("Ignored: 4 events"))
        #expect(lines.contains { $0.contains("Book club") && $0.hasSuffix("(declined)") })
        #expect(!run.stdout.contains("\u{1B}["), "no escape codes when piped")
    }

    @Test func samplesAsJSON() throws {
        let run = try Binary.run(["conflicts", "--json", "--me", "me@example.com", Binary.sample("invite.json")] + calendars)
        #expect(run.status == 1)
        let doc = try Binary.json(run.stdout)
        let invite = try #require(doc["invite"] as? [String: Any])
        #expect(invite["id"] as? Int == 12)
        #expect(invite["title"] as? String == "Family Reunion")
        #expect(invite["start"] as? String == "2022-08-20T16:00:00Z")
        #expect(invite["end"] as? String == "2022-08-20T20:00:00Z")
        #expect(invite["all_day"] as? Bool == false)
        let window = try #require(doc["window"] as? [String: String])
        #expect(window == ["start": "2022-08-20T14:00:00Z", "end": "2022-08-20T22:00:00Z"])
        let conflicts = try #require(doc["conflicts"] as? [[String: Any]])
        #expect(conflicts.map { "\($0["summary"] as? String ?? ""):\($0["overlaps_invite"] as? Bool ?? false)" } == [
            "Breakfast with Sam:false", "On-call handover (moved):true", "Team offsite planning:false", "Car service:false",
        ])
        let moved = conflicts[1]
        #expect(moved["recurrence_id"] as? String == "2022-08-20T16:00:00Z")
        #expect(moved["start"] as? String == "2022-08-20T17:30:00Z")
        #expect(moved["calendar"] as? String == "work.ics")
        #expect(conflicts[3]["calendar"] as? String == "vdir")
        let ignored = try #require(doc["ignored"] as? [[String: Any]])
        #expect(ignored.map { "\($0["summary"] as? String ?? ""):\($0["reason"] as? String ?? "")" } == [
            "Grandma's birthday:transparent", "Focus time (transparent):transparent",
            "Cancelled sync:cancelled", "Book club:declined",
        ])
        let birthday = ignored[0]
        #expect(birthday["start"] as? String == "2022-08-20")
        #expect(birthday["end"] as? String == "2022-08-21")
        #expect(birthday["all_day"] as? Bool == true)
        #expect(doc["free"] as? Bool == false)
    }

    @Test func withoutMeTheDeclinedEventIsBusy() throws {
        let run = try Binary.run(["conflicts", "--json", Binary.sample("invite.json")] + calendars)
        let conflicts = try #require(try Binary.json(run.stdout)["conflicts"] as? [[String: Any]])
        #expect(conflicts.count == 5)
        #expect(conflicts.contains { $0["summary"] as? String == "Book club" && $0["overlaps_invite"] as? Bool == true })
    }

    @Test func meFromTheConfigFile() throws {
        let home = try Binary.configHome("# mine\nme = mailto:ME@example.com\n")
        let run = try Binary.run(["conflicts", "--json", Binary.sample("invite.json")] + calendars,
                                 env: ["XDG_CONFIG_HOME": home])
        let conflicts = try #require(try Binary.json(run.stdout)["conflicts"] as? [[String: Any]])
        #expect(conflicts.count == 4)
    }

    @Test func freeInvitationExitsZero() throws {
        let run = try Binary.run(["conflicts", "--json", Binary.sample("invite-free.json")] + calendars)
        #expect(run.status == 0)
        #expect(try Binary.json(run.stdout)["free"] as? Bool == true)
        let quiet = try Binary.run(["conflicts", "-q", Binary.sample("invite.json")] + calendars)
        #expect(quiet.status == 1)
        #expect(quiet.stdout == "")
    }

    @Test func bufferZeroLeavesOnlyOverlaps() throws {
        let run = try Binary.run(["conflicts", "--json", "--buffer", "0", "--me", "me@example.com",
                                  Binary.sample("invite.json")] + calendars)
        let conflicts = try #require(try Binary.json(run.stdout)["conflicts"] as? [[String: Any]])
        #expect(conflicts.map { $0["summary"] as? String } == ["On-call handover (moved)"])
    }

    @Test func invitationFromStdin() throws {
        let payload = try String(contentsOfFile: Binary.sample("invite.json"), encoding: .utf8)
        let run = try Binary.run(["conflicts", "--json", "-"] + calendars, stdin: payload)
        #expect(run.status == 1)
        #expect((try Binary.json(run.stdout)["invite"] as? [String: Any])?["id"] as? Int == 12)
    }

    @Test func iTIPInvitationSample() throws {
        let run = try Binary.run(["conflicts", "--json", Binary.sample("invite.ics")] + calendars)
        #expect(run.status == 0)
        let invite = try #require(try Binary.json(run.stdout)["invite"] as? [String: Any])
        #expect(invite["start"] as? String == "2022-08-22T08:00:00Z")
        #expect(invite["title"] as? String == "Project kickoff")
    }

    @Test func colourOnlyWhenAskedOrOnATerminal() throws {
        let always = try Binary.run(["conflicts", "--color=always", Binary.sample("invite.json")] + calendars)
        #expect(always.stdout.contains("\u{1B}[38;2;30;144;255mwork.ics\u{1B}[0m"))
        let never = try Binary.run(["conflicts", "--color", "never", Binary.sample("invite.json")] + calendars,
                                   env: ["NO_COLOR": ""])
        #expect(!never.stdout.contains("\u{1B}["))
    }

    @Test func calendarsAreNeverModified() throws {
        let paths = ["work.ics", "family.ics", "vdir"].flatMap { name -> [String] in
            let p = Binary.sample(name)
            guard let items = try? FileManager.default.contentsOfDirectory(atPath: p) else { return [p] }
            return items.map { p + "/" + $0 }
        }
        let before = try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        _ = try Binary.run(["conflicts", Binary.sample("invite.json")] + calendars)
        let after = try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(before == after)
    }
}
