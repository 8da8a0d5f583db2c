import Foundation
@testable import CLITests

/// A real SMTP server (aiosmtpd, Tests/Mail/smtp_sink.py, pinned in
/// Tests/Mail/requirements.txt) on 127.0.0.1: each message it receives lands in
/// `directory` as `N.eml` (the DATA as received) and `N.json` (the envelope).
final class SMTPSink {
    let server: ServerProcess
    let directory: URL

    /// Starts on `port` (a free one when nil), storing into `directory` (a new one when nil).
    /// `drop`: the first `drop` messages are not taken; the connection is closed after
    /// their DATA, without an answer.
    init(port: Int? = nil, directory: URL? = nil, drop: Int = 0) throws {
        let home = try ServerProcess.temporaryHome("smtp")
        let port = try port ?? ServerProcess.freePort()
        let store = directory ?? home.appendingPathComponent("received")
        self.directory = store
        let script = Binary.root.appendingPathComponent("Tests/Mail/smtp_sink.py").path
        server = try ServerProcess(home: home, port: port, executable: try RadicaleServer.python(),
                                   arguments: [script, String(port), store.path, String(drop)])
    }

    deinit { server.stop() }

    var port: Int { server.port }

    /// The messages received so far, in order, as text with LF line ends (as
    /// `sendmail -t` was given them).
    func messages() throws -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".eml") }.sorted { Int($0.dropLast(4)) ?? 0 < Int($1.dropLast(4)) ?? 0 }
        return try names.map {
            String(decoding: try Data(contentsOf: directory.appendingPathComponent($0)), as: UTF8.self)
                .replacingOccurrences(of: "\r\n", with: "\n")
        }
    }

    /// How many messages were dropped after their DATA.
    var dropped: Int {
        (try? String(contentsOf: directory.appendingPathComponent("dropped"), encoding: .utf8)).flatMap { Int($0) } ?? 0
    }

    /// The envelope recipients of message `n` (1-based).
    func recipients(_ n: Int) throws -> [String] {
        let data = try Data(contentsOf: directory.appendingPathComponent("\(n).json"))
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["to"] as? [String] ?? []
    }

    /// A msmtp configuration for this server (no authentication, no TLS), mode 0600.
    static func msmtprc(port: Int, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("msmtprc").path
        let text = "defaults\nauth off\ntls off\naccount default\nhost 127.0.0.1\nport \(port)\nfrom me@example.com\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        return path
    }
}
