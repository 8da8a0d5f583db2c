import Foundation
import Synchronization
import Testing

/// A real HTTP server on 127.0.0.1: a small standard-library Python script, started
/// with `Process`. It logs every request as a JSON line and answers according to the
/// `mode` file beside it: a status code (`200`, `500`, `404`, `302`…) or `stall`.
final class TestHTTPServer {
    static let script = #"""
    import http.server, json, os, socketserver, sys, time

    home, port = sys.argv[1], int(sys.argv[2])

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length).decode("utf-8", "replace")
            try:
                with open(os.path.join(home, "mode")) as f:
                    mode = f.read().strip()
            except OSError:
                mode = "200"
            line = {"method": self.command, "path": self.path, "key": self.headers.get("Idempotency-Key"),
                    "content_type": self.headers.get("Content-Type"),
                    "authorization": self.headers.get("Authorization"), "body": body}
            with open(os.path.join(home, "requests.jsonl"), "a", encoding="utf-8") as f:
                f.write(json.dumps(line) + "\n")
            if mode == "stall":
                time.sleep(30)
                return
            challenge = mode == "401-basic"
            echo = mode == "400-echo"
            status = 401 if challenge else 400 if echo else int(mode)
            reply = ("server says %d\nsecond line " % status + "x" * 300).encode()
            if echo:
                auth = self.headers.get("Authorization") or ""
                reply = ("bad request; you sent Authorization: %s (token %s)" % (auth, auth.split(" ")[-1])).encode()
            self.send_response(status)
            if challenge:
                self.send_header("WWW-Authenticate", 'Basic realm="invitations"')
            if status == 302:
                self.send_header("Location", "/elsewhere")
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        do_POST = do_GET = handle_any

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
        allow_reuse_address = True

    server = Server(("127.0.0.1", port), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """#

    let home: URL
    let port: Int
    /// `http://127.0.0.1:PORT`.
    let url: URL
    private let process: Process

    /// Starts the server on `port` (0: any free port) and waits up to 10 s for it to listen.
    init(home: URL, port: Int = 0) throws {
        self.home = home
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let scriptURL = home.appendingPathComponent("server.py")
        try Self.script.write(to: scriptURL, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", scriptURL.path, home.path, String(port)]
        let output = Pipe()
        process.standardOutput = output
        let collected = LineBox()
        output.fileHandleForReading.readabilityHandler = { handle in collected.append(handle.availableData) }
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(10)
        while collected.firstLine == nil && Date() < deadline && process.isRunning {
            Thread.sleep(forTimeInterval: 0.01)
        }
        output.fileHandleForReading.readabilityHandler = nil
        guard let line = collected.firstLine, let chosen = Int(line),
              let url = URL(string: "http://127.0.0.1:\(chosen)") else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw TestFailure("the test server did not start")
        }
        self.port = chosen
        self.url = url
    }

    deinit { stop() }


    func setMode(_ mode: String) throws {
        try mode.write(to: home.appendingPathComponent("mode"), atomically: true, encoding: .utf8)
    }

    /// The requests logged so far, oldest first.
    func requests() throws -> [[String: Any]] {
        guard let text = try? String(contentsOf: home.appendingPathComponent("requests.jsonl"), encoding: .utf8) else {
            return []
        }
        return try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// Stops the server and waits for it. SIGKILL, not `terminate()`: a child started
    /// from the test runner inherits its blocked-signal mask, SIGTERM included.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// Bytes from the server's stdout, until the first line is complete.
final class LineBox: Sendable {
    private let bytes = Mutex(Data())
    func append(_ data: Data) { bytes.withLock { $0.append(data) } }
    var firstLine: String? {
        bytes.withLock { data in
            guard let end = data.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            return String(decoding: data[..<end], as: UTF8.self)
        }
    }
}
