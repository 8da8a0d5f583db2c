import Foundation
import Glibc
import Testing

/// A failure of the test set-up, with a message that says what to do.
struct SetupError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A server process the tests start on 127.0.0.1 and kill at the end: its output
/// goes to `log` in its home directory (never a pipe that could fill up).
final class ServerProcess {
    let home: URL
    let port: Int
    private let process: Process
    /// Its process id (`CyrusServer` finds the services it forked).
    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// Starts `arguments` (which should listen on `port`) and waits up to `wait`
    /// seconds until a TCP connection succeeds.
    init(home: URL, port: Int, executable: String, arguments: [String], wait: TimeInterval = 20) throws {
        self.home = home
        self.port = port
        let logURL = home.appendingPathComponent("log")
        guard FileManager.default.createFile(atPath: logURL.path, contents: nil) else {
            throw SetupError("cannot create \(logURL.path)")
        }
        let log = try FileHandle(forWritingTo: logURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = home
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try? log.close()
        self.process = process
        let deadline = Date().addingTimeInterval(wait)
        while !Self.accepts(port) {
            guard process.isRunning, Date() < deadline else {
                stop()
                let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
                throw SetupError("\(executable) \(arguments.joined(separator: " ")) did not start listening on port \(port):\n\(text)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    deinit { stop() }

    /// SIGKILL, not `terminate()`: a child of the test runner inherits its blocked
    /// signal mask, SIGTERM included.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// A port nothing listens on right now (bound to 0, read back, closed).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SetupError("socket() failed") }
        defer { close(fd) }
        var address = loopback(0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw SetupError("bind() failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw SetupError("getsockname() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// True when something accepts TCP connections on 127.0.0.1:`port`.
    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    static func loopback(_ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// A fresh temporary directory.
    static func temporaryHome(_ label: String) throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return home
    }
}

/// A real Radicale CalDAV server (PyPI `radicale`, pinned in Tests/CalDAV/requirements.txt)
/// on a free 127.0.0.1 port, storing in a temporary directory; killed when released.
final class RadicaleServer {
    /// The user the tests sign in as when `auth` is on.
    static let user = "alice"
    static let password = "s3cret-Pässwörd!"

    let server: ServerProcess
    /// `http://127.0.0.1:PORT`.
    let origin: String

    /// - Parameter auth: true for htpasswd (plain text, `alice` only, collections
    ///   owned by their user), false for no authentication at all.
    init(auth: Bool = false) throws {
        let python = try Self.python()
        let home = try ServerProcess.temporaryHome("radicale")
        let port = try ServerProcess.freePort()
        try "\(Self.user):\(Self.password)\n".write(to: home.appendingPathComponent("users"), atomically: true, encoding: .utf8)
        let config = """
            [server]
            hosts = 127.0.0.1:\(port)
            [auth]
            type = \(auth ? "htpasswd" : "none")
            htpasswd_filename = \(home.path)/users
            htpasswd_encryption = plain
            delay = 0
            [rights]
            type = \(auth ? "owner_only" : "authenticated")
            [storage]
            filesystem_folder = \(home.path)/collections
            [logging]
            level = warning
            """
        try config.write(to: home.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        // alice's principal collection (a plain directory in Radicale's storage): with
        // authentication Radicale makes it at the first login, without it never.
        try FileManager.default.createDirectory(at: home.appendingPathComponent("collections/collection-root/\(Self.user)"),
                                                withIntermediateDirectories: true)
        do {
            server = try ServerProcess(home: home, port: port, executable: python,
                                       arguments: ["-m", "radicale", "--config", home.appendingPathComponent("config").path])
        } catch {
            try? FileManager.default.removeItem(at: home)
            throw error
        }
        origin = "http://127.0.0.1:\(port)"
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: server.home)
    }

    /// The URL of `path` (e.g. `/alice/work/`), with `user:password@` when given.
    func url(_ path: String, user: String? = nil, password: String? = nil) -> String {
        guard let user else { return origin + path }
        return "http://\(Self.encode(user))\(password.map { ":" + Self.encode($0) } ?? "")@127.0.0.1:\(server.port)\(path)"
    }

    /// Percent-encodes all but ASCII letters and digits, as user info needs.
    static func encode(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// The venv Python that has Radicale: `COOLCAL_PYTHON` (set by `make unit`), else
    /// `.build/pyenv/bin/python` in the package. Missing is a failure, not a skip.
    static func python() throws -> String {
        if let path = ProcessInfo.processInfo.environment["COOLCAL_PYTHON"], !path.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw SetupError("COOLCAL_PYTHON=\(path) is not an executable; run `make pydeps`")
            }
            return path
        }
        let path = Binary.root.appendingPathComponent(".build/pyenv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw SetupError("no Python with Radicale at \(path): run `make pydeps` (or set COOLCAL_PYTHON)")
        }
        return path
    }
}
