import Foundation
import Testing
@testable import CoolcalState

/// `coolcal known` (issue #43) and the upgrade that forgets whom a decline made known.
@Suite struct KnownListTests {
    typealias T = OrganizerBindingTests
    typealias S = SenderTrustTests

    func known(_ b: HeldMergeTests.Box, _ extra: [String] = [], env: [String: String] = [:]) throws -> Run {
        try Binary.run(["known", "--me", T.me, "--state", b.root + "/state"] + extra, env: env)
    }

    func entries(_ run: Run) throws -> [[String: String]] {
        (try Binary.json(run.stdout)["known"] as? [[String: Any]] ?? []).map { $0.compactMapValues { $0 as? String } }
    }

    /// Each known sender once per source, by address: my calendar's (Alice's review I
    /// accepted, Dave on my own event), an invitation accepted by hand (Bob: answered, and
    /// now in my calendar too), the config's accept-from lines. Expected texts by hand.
    @Test func knownListsEachSenderWithWhereItComesFrom() throws {
        let b = try HeldMergeTests().box()
        let mine = "BEGIN:VEVENT\r\nUID:mine@example.com\r\nDTSTAMP:20200101T090000Z\r\nDTSTART:20200505T100000Z\r\nDURATION:PT1H\r\n"
            + "SUMMARY:My planning\r\nORGANIZER:mailto:\(T.me)\r\nATTENDEE:mailto:Dave@Example.org\r\nEND:VEVENT\r\nEND:VCALENDAR"
        try Data(HeldMergeTests.calendarKnowingAlice.replacingOccurrences(of: "END:VCALENDAR", with: mine).utf8)
            .write(to: URL(fileURLWithPath: b.calendar))
        let env = ["XDG_CONFIG_HOME": b.root + "/xdg"]
        try FileManager.default.createDirectory(atPath: b.root + "/xdg/coolcal", withIntermediateDirectories: true)
        try Data("accept-from = known\naccept-from = zed@partner.example\naccept-from = @corp.example\n".utf8)
            .write(to: URL(fileURLWithPath: b.root + "/xdg/coolcal/config"))

        let empty = try known(b, env: env)
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.stdout == "@corp.example        accept-from\nzed@partner.example  accept-from\n", "\(empty.stdout)")
        #expect(try known(b).stdout == "Nobody is known: merge holds every new invitation unless accept-from admits it\n")
        #expect(!FileManager.default.fileExists(atPath: b.root + "/state"), "listing created the state")
        let missing = try known(b, [b.root + "/nowhere.ics"])
        #expect(missing.status == 66 && missing.stdout.isEmpty, "\(missing.stdout)\(missing.stderr)")
        #expect(missing.stderr == "coolcal: error: \(b.root)/nowhere.ics: no such calendar (or not readable)\n")

        try b.deliver("1.casino", S.mail(S.stranger(), from: "Bob <bob@stranger.example>"))
        #expect(try b.outcomes(try b.merge()).map { $0["held"] as? String } == ["unknown sender"])
        let accept = try Binary.run(["accept", "--me", T.me, "--state", b.root + "/state", "1", b.calendar])
        #expect(accept.status == 0, "\(accept.stdout)\(accept.stderr)")

        let text = try known(b, [b.calendar], env: env)
        #expect(text.stdout == """
            @corp.example         accept-from
            alice@example.org     calendar
            bob@stranger.example  calendar
            bob@stranger.example  answered
            dave@example.org      organised
            zed@partner.example   accept-from

            """, "\(text.stdout)\(text.stderr)")
        let json = try known(b, ["--json", b.calendar], env: env)
        #expect(try entries(json) == [
            ["address": "@corp.example", "source": "accept-from", "detail": "accept-from = @corp.example"],
            ["address": "alice@example.org", "source": "calendar", "detail": "Review 2020 (cal.ics)"],
            ["address": "bob@stranger.example", "source": "calendar", "detail": "Win big (cal.ics)"],
            ["address": "bob@stranger.example", "source": "answered", "detail": "accepted: Win big"],
            ["address": "dave@example.org", "source": "organised", "detail": "My planning (cal.ics)"],
            ["address": "zed@partner.example", "source": "accept-from", "detail": "accept-from = zed@partner.example"],
        ], "\(json.stdout)")
        #expect(json.stdout.hasPrefix("{\n  \"known\": [\n    {\n      \"address\": \"@corp.example\",\n      \"source\": \"accept-from\",\n"),
                "keys in the documented order: \(json.stdout)")
    }

    /// A state written before issue #43: Bob's held spam declined by hand made him known.
    /// The upgrade drops that row (and one a file's decline made), keeps the ones an
    /// accept made, and Bob's next invitation is held again.
    @Test func anUpgradeForgetsWhomOnlyADeclineMadeKnown() throws {
        let b = try HeldMergeTests().box()
        let directory = b.root + "/state"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let step = try #require(StateSchema.steps.firstIndex(of: KnownMigration.step))
        do {
            let old = try SQLiteDatabase(path: directory + "/" + StateStore.fileName)
            for sql in StateSchema.steps.prefix(step) { try old.execute(sql) }
            let times = "'2031-03-03T10:00:00Z', '2031-03-03T11:00:00Z', 0"
            // What the old recordAnswer left: every answer but a comment remembered its organizer.
            try old.execute("""
                PRAGMA user_version = \(step);
                INSERT INTO invitations (id, title, start, "end", all_day, payload, received_at, read, organizer, kind) VALUES
                    ('casino@spam.example', 'Win big', \(times), '', 100, 1, 'bob@stranger.example', 'invitation'),
                    ('lunch@partner.example', 'Lunch', \(times), '', 200, 1, 'mailto:Paul@Partner.example', 'invitation');
                INSERT INTO responses (key, invite_id, answer, answered_at, start, "end", all_day, title) VALUES
                    ('k1', 'casino@spam.example', 'declined', 100, \(times), 'Win big'),
                    ('k2', 'lunch@partner.example', 'accepted', 200, \(times), 'Lunch'),
                    ('k3', 'webinar@files.example', 'declined', 300, \(times), 'Webinar'),
                    ('k4', 'board@files.example', 'tentative', 400, \(times), 'Board');
                INSERT INTO known_senders (address, since) VALUES
                    ('bob@stranger.example', 100), ('paul@partner.example', 200), ('ann@files.example', 300), ('fay@files.example', 400);
                """)
        }
        let listed = try known(b, ["--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(try entries(listed) == [
            ["address": "fay@files.example", "source": "answered", "detail": "answered before this coolcal kept the answer"],
            ["address": "paul@partner.example", "source": "answered", "detail": "accepted: Lunch"],
        ], "\(listed.stdout)")

        for (i, sender) in ["bob@stranger.example", "ann@files.example", "paul@partner.example", "fay@files.example"].enumerated() {
            let invite = T.message(organizer: sender, start: "203104\(String(format: "%02d", i + 1))T100000Z", summary: "Next", uid: "next-\(i)@test")
            try b.deliver("\(i).next", S.mail(invite, from: "<\(sender)>"))
        }
        let run = try b.merge()
        #expect(try b.outcomes(run).map { ($0["outcome"] as? String ?? "") + "/" + ($0["held"] as? String ?? "-") }
                == ["held/unknown sender", "held/unknown sender", "accepted/-", "accepted/-"], "\(run.stdout)\(run.stderr)")
        #expect(!b.mailed().contains("stranger.example") && !b.mailed().contains("ann@files.example"))
    }
}
