import Foundation
import Testing
@testable import CoolcalCLI

/// Issue #28: every message of the real-mail corpus (`../shared/corpora/mail-real`, read in
/// place; skipped with a note when absent) gets the outcome its kind should, each through
/// `merge` from a Maildir of its own, the clock before every meeting: an invitation is
/// accepted (`--policy accept-all`, `--accept-from anyone`, `--me` the mail's To and Cc)
/// or held (not addressed to you; mailed by someone else than its organizer); a cancellation cancels (nothing stored: nothing to
/// cancel) or is held; a reply to my event (stored with its sender as an attendee) updates
/// it, changes nothing or is held; a counter is proposed or held; a published event is
/// held; a message without an invitation is skipped; one whose times are bad fails. Its
/// kind comes from the corpus's own independent reading (`expected.tsv`).
@Suite struct RealMailKindsTests {
    /// 2011-01-01: before the corpus's first meeting.
    static let t0 = Date(timeIntervalSince1970: 1_293_840_000)
    static let organizer = "organizer@coolcal.test"

    struct Row {
        let file: String
        let method: String
        let uid: String
        let start: String
    }

    static func rows(_ corpus: URL) throws -> [Row] {
        let text = try String(contentsOf: corpus.appendingPathComponent("expected.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return f.count >= 6 ? Row(file: f[0], method: f[1], uid: f[2], start: f[4]) : nil
        }
    }

    /// The addresses of a header (To, Cc, From) of the raw message, lower-cased.
    static func addresses(_ raw: String, header: String) -> [String] {
        var found: [String] = []
        var inHeader = false
        // ("\r\n" is one Character: lines are split on the text with CRLF made LF.)
        for line in raw.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false).prefix(400) {
            let l = String(line)
            if l.isEmpty { break }
            if l.first == " " || l.first == "\t" {
                if !inHeader { continue }
            } else {
                inHeader = l.lowercased().hasPrefix(header.lowercased() + ":")
                if !inHeader { continue }
            }
            for word in l.split(whereSeparator: { " ,;<>\"()".contains($0) }) where word.contains("@") && !word.hasSuffix(":") {
                found.append(word.lowercased())
            }
        }
        return found
    }

    /// The holds of issue #43 a genuine message can meet here: `no sender` when it has no
    /// From; `you organise this event` when its From is among the test's `me` (the mail's
    /// To and Cc: an organizer who sent the invitation to themselves too).
    static func identityHolds(_ row: Row, _ corpus: URL) throws -> Set<String> {
        let text = String(decoding: try Data(contentsOf: corpus.appendingPathComponent(row.file)), as: UTF8.self)
        let from = addresses(text, header: "From")
        if from.isEmpty { return ["held: no sender"] }
        let me = Set(addresses(text, header: "To") + addresses(text, header: "Cc"))
        return from.contains(where: me.contains) ? ["held: you organise this event"] : []
    }

    func outcome(_ row: Row, _ corpus: URL) throws -> (outcome: String, held: String?, detail: String)? {
        let b = try ArrivalOrderTests().box()
        let raw = try Data(contentsOf: corpus.appendingPathComponent(row.file))
        let text = String(decoding: raw, as: UTF8.self)
        var me = Self.addresses(text, header: "To") + Self.addresses(text, header: "Cc")
        if ["REPLY", "COUNTER"].contains(row.method) {
            // My event, with the sender as its attendee.
            me = [Self.organizer]
            let attendee = Self.addresses(text, header: "From").first ?? "nobody@example.org"
            let event = [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Mine//EN", "BEGIN:VEVENT", "UID:\(row.uid)",
                "DTSTAMP:20100101T000000Z", "SEQUENCE:0", "DTSTART:20300101T100000Z", "DURATION:PT1H", "SUMMARY:Mine",
                "ORGANIZER:mailto:\(Self.organizer)", "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:\(attendee)", "END:VEVENT", "END:VCALENDAR", "",
            ].joined(separator: "\r\n")
            try Data(event.utf8).write(to: URL(fileURLWithPath: b.calendar))
        }
        try b.put("new", "1.eml", raw)
        let run = MergeQuietTests().run(["merge", "--json", "--policy", "accept-all", "--accept-from", "anyone", "--state", b.root + "/state",
                                         "--spool", b.maildir] + me.flatMap { ["--me", $0] } + (me.isEmpty ? ["--me", "nobody@coolcal.test"] : [])
                                        + [b.calendar], [:], at: Self.t0)
        let document = (try? JSONSerialization.jsonObject(with: Data(run.out.utf8))) as? [String: Any]
        guard let first = (document?["outcomes"] as? [[String: Any]])?.first else { return nil }
        return (first["outcome"] as? String ?? "?", first["held"] as? String,
                (first["detail"] as? String) ?? (first["error"] as? String) ?? "")
    }

    @Test func eachKindGetsItsOutcome() throws {
        guard let corpus = ArrivalOrderTests.corpus else {
            print("note: ../shared/corpora/mail-real is absent; the real mails' outcomes by kind are not checked")
            return
        }
        var tally: [String: [String: Int]] = [:]
        for row in try Self.rows(corpus) {
            let got = try outcome(row, corpus)
            let said = got.map { $0.outcome + ($0.held.map { ": " + $0 } ?? "") } ?? "skipped"
            tally[row.method, default: [:]][said, default: 0] += 1
            let allowed: Set<String>
            switch row.method {
            case _ where row.start == "invalid": allowed = ["failed", "held: published"]
            case "REQUEST": allowed = Set(["accepted", "held: not addressed to you", "held: not from the organizer"])
                .union(try Self.identityHolds(row, corpus))
            case "CANCEL": allowed = ["cancelled", "held: not addressed to you", "held: not from the organizer"]
            case "REPLY": allowed = ["updated", "no action", "held: not from the organizer", "held: uninvited attendee"]
            case "COUNTER": allowed = ["proposed", "held: not from the organizer", "held: uninvited attendee"]
            case "PUBLISH", "(none)": allowed = ["held: published"]
            default: allowed = ["skipped"]
            }
            // coolcal answers events: a task's invitation (VTODO) is no event to accept.
            let task = said == "failed" && (got?.detail ?? "").hasSuffix("no VEVENT in the invitation")
            #expect(allowed.contains(said) || task, "\(row.file) (\(row.method)): \(said) \(got?.detail ?? "")")
        }
        for (method, outcomes) in tally.sorted(by: { $0.key < $1.key }) {
            print("mail-real \(method): " + outcomes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
        }
        // The happy paths are taken at all (the corpus's To is often not an attendee, and
        // its replies' senders not the attendee they answer for).
        #expect((tally["REQUEST"]?["accepted"] ?? 0) > 0, "\(tally["REQUEST"] ?? [:])")
        #expect((tally["REPLY"]?["updated"] ?? 0) > 0, "\(tally["REPLY"] ?? [:])")
    }
}
