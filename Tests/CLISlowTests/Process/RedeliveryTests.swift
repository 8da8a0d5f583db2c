import Foundation
import Testing
@testable import CLITests

/// `coolcal process` in procmail and maildrop (Debian's), with the recipes the man page
/// gives: a filter adding the outcome header, and coolcal's 75 passed on as the agent's
/// own, so the MTA delivers the message again later. Run as nobody. An invitation is
/// added and delivered with its header; with the calendar locked past the wait the agent
/// exits 75 and delivers nothing (the message is parked too); delivered again once the
/// lock is gone, it is added once and lands once.
@Suite(.serialized) struct RedeliveryTests {
    typealias T = OrganizerBindingTests

    /// The man page's procmail recipe (~/.procmailrc), with the binary's path.
    static func procmail(_ coolcal: String) -> String {
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

    /// The man page's maildrop recipe (~/.mailfilter), with the binary's path.
    static func maildrop(_ coolcal: String) -> String {
        """
        exception {
          xfilter "\(coolcal) process --pass-through"
        }
        if ($RETURNCODE == 75)
        {
          EXITCODE=75
          exit
        }
        to "$HOME/Maildir/"

        """
    }

    @Test(arguments: ["procmail", "maildrop"])
    func anInvitationIsAddedAndALockedCalendarMakesTheMTARetry(_ name: String) throws {
        let agent = try MailDeliveryAgent(config: "me = \(T.me)\naccept-from = anyone\n")
        let rc = agent.root + "/rc"
        // The test's additions: a short wait for the lock (the agents pass their variables
        // on), and for maildrop the home (it takes nobody's from /etc/passwd).
        let text = name == "procmail" ? "COOLCAL_LOCK_TIMEOUT=0.5\n" + Self.procmail(Binary.path)
            : "SHELL=\"/bin/sh\"\nHOME=\"\(agent.home)\"\nCOOLCAL_LOCK_TIMEOUT=\"0.5\"\n" + Self.maildrop(Binary.path)
        try Data(text.utf8).write(to: URL(fileURLWithPath: rc))
        // maildrop reads only a file of the user's own, not writable by others.
        chown(rc, MailDeliveryAgent.nobody, MailDeliveryAgent.nobody)
        chmod(rc, 0o600)
        for folder in ["", "/cur", "/new", "/tmp"] {
            try FileManager.default.createDirectory(atPath: agent.maildir + folder, withIntermediateDirectories: true)
            chown(agent.maildir + folder, MailDeliveryAgent.nobody, MailDeliveryAgent.nobody)
        }
        let argv = name == "procmail" ? ["/usr/bin/procmail", "-m", "HOME=\(agent.home)", rc] : ["/usr/bin/maildrop", rc]
        func deliver(_ message: String) throws -> Int32 {
            try agent.run(argv, environment: ["PATH": "/usr/bin:/bin"], message: Data(message.utf8)).status
        }
        let first = T.mail(T.message(uid: "md-1@example.org"), from: "Alice <alice@example.org>")
        #expect(try deliver(first) == 0)
        var delivered = Array(agent.delivered().values)
        #expect(delivered.count == 1 && delivered.first?.hasPrefix("X-Coolcal-Outcome: added (accepted)\nFrom: Alice") == true, "\(delivered)")
        #expect(try String(contentsOfFile: agent.calendar, encoding: .utf8).contains("UID:md-1@example.org"))

        let lock = agent.home + "/.cal.ics.coolcal-lock"
        let fd = open(lock, O_RDONLY | O_CREAT, 0o644)
        #expect(fd >= 0 && flock(fd, LOCK_EX) == 0)
        let second = T.mail(T.message(start: "20310304T100000Z", uid: "md-2@example.org"), from: "Alice <alice@example.org>")
        #expect(try deliver(second) == 75, "\(name) did not pass coolcal's 75 on")
        #expect(agent.delivered().count == 1, "\(name) delivered a message it should leave to the MTA")
        let parked = (try? FileManager.default.contentsOfDirectory(atPath: agent.home + "/.local/share/coolcal/parked/new")) ?? []
        #expect(parked.count == 1)
        // Redelivered while the lock still holds (issue #45): parked under its identity, so still one copy
        // (a second later: a name of the same second would be the same whatever the identity).
        usleep(1_100_000)
        #expect(try deliver(second) == 75)
        let still = (try? FileManager.default.contentsOfDirectory(atPath: agent.home + "/.local/share/coolcal/parked/new")) ?? []
        #expect(still == parked, "parked twice: \(still)")
        flock(fd, LOCK_UN)
        close(fd)
        // The MTA's retry.
        #expect(try deliver(second) == 0)
        delivered = Array(agent.delivered().values)
        #expect(delivered.count == 2)
        #expect(delivered.filter { $0.contains("UID:md-2@example.org") }.map { $0.hasPrefix("X-Coolcal-Outcome: added (accepted)\n") } == [true])
        let calendar = try String(contentsOfFile: agent.calendar, encoding: .utf8)
        #expect(calendar.components(separatedBy: "UID:md-2@example.org").count == 2, "added once")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: agent.home + "/.local/share/coolcal/parked/new")) ?? []).isEmpty)
    }
}
