import Foundation
import Testing
@testable import CLITests

/// Issue #45, as maildrop runs coolcal (the man page's `xfilter` recipe, as nobody): a
/// fault a person fixes — the calendar read-only — is exit 0, so maildrop delivers the
/// mail with its outcome header (a 75 would defer the whole mail, hidden from the user
/// until it bounced) and the message is parked; once the mode is fixed, the next
/// delivery answers it, once.
@Suite(.serialized) struct MaildropFaultTests {
    typealias T = OrganizerBindingTests

    @Test func aReadOnlyCalendarDeliversTheMailAndParksTheMessage() throws {
        guard geteuid() == 0 else { print("skipped: needs root to run maildrop as nobody"); return }
        let agent = try MailDeliveryAgent(config: "me = \(T.me)\naccept-from = anyone\n")
        let rc = agent.root + "/rc"
        let text = "SHELL=\"/bin/sh\"\nHOME=\"\(agent.home)\"\n" + RedeliveryTests.maildrop(Binary.path)
        try Data(text.utf8).write(to: URL(fileURLWithPath: rc))
        chown(rc, MailDeliveryAgent.nobody, MailDeliveryAgent.nobody)
        chmod(rc, 0o600)
        for folder in ["", "/cur", "/new", "/tmp"] {
            try FileManager.default.createDirectory(atPath: agent.maildir + folder, withIntermediateDirectories: true)
            chown(agent.maildir + folder, MailDeliveryAgent.nobody, MailDeliveryAgent.nobody)
        }
        func deliver(_ message: String) throws -> Int32 {
            try agent.run(["/usr/bin/maildrop", rc], environment: ["PATH": "/usr/bin:/bin"], message: Data(message.utf8)).status
        }
        chmod(agent.calendar, 0o444)
        let first = T.mail(T.message(uid: "ro-1@example.org"), from: "Alice <alice@example.org>")
        #expect(try deliver(first) == 0, "maildrop did not deliver the mail")
        let delivered = Array(agent.delivered().values)
        #expect(delivered.count == 1)
        #expect(delivered.first.map { $0.hasPrefix("X-Coolcal-Outcome: error (") && $0.contains("is read-only")
                && $0.contains("; parked, answered once fixed)\nFrom: Alice") } == true, "\(delivered.first?.prefix(300) ?? "")")
        let parkedDirectory = agent.home + "/.local/share/coolcal/parked/new"
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: parkedDirectory)) ?? []).count == 1, "not parked")
        chmod(agent.calendar, 0o644)
        let second = T.mail(T.message(start: "20310304T100000Z", uid: "ro-2@example.org"), from: "Alice <alice@example.org>")
        #expect(try deliver(second) == 0)
        let calendar = try String(contentsOfFile: agent.calendar, encoding: .utf8)
        #expect(calendar.components(separatedBy: "UID:ro-1@example.org").count == 2, "the parked message was not answered once")
        #expect(calendar.components(separatedBy: "UID:ro-2@example.org").count == 2)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: parkedDirectory)) ?? []).isEmpty, "the parked copy stayed")
    }
}
