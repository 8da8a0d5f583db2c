import Foundation
import Testing

/// `coolcal process` in procmail (Debian's), with the recipe the man page gives: a filter
/// (`:0 fw`) adding the outcome header, and an `e` recipe turning coolcal's 75 into
/// procmail's, so the MTA delivers the message again later. Run as nobody. An invitation
/// is added and delivered with its header; with the calendar locked past the wait
/// procmail exits 75 and delivers nothing (the message is parked too); delivered again
/// once the lock is gone, it is added once and lands once.
@Suite(.serialized) struct ProcmailDeliveryTests {
    typealias T = OrganizerBindingTests

    /// The man page's recipe, with the binary's path.
    static func recipe(_ coolcal: String) -> String {
        """
        SHELL=/bin/sh
        DEFAULT=$HOME/Maildir/
        :0 fw
        | \(coolcal) process --pass-through
        :0 e
        {
          COOLCAL_STATUS=$?
          :0
          * COOLCAL_STATUS ?? ^75$
          {
            EXITCODE=75
            HOST
          }
        }

        """
    }

    @Test func anInvitationIsAddedAndALockedCalendarMakesTheMTARetry() throws {
        let agent = try MailDeliveryAgent(config: "me = \(T.me)\naccept-from = anyone\n")
        // The test's one addition: a short wait for the lock (procmail passes its variables on).
        let rc = agent.root + "/procmailrc"
        try Data(("COOLCAL_LOCK_TIMEOUT=0.5\n" + Self.recipe(Binary.path)).utf8).write(to: URL(fileURLWithPath: rc))
        chmod(rc, 0o644)
        func deliver(_ message: String) throws -> Int32 {
            try agent.run(["/usr/bin/procmail", "-m", "HOME=\(agent.home)", rc], environment: ["PATH": "/usr/bin:/bin"],
                          message: Data(message.utf8)).status
        }
        let first = T.mail(T.message(uid: "pm-1@example.org"), from: "Alice <alice@example.org>")
        #expect(try deliver(first) == 0)
        var delivered = Array(agent.delivered().values)
        #expect(delivered.count == 1 && delivered.first?.hasPrefix("X-Coolcal-Outcome: added (accepted)\nFrom: Alice") == true, "\(delivered)")
        #expect(try String(contentsOfFile: agent.calendar, encoding: .utf8).contains("UID:pm-1@example.org"))

        let lock = agent.home + "/.cal.ics.coolcal-lock"
        let fd = open(lock, O_RDONLY | O_CREAT, 0o644)
        #expect(fd >= 0 && flock(fd, LOCK_EX) == 0)
        let second = T.mail(T.message(start: "20310304T100000Z", uid: "pm-2@example.org"), from: "Alice <alice@example.org>")
        #expect(try deliver(second) == 75, "procmail did not pass coolcal's 75 on")
        #expect(agent.delivered().count == 1, "procmail delivered a message it should leave to the MTA")
        let parked = (try? FileManager.default.contentsOfDirectory(atPath: agent.home + "/.local/share/coolcal/parked/new")) ?? []
        #expect(parked.count == 1)
        flock(fd, LOCK_UN)
        close(fd)
        // The MTA's retry.
        #expect(try deliver(second) == 0)
        delivered = Array(agent.delivered().values)
        #expect(delivered.count == 2)
        #expect(delivered.filter { $0.contains("UID:pm-2@example.org") }.map { $0.hasPrefix("X-Coolcal-Outcome: added (accepted)\n") } == [true])
        let calendar = try String(contentsOfFile: agent.calendar, encoding: .utf8)
        #expect(calendar.components(separatedBy: "UID:pm-2@example.org").count == 2, "added once")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: agent.home + "/.local/share/coolcal/parked/new")) ?? []).isEmpty)
    }
}
