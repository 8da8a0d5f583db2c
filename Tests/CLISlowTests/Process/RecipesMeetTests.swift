import Foundation
import Testing
@testable import CLITests

/// Issue #46 item 5: the README's filing recipes — procmail's, maildrop's and Dovecot's
/// Sieve script — and its cron line, pasted as they are, meet in one folder: each agent
/// files an invitation there (the real procmail, maildrop and dovecot-lda, run as nobody),
/// and the cron line's `merge` answers it (with only HOME and cron's PATH). The man page's
/// lines are the README's (`theManPageFilesWhereTheReadmeDoes`).
@Suite(.serialized) struct RecipesMeetTests {
    /// The README's mail-filter block: the procmail recipe and the cron line.
    static func readmeRecipes() throws -> (procmail: String, cron: String) {
        let lines = try readmeLines()
        guard let start = lines.firstIndex(where: { $0.hasPrefix("# procmail: file invitations") }),
              let cron = lines[start...].first(where: { $0.hasPrefix("*/5 ") }) else { throw CocoaError(.fileReadCorruptFile) }
        let recipe = lines[(start + 1)...].prefix { !$0.hasPrefix("#") }
        return (recipe.joined(separator: "\n") + "\n", cron)
    }

    static func readmeLines() throws -> [String] {
        try String(contentsOf: Binary.root.appendingPathComponent("README.md"), encoding: .utf8).components(separatedBy: "\n")
    }

    /// The line of the README's filing block that follows `prefix` (a comment's start), the prefix cut.
    static func readmeLine(after prefix: String) throws -> String {
        let lines = try readmeLines()
        guard let start = lines.firstIndex(where: { $0.hasPrefix("# procmail: file invitations") }),
              let line = lines[start...].first(where: { $0.hasPrefix(prefix) }) else { throw CocoaError(.fileReadCorruptFile) }
        return String(line.dropFirst(prefix.count))
    }

    /// The README's maildrop lines: the command that makes the folder, and ~/.mailfilter's text.
    static func readmeMaildrop() throws -> (mkdir: String, filter: String) {
        let lines = try readmeLines()
        let mkdir = try readmeLine(after: "# ... maildrop, which creates no folder: ")
        guard let start = lines.firstIndex(of: "# ... and in ~/.mailfilter:") else { throw CocoaError(.fileReadCorruptFile) }
        return (mkdir, lines[(start + 1)...].prefix { !$0.hasPrefix("#") }.joined(separator: "\n"))
    }

    /// Runs the README's cron line (but for its schedule and the binary's path) as nobody with
    /// cron's environment; checks that it answered the invitation the agent filed.
    static func cronAnswers(_ agent: MailDeliveryAgent, _ who: String) throws {
        let cronLine = try readmeRecipes().cron
        let command = String(cronLine.split(separator: " ", maxSplits: 5)[5])
            .replacingOccurrences(of: "/usr/local/bin/coolcal", with: Binary.path)
        let merged = try agent.run(["/bin/sh", "-c", command], environment: ["HOME": agent.home, "PATH": "/usr/bin:/bin"], message: Data())
        #expect(merged.status == 0, "\(who): \(merged.output)")
        #expect(merged.output == "", "\(who): -q: an accepted invitation needs nobody")
        let calendar = try String(contentsOfFile: agent.calendar, encoding: .utf8)
        #expect(calendar.contains("UID:\(OrganizerBindingTests.uid)\r\n"), "\(who): the cron line's merge read the folder it filed into")
        let seen = (try? FileManager.default.contentsOfDirectory(atPath: agent.maildir + "/.invitations/cur")) ?? []
        #expect(seen.count == 1 && seen[0].hasSuffix(":2,S"), "\(who): \(seen)")
    }

    /// The user's mailbox, which exists before any of the recipes run.
    static func mailbox(_ agent: MailDeliveryAgent) throws {
        for dir in ["", "/cur", "/new", "/tmp"] {
            try FileManager.default.createDirectory(atPath: agent.maildir + dir, withIntermediateDirectories: true)
            chown(agent.maildir + dir, MailDeliveryAgent.nobody, MailDeliveryAgent.nobody)
        }
    }

    static func invitation() -> Data {
        Data(OrganizerBindingTests.mail(OrganizerBindingTests.message(), from: "alice@example.org").utf8)
    }

    @Test func procmailFilesWhereTheCronLineReads() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/procmail") else { return }
        let recipe = try Self.readmeRecipes().procmail
        let agent = try MailDeliveryAgent(config: "accept-from = anyone\n")
        // The user's mailbox exists; the invitations' folder is procmail's to create.
        try Self.mailbox(agent)
        let rc = agent.home + "/.procmailrc"
        try Data(recipe.utf8).write(to: URL(fileURLWithPath: rc))
        chown(rc, MailDeliveryAgent.nobody, MailDeliveryAgent.nobody)
        let delivered = try agent.run(["/usr/bin/procmail", "-m", "HOME=\(agent.home)", rc], environment: ["HOME": agent.home],
                                      message: Self.invitation())
        #expect(delivered.status == 0, "\(delivered.output)")
        try Self.cronAnswers(agent, "procmail")
    }

    @Test func maildropFilesWhereTheCronLineReads() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/maildrop") else { return }
        let (mkdir, line) = try Self.readmeMaildrop()
        let agent = try MailDeliveryAgent(config: "accept-from = anyone\n")
        try Self.mailbox(agent)
        let made = try agent.run(["/bin/sh", "-c", mkdir], environment: ["HOME": agent.home, "PATH": "/usr/bin:/bin"], message: Data())
        #expect(made.status == 0, "\(mkdir): \(made.output)")
        // Nobody's passwd home is /nonexistent: the file names the test's HOME first, and is
        // given to maildrop by its path (as MaildropFaultTests does).
        let rc = agent.home + "/.mailfilter"
        try Data("HOME=\"\(agent.home)\"\n\(line)\n".utf8).write(to: URL(fileURLWithPath: rc))
        chown(rc, MailDeliveryAgent.nobody, MailDeliveryAgent.nobody)
        chmod(rc, 0o600)
        let delivered = try agent.run(["/usr/bin/maildrop", rc], environment: ["PATH": "/usr/bin:/bin"], message: Self.invitation())
        #expect(delivered.status == 0, "\(delivered.output)")
        try Self.cronAnswers(agent, "maildrop")
    }

    @Test func dovecotFilesWhereTheCronLineReads() throws {
        let lda = DovecotDeliveryTests.lda
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: lda) else { return }
        let script = try Self.readmeLine(after: "# ... Dovecot (~/.dovecot.sieve): ")
        let agent = try MailDeliveryAgent(config: "accept-from = anyone\n")
        try Self.mailbox(agent)
        // No global script: the user's own, where Pigeonhole looks by default.
        let conf = try DovecotDeliveryTests.dovecotConfig(agent, script: "keep;\n")
        let sieve = agent.home + "/.dovecot.sieve"
        try Data((script + "\n").utf8).write(to: URL(fileURLWithPath: sieve))
        chown(sieve, MailDeliveryAgent.nobody, MailDeliveryAgent.nobody)
        let delivered = try agent.run([lda, "-c", conf, "-f", "alice@example.org", "-a", OrganizerBindingTests.me],
                                      environment: ["HOME": agent.home, "PATH": "/usr/bin:/bin"], message: Self.invitation())
        #expect(delivered.status == 0, "\(delivered.output)")
        #expect(agent.delivered().isEmpty, "the invitation was filed, not kept in the inbox")
        try Self.cronAnswers(agent, "Dovecot")
    }

    /// The man page's filing lines are the README's, word for word (white space aside: the
    /// man page breaks them into lines).
    @Test func theManPageFilesWhereTheReadmeDoes() throws {
        func words(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let man = words(try ManPageTests.manPage().replacingOccurrences(of: "\\e", with: "\\"))
        let maildrop = try Self.readmeMaildrop()
        for line in [maildrop.mkdir, maildrop.filter, try Self.readmeLine(after: "# ... Dovecot (~/.dovecot.sieve): ")] {
            #expect(man.contains(words(line)), "man page lacks: \(line)")
        }
        #expect(man.contains("$HOME/Maildir/.invitations/"), "procmail's folder")
        #expect(man.contains("--spool $HOME/Maildir/.invitations --mark"), "the cron line's folder")
    }
}
