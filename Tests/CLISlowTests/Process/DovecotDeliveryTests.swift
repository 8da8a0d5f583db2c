import Foundation
import Testing
@testable import CLITests

/// `coolcal process` inside Dovecot's delivery agent (issue #32): the real `dovecot-lda`
/// (Debian's dovecot-core and dovecot-sieve) with a minimal config in a temporary
/// directory, no daemon, run as nobody; a global Sieve script pipes each message through
/// `coolcal process --pass-through` with Pigeonhole's `vnd.dovecot.filter`. A sequence of
/// real messages from the corpus — an invitation, its update, its cancellation, an
/// attendee's reply, a mail without an invitation, an invitation from an unknown sender —
/// is delivered: every message lands in the Maildir with its outcome header, and the
/// calendar and inbox end as `merge` of the same messages leaves them.
@Suite(.serialized) struct DovecotDeliveryTests {
    static let lda = "/usr/lib/dovecot/dovecot-lda"
    static let me = "receiver@example.com"

    /// The corpus messages (the Thunderbird chain's dates moved on), with the outcome each gets.
    /// Each with the envelope recipient the mail server hands the Sieve script
    /// (`${envelope.to}`, coolcal's `--recipient`): the stranger's invitation went to
    /// another of my addresses.
    static func messages() throws -> [(name: String, data: Data, outcome: String, to: String)]? {
        typealias A = MailDeliveryAgent
        guard let invite = try A.future("tb__single-event.eml", from: "2022", to: "2032"),
              let update = try A.future("tb__update-minor.eml", from: "2022", to: "2032"),
              let cancel = try A.future("tb__cancel-single-event.eml", from: "2022", to: "2032"),
              let reply = try A.corpusMessage("bm__google.reply.accept.eml"),
              let plain = try A.corpusMessage("bm__mailWithoutImip.eml"),
              let stranger = try A.future("bm__google.invite.new.eml", from: "2012", to: "2032") else { return nil }
        return [
            ("invitation", invite, "added (accepted)", me),
            ("update", update, "updated (accepted)", me),
            ("cancellation", cancel, "updated (cancelled)", me),
            ("reply", reply, "no_action (nothing to do)", me),
            ("no invitation", plain, "no_action (no invitation)", me),
            ("unknown sender", stranger, "no_action (held: unknown sender)", "tom@bluejob.fr"),
        ]
    }

    static let config = "me = \(me)\naccept-from = sender@example.com\n"

    @Test func everyMessageLandsWithItsOutcomeAndTheCalendarEndsAsMergeLeavesIt() throws {
        guard let messages = try Self.messages() else {
            print("note: ../shared/corpora/mail-real is absent; coolcal process is not checked inside dovecot-lda")
            return
        }
        #expect(FileManager.default.isExecutableFile(atPath: Self.lda), "dovecot-lda is missing: make deps installs dovecot-core and dovecot-sieve")
        let agent = try MailDeliveryAgent(config: Self.config)
        let conf = try Self.dovecotConfig(agent)
        var before: [String: String] = [:]
        for (name, data, outcome, to) in messages {
            let run = try agent.run([Self.lda, "-c", conf, "-f", "sender@example.com", "-a", to],
                                    environment: ["HOME": agent.home, "PATH": "/usr/bin:/bin"], message: data)
            #expect(run.status == 0, "\(name): dovecot-lda exited \(run.status): \(run.output)")
            let delivered = agent.delivered().filter { before[$0.key] == nil }.map(\.value)
            before = agent.delivered()
            let original = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
            // One new message: this one, byte for byte after its outcome header.
            #expect(delivered == ["X-Coolcal-Outcome: \(outcome)\n" + original],
                    "\(name): \(delivered.map { $0.prefix(200) })\n\(log(agent))")
        }
        #expect(agent.delivered().count == messages.count, "a message was lost")

        // merge of the same messages from a Maildir, in a state and calendar of its own.
        let twin = try MailDeliveryAgent(config: Self.config)
        for folder in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(atPath: twin.maildir + "/" + folder, withIntermediateDirectories: true)
        }
        for (i, message) in messages.enumerated() {
            try message.data.write(to: URL(fileURLWithPath: twin.maildir + "/new/\(1_800_000_000 + i).M\(i).twin"))
        }
        let merge = try Binary.run(["merge", "-q", "--me", Self.me, "--me", "tom@bluejob.fr", "--state", twin.home + "/state",
                                    "--spool", twin.maildir],
                                   env: ["XDG_CONFIG_HOME": twin.home + "/.config"])
        #expect(merge.status == 0, "\(merge.stdout)\(merge.stderr)")
        let state = agent.home + "/.local/share/coolcal"
        #expect(try events(agent.calendar) == events(twin.calendar))
        let written = try events(agent.calendar)
        #expect(written.contains { $0.contains("02e79b96") && $0.contains("CANCELLED") }, "\(written)")
        #expect(try inbox(state) == inbox(twin.home + "/state"))
        let entries = try inbox(state)
        #expect(entries.contains { $0.contains("unknown sender") }, "\(entries)")
        print("process inside dovecot-lda: \(messages.count) messages delivered, calendar \(written), inbox \(entries)")
    }

    /// Sieve's `execute` (the message kept as it came): with the calendar locked past
    /// `--deadline`, coolcal exits 75, Dovecot keeps the message anyway (it never defers on
    /// a program's failure) and coolcal has parked it; the next delivery answers both.
    @Test func executeParksWhatALockedCalendarStoppedAndTheNextDeliveryAnswersIt() throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.lda), "dovecot-lda is missing: make deps installs dovecot-core and dovecot-sieve")
        typealias T = OrganizerBindingTests
        let agent = try MailDeliveryAgent(config: "me = \(T.me)\naccept-from = anyone\n")
        let conf = try Self.dovecotConfig(agent, script: Self.executeScript)
        let first = T.mail(T.message(uid: "dc-1@example.org"), from: "Alice <alice@example.org>")
        let second = T.mail(T.message(start: "20310304T100000Z", uid: "dc-2@example.org"), from: "Alice <alice@example.org>")
        let argv = [Self.lda, "-c", conf, "-f", "alice@example.org", "-a", T.me]
        let environment = ["HOME": agent.home, "PATH": "/usr/bin:/bin"]
        func deliver(_ message: String) throws -> Int32 {
            let run = try agent.run(argv, environment: environment, message: Data(message.utf8))
            return run.status
        }
        let fd = open(agent.home + "/.cal.ics.coolcal-lock", O_RDONLY | O_CREAT, 0o644)
        #expect(fd >= 0 && flock(fd, LOCK_EX) == 0)
        #expect(try deliver(first) == 0)
        #expect(agent.delivered().count == 1, "Dovecot did not keep the message")
        #expect(try !String(contentsOfFile: agent.calendar, encoding: .utf8).contains("dc-1@example.org"))
        #expect(log(agent).contains("exit code 75"), "\(log(agent))")
        flock(fd, LOCK_UN)
        close(fd)
        #expect(try deliver(second) == 0)
        let calendar = try String(contentsOfFile: agent.calendar, encoding: .utf8)
        #expect(calendar.contains("UID:dc-1@example.org") && calendar.contains("UID:dc-2@example.org"), "the parked message was not answered")
        #expect(agent.delivered().count == 2)
        #expect(agent.delivered().values.allSatisfy { $0.hasPrefix("From: Alice") }, "execute changed a message")
    }

    static let filterScript = """
        require ["vnd.dovecot.filter", "variables", "envelope"];
        set "rcpt" "";
        if envelope :matches "to" "*" { set "rcpt" "${1}"; }
        filter "coolcal" ["process", "--pass-through", "--recipient", "${rcpt}"];
        keep;

        """

    static let executeScript = """
        require ["vnd.dovecot.execute", "variables", "envelope"];
        set "rcpt" "";
        if envelope :matches "to" "*" { set "rcpt" "${1}"; }
        if execute :pipe "coolcal" ["process", "--deadline", "2", "--recipient", "${rcpt}"] {
        }
        keep;

        """

    /// A minimal dovecot-lda config in the directory, and its Sieve script compiled.
    static func dovecotConfig(_ agent: MailDeliveryAgent, script: String = filterScript) throws -> String {
        let sieve = agent.root + "/global.sieve"
        try Data(script.utf8).write(to: URL(fileURLWithPath: sieve))
        let conf = agent.root + "/dovecot.conf"
        try Data("""
            base_dir = \(agent.root)/var/run
            log_path = \(agent.root)/var/dovecot.log
            info_log_path = \(agent.root)/var/dovecot.log
            mail_location = maildir:~/Maildir
            postmaster_address = postmaster@example.com
            protocol lda {
              mail_plugins = sieve
            }
            plugin {
              sieve_before = \(sieve)
              sieve_plugins = sieve_extprograms
              sieve_global_extensions = +vnd.dovecot.filter +vnd.dovecot.execute
              sieve_filter_bin_dir = \(agent.root)/bin
              sieve_execute_bin_dir = \(agent.root)/bin
              sieve_filter_input_eol = lf
              sieve_execute_input_eol = lf
            }

            """.utf8).write(to: URL(fileURLWithPath: conf))
        let compile = Process()
        compile.executableURL = URL(fileURLWithPath: "/usr/bin/sievec")
        compile.arguments = ["-c", conf, sieve]
        try compile.run()
        compile.waitUntilExit()
        #expect(compile.terminationStatus == 0, "sievec failed")
        return conf
    }

    func log(_ agent: MailDeliveryAgent) -> String {
        (try? String(contentsOfFile: agent.root + "/var/dovecot.log", encoding: .utf8)) ?? ""
    }

    /// The calendar's events as lines (UID, start, end, status).
    func events(_ calendar: String) throws -> [String] {
        let run = try Binary.run(["events", "--json", "--from", "2020-01-01T00:00:00Z", "--to", "2040-01-01T00:00:00Z", calendar])
        let events = try Binary.json(run.stdout)["events"] as? [[String: Any]] ?? []
        return events.map { event in Self.line(event, ["uid", "start", "end", "status", "title"]) }.sorted()
    }

    /// The inbox as lines (id, answer, held, state), received times aside.
    func inbox(_ state: String) throws -> [String] {
        let run = try Binary.run(["inbox", "--json", "--state", state])
        let entries = try Binary.json(run.stdout)["invitations"] as? [[String: Any]] ?? []
        return entries.map { entry in Self.line(entry, ["id", "title", "answer", "held", "kind", "state"]) }.sorted()
    }

    static func line(_ object: [String: Any], _ keys: [String]) -> String {
        keys.map { key -> String in
            guard let value = object[key] else { return "-" }
            return "\(value)"
        }.joined(separator: " ")
    }
}
