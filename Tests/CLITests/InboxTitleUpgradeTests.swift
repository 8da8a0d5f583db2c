import Foundation
import Testing
@testable import CoolcalState

/// A state written before issue 47 (inbox titles as data), with the English titles the
/// old `merge` stored for replies and counter-proposals: after the upgrade, `inbox`,
/// `inbox open` and `inbox --json` say every title as the old coolcal did.
@Suite struct InboxTitleUpgradeTests {
    /// (title as stored by the old code, its kind, its organizer column).
    static let rows: [(String, String, String)] = [
        ("bob@example.org accepted Team sync", "reply", "bob@example.org"),
        ("bob@example.org delegated Team sync to dave@example.org", "reply", "bob@example.org"),
        ("carol@example.org answered (needs-action) Review", "reply", "carol@example.org"),
        ("bob@example.org proposes a new time for Team sync", "counter", "bob@example.org"),
        ("someone proposes a new time for Lunch", "counter", ""),
        ("Family Reunion", "invitation", "olga@example.com"),
    ]

    func oldState() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-titles-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let step = try #require(StateSchema.steps.firstIndex(of: TitleMigration.step))
        let old = try SQLiteDatabase(path: directory + "/" + StateStore.fileName)
        for sql in StateSchema.steps.prefix(step) { try old.execute(sql) }
        try old.execute("PRAGMA user_version = \(step)")
        for (n, row) in Self.rows.enumerated() {
            try old.prepare("""
                INSERT INTO invitations (id, title, start, "end", all_day, payload, received_at, read, organizer, kind)
                VALUES (?1, ?2, '2031-03-03T10:00:00Z', '2031-03-03T11:00:00Z', 0, '', ?3, 1, ?4, ?5)
                """).run([.text("entry-\(n)"), .text(row.0), .real(Double(1_900_000_000 + n)), .text(row.2), .text(row.1)])
        }
        return directory
    }

    @Test func everyTitleSaidAsBefore() throws {
        let state = try oldState()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let json = try Binary.run(["inbox", "--json", "--state", state])
        #expect(json.status == 0, "\(json.stderr)")
        let entries = try Binary.json(json.stdout)["invitations"] as? [[String: Any]] ?? []
        // Newest first.
        #expect(entries.compactMap { $0["title"] as? String } == Self.rows.reversed().map(\.0), "\(json.stdout)")
        #expect(entries.compactMap { $0["kind"] as? String } == Self.rows.reversed().map(\.1), "\(json.stdout)")
        let text = try Binary.run(["inbox", "--state", state])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        for (n, row) in Self.rows.enumerated() {
            #expect(lines.contains { $0.hasPrefix("\(n + 1) ") && $0.contains(" \(row.0)  ") }, "\(row.0) in \(text.stdout)")
            let open = try Binary.run(["inbox", "open", String(n + 1), "--state", state])
            #expect(open.stdout.hasPrefix(row.0 + "\n"), "\(open.stdout)\(open.stderr)")
        }
    }
}
