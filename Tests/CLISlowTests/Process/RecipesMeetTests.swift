import Foundation
import Testing
@testable import CLITests

/// Issue #46 item 5: the README's procmail recipe and its cron line, pasted as they are,
/// meet in one folder: procmail files an invitation there, the cron line's `merge`
/// answers it (run as nobody, with only HOME and cron's PATH).
@Suite(.serialized) struct RecipesMeetTests {
    /// The README's mail-filter block: the procmail recipe and the cron line.
    static func readmeRecipes() throws -> (procmail: String, cron: String) {
        let readme = try String(contentsOf: Binary.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("# procmail: file invitations") }),
              let cron = lines[start...].first(where: { $0.hasPrefix("*/5 ") }) else { throw CocoaError(.fileReadCorruptFile) }
        let recipe = lines[(start + 1)...].prefix { !$0.hasPrefix("#") }
        return (recipe.joined(separator: "\n") + "\n", cron)
    }

    @Test func procmailFilesWhereTheCronLineReads() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/procmail") else { return }
        let (recipe, cronLine) = try Self.readmeRecipes()
        let agent = try MailDeliveryAgent(config: "accept-from = anyone\n")
        // The user's mailbox exists; the invitations' folder is procmail's to create.
        for dir in ["", "/cur", "/new", "/tmp"] {
            try FileManager.default.createDirectory(atPath: agent.maildir + dir, withIntermediateDirectories: true)
            chown(agent.maildir + dir, MailDeliveryAgent.nobody, MailDeliveryAgent.nobody)
        }
        let rc = agent.home + "/.procmailrc"
        try Data(recipe.utf8).write(to: URL(fileURLWithPath: rc))
        chown(rc, MailDeliveryAgent.nobody, MailDeliveryAgent.nobody)
        let mail = OrganizerBindingTests.mail(OrganizerBindingTests.message(), from: "alice@example.org")
        let delivered = try agent.run(["/usr/bin/procmail", "-m", "HOME=\(agent.home)", rc], environment: ["HOME": agent.home],
                                      message: Data(mail.utf8))
        #expect(delivered.status == 0, "\(delivered.output)")
        // The cron line as pasted, but for the schedule and the binary's path.
        let command = String(cronLine.split(separator: " ", maxSplits: 5)[5])
            .replacingOccurrences(of: "/usr/local/bin/coolcal", with: Binary.path)
        let merged = try agent.run(["/bin/sh", "-c", command], environment: ["HOME": agent.home, "PATH": "/usr/bin:/bin"], message: Data())
        #expect(merged.status == 0)
        #expect(merged.output == "", "-q: an accepted invitation needs nobody")
        let calendar = try String(contentsOfFile: agent.calendar, encoding: .utf8)
        #expect(calendar.contains("UID:\(OrganizerBindingTests.uid)\r\n"), "the cron line's merge read procmail's folder")
        let seen = try FileManager.default.contentsOfDirectory(atPath: agent.maildir + "/.invitations/cur")
        #expect(seen.count == 1 && seen[0].hasSuffix(":2,S"))
    }
}
