import Foundation
import Testing
@testable import CoolcalSpool

/// A plain spool's `finish` of a whole `merge` run at once: notes first, then moves,
/// each name in `done/` and `failed/` given once, so that no invitation and no note
/// overwrites another.
@Suite struct SpoolTests {
    @Test func aBatchGivesEveryInvitationItsOwnName() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-spool-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/done", withIntermediateDirectories: true)
        // An invitation `a` answered by an earlier run; now `a` again, `a.2` (the name the
        // new `a` moves to), `a.outcome` (the name of a note) and `b`.
        try Data("earlier a".utf8).write(to: URL(fileURLWithPath: dir + "/done/a"))
        for name in ["a", "a.2", "a.outcome", "b"] { try Data("invitation \(name)".utf8).write(to: URL(fileURLWithPath: dir + "/" + name)) }
        let spool = Spool(directory: dir)
        try spool.finish([
            ("a", false, "note a"), ("a.2", false, "note a.2"), ("a.outcome", true, "reason a.outcome"), ("b", false, "note b"),
        ])
        func read(_ path: String) -> String? { FileManager.default.contents(atPath: dir + "/" + path).map { String(decoding: $0, as: UTF8.self) } }
        #expect(try spool.pending().isEmpty)
        #expect(read("done/a") == "earlier a")
        #expect(read("done/a.2") == "invitation a" && read("done/a.2.outcome") == "note a")
        #expect(read("done/a.2.2") == "invitation a.2" && read("done/a.2.2.outcome") == "note a.2")
        #expect(read("failed/a.outcome") == "invitation a.outcome" && read("failed/a.outcome.reason") == "reason a.outcome")
        #expect(read("done/b") == "invitation b" && read("done/b.outcome") == "note b")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/done").count == 7)
    }
}
