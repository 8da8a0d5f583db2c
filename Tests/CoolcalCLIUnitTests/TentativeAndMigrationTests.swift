import Foundation
import Testing
@testable import CoolcalState
@testable import CoolcalCLI
@testable import CoolcalTestSupport

/// `accept --tentative` against a real HTTP server that refuses it, and the state's
/// schema step 4 run on a state written by the schema before it.
@Suite(.serialized) struct TentativeAndMigrationTests {
    let answers = AnswersCommandTests()

    @Test func aRefusedTentativeLeavesAFailedOutboxEntry() throws {
        let f = try answers.files()
        let server = try TestHTTPServer(home: f.home.appendingPathComponent("server"))
        defer { server.stop() }
        try server.setMode("422")
        let env = ["COOLCAL_STATE": f.state, "COOLCAL_SERVER": server.url.absoluteString]
        let run = answers.run(["accept", "--tentative", f.invite, f.calendar], env)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "tentative: Family Reunion (id 12): added to \(f.calendar)\n")
        #expect(run.err.contains("1 answer was refused by the server; see 'coolcal outbox'"))
        let requests = try server.requests()
        #expect(requests.map { $0["path"] as? String } == ["/invitations/12/tentative"])
        #expect(answers.run(["outbox"], env).out.hasPrefix("failed  tentative 12  attempts 1  last: "))
        let responses = answers.run(["responses", "--json"], env).out
        #expect(responses.contains("\"answer\": \"tentative\"") && responses.contains("\"delivery\": \"failed\""))
        let calendar = String(decoding: try Data(contentsOf: URL(fileURLWithPath: f.calendar)), as: UTF8.self)
        #expect(calendar.contains("STATUS:TENTATIVE\r\n") && !calendar.contains("STATUS:CONFIRMED"))
        // Accepting for sure afterwards: a new answer, and only the status line changes.
        try server.setMode("200")
        #expect(answers.run(["accept", f.invite, f.calendar], env).out == "accepted: Family Reunion (id 12): updated in \(f.calendar)\n")
        let after = String(decoding: try Data(contentsOf: URL(fileURLWithPath: f.calendar)), as: UTF8.self)
        #expect(after == calendar.replacingOccurrences(of: "STATUS:TENTATIVE\r\n", with: "STATUS:CONFIRMED\r\n"))
        #expect(try server.requests().map { $0["path"] as? String } == ["/invitations/12/tentative", "/invitations/12/accept"])
    }

    @Test func stepFourKeepsEveryRowOfSchemaThree() throws {
        let dir = stateDirectory("migrate")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        do {
            let old = try SQLiteDatabase(path: dir + "/" + StateStore.fileName)
            for step in StateStore.migrations.prefix(3) { try old.execute(step) }
            try old.execute("""
                PRAGMA user_version = 3;
                INSERT INTO responses (key, invite_id, answer, comment, answered_at, start, "end", all_day, title)
                    VALUES ('k-accept', '12', 'accepted', NULL, 100, '2022-08-20T16:00:00Z', '2022-08-20T20:00:00Z', 0, 'Family Reunion');
                INSERT INTO outbox (idempotency_key, channel, method, invite_id, body, created_at)
                    VALUES ('k-accept', 'server', 'accept', '12', '{}', 100);
                INSERT INTO outbox (idempotency_key, channel, method, invite_id, body, created_at)
                    VALUES ('k-mail', 'mail', 'reply', '12', 'From: me', 101);
                INSERT INTO mail_replies (version, outbox_key, response_key, invite_id, queued_at)
                    VALUES ('v1', 'k-mail', 'k-accept', '12', 101);
                """)
        }
        let store = try StateStore(directory: dir)
        #expect(try store.database.prepare("PRAGMA user_version").row { $0.int(0) } == Int64(StateStore.migrations.count))
        let kept = try store.responses()
        #expect(kept.map(\.key) == ["k-accept"])
        #expect(kept.first?.mail == .queued, "the mail reply still points at its answer")
        #expect(try store.outbox.entries().map(\.method) == ["accept", "reply"])
        // What step 4 adds: the tentative answer, queued as such, and the written events.
        let invite = stateInvite(.number(12), "Family Reunion")
        let tentative = try store.recordAnswer(.tentative, for: invite, comment: nil, at: Date(timeIntervalSince1970: 200),
                                               queueFor: URL(string: "http://127.0.0.1:9"))
        #expect(tentative.isNew && tentative.queued)
        #expect(try store.outbox.entries().map(\.method) == ["accept", "reply", "tentative"])
        #expect(try store.inbox.answers() == ["12": .tentative])
        let written = WrittenEvent(inviteID: "12", calendar: "/cal/work.ics", uid: "coolcal-invite-12@h", hash: "0123456789abcdef",
                                   answer: .tentative, writtenAt: Date(timeIntervalSince1970: 200))
        try store.recordWritten(written)
        #expect(try store.written(inviteID: "12") == [written])
        try store.forgetWritten(inviteID: "12", calendar: "/cal/work.ics")
        #expect(try store.written(inviteID: "12").isEmpty)
    }
}
