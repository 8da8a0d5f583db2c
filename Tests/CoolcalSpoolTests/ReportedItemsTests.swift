import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalState
@testable import CoolcalSpool

/// `merge --policy report` through `MergeSource` as `MergeRun` holds it: a mailbox (a
/// Maildir, an mbox: `MailboxSource`) remembers what a report run reported, so the next
/// report run lists it no more while a real run still does; a plain spool remembers
/// nothing and reports its files every time.
@Suite struct ReportedItemsTests {
    /// The sources to try, each with one invitation in it: a Maildir, an mbox, a plain spool.
    enum Kind: CaseIterable { case maildir, mbox, plain }

    /// A directory with a spool of `kind` holding one invitation, and the state beside it;
    /// returns what `MergeSources.open` is given.
    func spool(_ kind: Kind, in root: String) throws -> String {
        let message = MaildirStampTests.Box.invitation(1)
        switch kind {
        case .maildir:
            try Data(message.utf8).write(to: URL(fileURLWithPath: root + "/Maildir/new/" + MaildirStampTests.Box.name(1)))
            return root + "/Maildir"
        case .mbox:
            try Data(("From o@example.org Thu Jan  1 00:00:00 2026\n" + message).utf8).write(to: URL(fileURLWithPath: root + "/inbox.mbox"))
            return root + "/inbox.mbox"
        case .plain:
            let body = message.components(separatedBy: "\n\n").dropFirst().joined(separator: "\n\n")
            try FileManager.default.createDirectory(atPath: root + "/spool", withIntermediateDirectories: true)
            try Data(body.utf8).write(to: URL(fileURLWithPath: root + "/spool/1.ics"))
            return root + "/spool"
        }
    }

    /// One run's item names; a report run remembers them as reported.
    func run(_ path: String, state: String, report: Bool) throws -> [String] {
        let source = try MergeSources.open(path, mark: false, now: Date(), lockTimeout: 5, report: report) {
            try StateStore(directory: state)
        }
        defer { source.unlock() }
        let items = try source.items(floatingZone: TimeZone(identifier: "UTC") ?? .current, diagnostics: Diagnostics())
        if report {
            try source.remember(reported: items.map { MergeFinished(name: $0.name, failed: false, outcome: .free, note: "") })
        }
        return items.map(\.name)
    }

    @Test(arguments: Kind.allCases) func aReportRunIsRememberedByMailboxesOnly(kind: Kind) throws {
        let root = try RememberedMaildirTests.Box.temporary("coolcal-reported")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = try spool(kind, in: root)
        let state = root + "/state"
        #expect(try run(path, state: state, report: true).count == 1, "\(kind): the invitation is not listed")
        let again = try run(path, state: state, report: true)
        #expect(again.count == (kind == .plain ? 1 : 0), "\(kind): the second report run lists \(again)")
        #expect(try run(path, state: state, report: false).count == 1, "\(kind): a real run does not list what a report run saw")
    }
}
