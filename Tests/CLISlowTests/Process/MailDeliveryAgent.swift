import Foundation
@testable import CLITests

/// A mail delivery agent run for real, as an unprivileged user (nobody), in a fresh
/// directory: Dovecot's `dovecot-lda` with Pigeonhole's Sieve (no daemon), or procmail.
/// Its home holds the coolcal config, calendar, state and Maildir; `coolcal` is reached
/// through a wrapper (Dovecot's Sieve runs only programs in its bin directory and passes
/// no PATH).
struct MailDeliveryAgent {
    let root: String
    var home: String { root + "/home" }
    var calendar: String { home + "/cal.ics" }
    var maildir: String { home + "/Maildir" }

    static let nobody: uid_t = 65534

    /// The real-mail corpus beside the checkout, or nil (a user's clone has none).
    static let corpus: URL? = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("../shared/corpora/mail-real").standardized
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// `config`: the coolcal config file's text (its calendar line is added).
    init(config: String) throws {
        root = try Spawn.directory()
        chmod(root, 0o755)
        for dir in [home, home + "/.config/coolcal", root + "/bin", root + "/var"] {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }
        try Data((config + "calendar = \(calendar)\n").utf8).write(to: URL(fileURLWithPath: home + "/.config/coolcal/config"))
        try Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//Delivery//EN\r\nEND:VCALENDAR\r\n".utf8)
            .write(to: URL(fileURLWithPath: calendar))
        let wrapper = "#!/bin/sh\nexec '\(Binary.path)' \"$@\"\n"
        try Data(wrapper.utf8).write(to: URL(fileURLWithPath: root + "/bin/coolcal"))
        chmod(root + "/bin/coolcal", 0o755)
        for path in [home, home + "/.config", home + "/.config/coolcal", home + "/.config/coolcal/config", calendar, root + "/var"] {
            chown(path, Self.nobody, Self.nobody)
        }
    }

    /// Runs `argv` as nobody with only `environment`, the message on stdin; its exit status
    /// and what it said.
    func run(_ argv: [String], environment: [String: String], message: Data) throws -> (status: Int32, output: String) {
        let input = root + "/var/input-\(UUID().uuidString).eml"
        try message.write(to: URL(fileURLWithPath: input))
        chmod(input, 0o644)
        let p = Process()
        // The test runner's threads block signals, and a child inherits the mask: Dovecot would
        // never see its program end (SIGCHLD), so the mask and dispositions are reset first.
        p.executableURL = URL(fileURLWithPath: "/usr/bin/perl")
        p.arguments = ["-e", #"use POSIX; sigprocmask(SIG_SETMASK, POSIX::SigSet->new); $SIG{$_} = "DEFAULT" for qw(CHLD PIPE); exec @ARGV or die"#,
                       "/usr/sbin/runuser", "-u", "nobody", "--", "/usr/bin/env", "-i"]
            + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + argv
        p.currentDirectoryURL = URL(fileURLWithPath: home)
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        p.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: input))
        try p.run()
        let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        unlink(input)
        return (p.terminationStatus, said)
    }

    /// The messages delivered into the Maildir (new/ and cur/), by file name, LF line ends.
    func delivered() -> [String: String] {
        var texts: [String: String] = [:]
        for folder in ["new", "cur"] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: maildir + "/" + folder)) ?? [] {
                guard let data = FileManager.default.contents(atPath: maildir + "/" + folder + "/" + name) else { continue }
                texts[name] = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
            }
        }
        return texts
    }

    /// A corpus message with its event's dates moved on (`DTSTART:2022` → `DTSTART:2032`,
    /// the same for DTEND), so that it is not past; nothing else changes.
    static func future(_ name: String, from year: String, to later: String) throws -> Data? {
        guard let corpus else { return nil }
        var text = String(decoding: try Data(contentsOf: corpus.appendingPathComponent(name)), as: UTF8.self)
        for property in ["DTSTART", "DTEND"] { text = text.replacingOccurrences(of: "\(property):\(year)", with: "\(property):\(later)") }
        return Data(text.utf8)
    }

    static func corpusMessage(_ name: String) throws -> Data? {
        guard let corpus else { return nil }
        return try Data(contentsOf: corpus.appendingPathComponent(name))
    }
}
