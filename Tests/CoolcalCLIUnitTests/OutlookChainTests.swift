import Foundation
import Testing
@testable import CoolcalCLI

/// Issue #28, end to end through `merge` from a Maildir (in-process, the clock before the
/// meetings): Outlook's `cmp__test-07` chain (five versions of one meeting) with the newest
/// read first and the older ones arriving after it — each ignored, and the inbox keeps the
/// newest one's times (the corpus's own reading of that file, `expected.tsv`); and the
/// `cmp__test-17` chain (a weekly series, moved and cancelled instances, an older series
/// update sent a second before a newer override) in adverse orders — all in one run spread
/// over `new/` and `cur/`, and newest first one per run — each giving the instances the
/// chronological order (by DTSTAMP, one message per run) gives.
@Suite(.serialized) struct OutlookChainTests {
    static let me = "brechtel@med.uni-frankfurt.de"

    func corpusFile(_ name: String) throws -> Data? {
        guard let corpus = ArrivalOrderTests.corpus else { return nil }
        return try Data(contentsOf: corpus.appendingPathComponent(name))
    }

    func merge(_ b: ArrivalOrderTests.Box) -> MergeQuietTests.Result {
        b.merge(me: Self.me, ["--accept-from", "anyone"])
    }

    @Test func olderVersionsAfterTheNewestAreIgnored() throws {
        guard let newest = try corpusFile("cmp__test-07-3.eml") else {
            print("note: ../shared/corpora/mail-real is absent; the cmp__test-07 chain is not checked")
            return
        }
        let b = try ArrivalOrderTests().box()
        try b.put("cur", "3:2,S", newest)
        #expect(b.outcomes(merge(b)) == ["cur/3:2,S accepted"])
        let answered = b.mailed()
        #expect(answered.components(separatedBy: "--- end").count == 2, "one answer mailed: \(answered)")
        for n in [1, 2, 4, 5] { try b.put("new", "\(n)", try #require(try corpusFile("cmp__test-07-\(n).eml"))) }
        let later = merge(b)
        #expect(b.outcomes(later) == ["new/1 ignored", "new/5 ignored", "new/4 ignored", "new/2 ignored"], "\(later.out)")
        #expect(b.mailed() == answered, "nothing more is mailed for the older versions")
        let inbox = MergeQuietTests().run(["inbox", "--json", "--state", b.root + "/state"], [:], at: ArrivalOrderTests.t0)
        let entries = (try? JSONSerialization.jsonObject(with: Data(inbox.out.utf8))) as? [String: Any]
        let list = entries?["invitations"] as? [[String: Any]] ?? []
        #expect(list.count == 1)
        // expected.tsv: cmp__test-07-3.eml starts 2025-03-21T15:00:00Z.
        #expect(list.first?["start"] as? String == "2025-03-21T15:00:00Z", "\(inbox.out)")
    }

    static let chronological = [1, 3, 2, 4, 5, 7, 6, 0]

    func instances(_ b: ArrivalOrderTests.Box) -> [String] {
        let run = MergeQuietTests().run(["events", "--json", "--from", "2025-04-25T00:00:00Z", "--to", "2025-07-01T00:00:00Z", b.calendar],
                                        [:], at: ArrivalOrderTests.t0)
        let document = (try? JSONSerialization.jsonObject(with: Data(run.out.utf8))) as? [String: Any]
        return (document?["events"] as? [[String: Any]] ?? []).map {
            "\($0["start"] as? String ?? "") \($0["end"] as? String ?? "") \($0["status"] as? String ?? "")"
        }
    }

    @Test func theSeriesChainEndsTheSameInAdverseOrders() throws {
        guard try corpusFile("cmp__test-17-0.eml") != nil else {
            print("note: ../shared/corpora/mail-real is absent; the cmp__test-17 chain is not checked end to end")
            return
        }
        func file(_ n: Int) throws -> Data { try #require(try corpusFile("cmp__test-17-\(n).eml")) }
        // The chronological order, one message per run.
        let ordered = try ArrivalOrderTests().box()
        for n in Self.chronological {
            try ordered.put("new", "\(n)", try file(n))
            #expect(merge(ordered).status == 0)
        }
        let expected = instances(ordered)
        #expect(expected.count >= 5, "\(expected)")
        // All in one run: the newest read (cur/), the oldest unread (new/), names reversed.
        let oneRun = try ArrivalOrderTests().box()
        for (k, n) in Self.chronological.reversed().enumerated() {
            try oneRun.put(k < 4 ? "cur" : "new", "\(k)-\(n)" + (k < 4 ? ":2,S" : ""), try file(n))
        }
        #expect(merge(oneRun).status == 0)
        #expect(instances(oneRun) == expected)
        // Newest first, one message per run.
        let reversed = try ArrivalOrderTests().box()
        for n in Self.chronological.reversed() {
            try reversed.put("new", "\(n)", try file(n))
            #expect(merge(reversed).status == 0)
        }
        #expect(instances(reversed) == expected)
        // The newer override (May 9 moved to May 7, SEQUENCE 6) survives the series update
        // (SEQUENCE 5) sent a second before it: expected.tsv reads -17-6 as 2025-05-07T13:00:00Z.
        #expect(expected.contains { $0.hasPrefix("2025-05-07T13:00:00Z") }, "\(expected)")
        #expect(!expected.contains { $0.hasPrefix("2025-05-09T13:00:00Z") }, "\(expected)")
    }
}
