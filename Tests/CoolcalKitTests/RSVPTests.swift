import Foundation
import Synchronization
import Testing
@testable import CoolcalKit

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
            status = 401 if challenge else int(mode)
            reply = ("server says %d\nsecond line " % status + "x" * 300).encode()
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

@Suite struct RSVPTests {
    /// A store with the given answers queued for `server`.
    func queuedStore(_ answers: [(Answer, Invite.ID, String?)], server: URL) throws -> (StateStore, [String]) {
        let store = try StateStore(directory: stateDirectory("rsvp"))
        let keys = try answers.map { answer, id, comment in
            try store.recordAnswer(answer, for: stateInvite(id), comment: comment, at: Date(), queueFor: server).key
        }
        return (store, keys)
    }

    func home() -> URL { URL(fileURLWithPath: stateDirectory("http")) }

    @Test func downThenUpDeliversExactlyOnce() throws {
        let home = home()
        defer { try? FileManager.default.removeItem(at: home) }
        var server = try TestHTTPServer(home: home)
        let url = server.url
        server.stop()  // nothing listens on that port now
        let (store, keys) = try queuedStore([(.accepted, .number(1), nil), (.comment, .number(2), "ok")], server: url)
        defer { try? FileManager.default.removeItem(atPath: store.directory) }
        let drainer = OutboxDrainer(store: store, server: url, requestTimeout: 1, resourceTimeout: 3)

        let down = try drainer.drain()
        #expect(down.delivered == 0 && down.failed == 0 && down.queued == 2)
        #expect(down.stopReason?.contains("connection refused") == true)
        // The run stops at the first unreachable attempt instead of waiting on each entry.
        #expect(try store.outbox().map(\.attempts) == [1, 0])
        #expect(try store.outbox().first?.lastError?.hasPrefix("POST \(url)/invitations/1/accept: ") == true)

        server = try TestHTTPServer(home: home, port: url.port ?? 0)
        let up = try drainer.drain()
        #expect(up == { var s = OutboxDrainer.Summary(); s.delivered = 2; return s }())
        #expect(try drainer.drain().delivered == 0)
        #expect(try store.outbox().isEmpty)
        #expect(try store.responses().map(\.delivery) == [.delivered, .delivered])

        let log = try server.requests()
        #expect(log.compactMap { $0["key"] as? String } == keys)  // one request per key, in order
        #expect(log.compactMap { $0["path"] as? String } == ["/invitations/1/accept", "/invitations/2/comment"])
        #expect(log.compactMap { $0["method"] as? String } == ["POST", "POST"])
        #expect(log.compactMap { $0["content_type"] as? String } == ["application/json", "application/json"])
        #expect(log.compactMap { $0["body"] as? String } == ["{}", #"{"comment":"ok"}"#])
    }

    @Test func serverErrorsStayQueuedAndKeepOrderPerInvitation() throws {
        let home = home()
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try TestHTTPServer(home: home)
        try server.setMode("500")
        let (store, keys) = try queuedStore([(.accepted, .number(1), nil), (.declined, .number(1), nil),
                                             (.accepted, .number(2), nil)], server: server.url)
        defer { try? FileManager.default.removeItem(atPath: store.directory) }
        let summary = try OutboxDrainer(store: store, server: server.url, requestTimeout: 1, resourceTimeout: 3).drain()
        #expect(summary.delivered == 0 && summary.failed == 0 && summary.queued == 3 && summary.stopReason == nil)
        // The decline of invitation 1 must not overtake its accept; invitation 2 is still tried.
        #expect(try server.requests().compactMap { $0["key"] as? String } == [keys[0], keys[2]])
        let entries = try store.outbox()
        #expect(entries.map(\.attempts) == [1, 0, 1])
        #expect(entries.allSatisfy { $0.state == .queued })
        #expect(entries[0].lastError == "HTTP 500: server says 500 second line " + String(repeating: "x", count: 172))
    }

    @Test func clientErrorsAreKeptAsFailed() throws {
        let home = home()
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try TestHTTPServer(home: home)
        try server.setMode("404")
        let (store, _) = try queuedStore([(.accepted, .number(7), nil)], server: server.url)
        defer { try? FileManager.default.removeItem(atPath: store.directory) }
        let drainer = OutboxDrainer(store: store, server: server.url, requestTimeout: 1, resourceTimeout: 3)
        let summary = try drainer.drain()
        #expect(summary.failed == 1 && summary.queued == 0 && !summary.denied)
        let entry = try #require(try store.outbox().first)
        #expect(entry.state == .failed && entry.attempts == 1)
        // The reason is the status and the first 200 bytes of the body, on one line.
        let reason = try #require(entry.lastError)
        #expect(reason.hasPrefix("HTTP 404: server says 404 second line xxx") && !reason.contains("\n"))
        #expect(reason.utf8.count == "HTTP 404: ".utf8.count + 200)
        #expect(try drainer.drain().failed == 0)  // failed entries are not retried by themselves
        #expect(try server.requests().count == 1)

        try server.setMode("401")
        try store.recordAnswer(.accepted, for: stateInvite(.number(7)), comment: nil, at: Date(), queueFor: server.url)
        #expect(try drainer.drain().denied)
    }

    /// A real server refusing a password says `WWW-Authenticate`: that is a refusal
    /// now, not a request that waits out its timeout and looks like a server down.
    @Test func anAuthenticationChallengeIsDeniedAtOnce() throws {
        let home = home()
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try TestHTTPServer(home: home)
        try server.setMode("401-basic")
        let (store, _) = try queuedStore([(.accepted, .number(3), nil)], server: server.url)
        defer { try? FileManager.default.removeItem(atPath: store.directory) }
        let started = Date()
        let summary = try OutboxDrainer(store: store, server: server.url, requestTimeout: 5, resourceTimeout: 10).drain()
        let elapsed = Date().timeIntervalSince(started)
        #expect(summary.denied && summary.delivered == 0)
        #expect(elapsed < 3, "took \(elapsed) s")
        #expect(try server.requests().count == 1)
    }

    @Test func stalledServerDoesNotHang() throws {
        let home = home()
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try TestHTTPServer(home: home)
        try server.setMode("stall")
        let (store, _) = try queuedStore([(.accepted, .number(1), nil), (.accepted, .number(2), nil)], server: server.url)
        defer { try? FileManager.default.removeItem(atPath: store.directory) }
        let started = Date()
        let summary = try OutboxDrainer(store: store, server: server.url, requestTimeout: 1, resourceTimeout: 2).drain()
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed < 3, "took \(elapsed) s")
        #expect(summary.delivered == 0 && summary.queued == 2)
        #expect(summary.stopReason?.hasSuffix("/invitations/1/accept: timed out after 1 s") == true)
        #expect(try store.outbox().map(\.attempts) == [1, 0])
        #expect(try server.requests().count == 1)
    }

    @Test func commentTextAndIdSurviveTheTrip() throws {
        let home = home()
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try TestHTTPServer(home: home)
        let comment = "Grüße \"quoted\"\nline2 ✓ \\ tab\t"
        let (store, _) = try queuedStore([(.comment, .uid("a/b c?#ü@x"), comment)], server: server.url)
        defer { try? FileManager.default.removeItem(atPath: store.directory) }
        #expect(try OutboxDrainer(store: store, server: server.url).drain().delivered == 1)
        let request = try #require(try server.requests().first)
        #expect(request["path"] as? String == "/invitations/a%2Fb%20c%3F%23%C3%BC%40x/comment")
        let body = try #require(request["body"] as? String)
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: String])
        #expect(decoded == ["comment": comment])
        #expect(try store.responses().first?.comment == comment)
    }

    @Test func credentialsAreSentButNeverShown() throws {
        let home = home()
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try TestHTTPServer(home: home)
        let url = try #require(URL(string: "http://alice:s3cret@127.0.0.1:\(server.port)/api/"))
        let (store, _) = try queuedStore([(.declined, .number(3), nil)], server: url)
        defer { try? FileManager.default.removeItem(atPath: store.directory) }
        #expect(try OutboxDrainer(store: store, server: url).drain().delivered == 1)
        let request = try #require(try server.requests().first)
        #expect(request["path"] as? String == "/api/invitations/3/decline")
        #expect(request["authorization"] as? String == "Basic " + Data("alice:s3cret".utf8).base64EncodedString())

        server.stop()
        try store.recordAnswer(.accepted, for: stateInvite(.number(3)), comment: nil, at: Date(), queueFor: url)
        let summary = try OutboxDrainer(store: store, server: url, requestTimeout: 1, resourceTimeout: 2).drain()
        let reason = try #require(summary.stopReason)
        #expect(!reason.contains("s3cret") && !reason.contains("alice"))
        #expect(reason.hasPrefix("POST http://127.0.0.1:\(server.port)/api/invitations/3/accept: "))
        #expect(RSVPClient.redacted(url) == "http://***@127.0.0.1:\(server.port)/api/")
    }

    @Test func redirectsAreNotFollowed() throws {
        let home = home()
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try TestHTTPServer(home: home)
        try server.setMode("302")
        let client = RSVPClient(server: server.url, requestTimeout: 1, resourceTimeout: 3)
        let outcome = client.send(.accepted, inviteID: "9", body: "{}", idempotencyKey: "k9")
        guard case .refused(let status, _) = outcome else {
            Issue.record("expected a refusal, got \(outcome)")
            return
        }
        #expect(status == 302)
        #expect(try server.requests().compactMap { $0["method"] as? String } == ["POST"])
    }

    @Test func overlappingDrainersSendEachEntryOnce() throws {
        let home = home()
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try TestHTTPServer(home: home)
        let answers: [(Answer, Invite.ID, String?)] = (1...6).map { (.accepted, .number(Int64($0)), nil) }
        let (store, keys) = try queuedStore(answers, server: server.url)
        defer { try? FileManager.default.removeItem(atPath: store.directory) }
        let url = server.url, dir = store.directory
        let errors = ThreadErrors()
        let group = DispatchGroup()
        for _ in 0..<3 {
            group.enter()
            Thread {
                defer { group.leave() }
                do { _ = try OutboxDrainer(store: StateStore(directory: dir), server: url).drain(lockTimeout: 0) }
                catch { errors.add(String(reflecting: error)) }
            }.start()
        }
        #expect(group.wait(timeout: .now() + 30) == .success)
        #expect(errors.all.isEmpty)
        #expect(try server.requests().compactMap { $0["key"] as? String } == keys)
        #expect(try store.outbox().isEmpty)
    }

    @Test func requestURLs() throws {
        let client = RSVPClient(server: try #require(URL(string: "https://example.com/base//")))
        #expect(client.requestURL(for: .declined, inviteID: "../x")?.absoluteString == "https://example.com/base/invitations/..%2Fx/decline")
        #expect(client.requestURL(for: .accepted, inviteID: "..")?.absoluteString == "https://example.com/base/invitations/%2E%2E/accept")
        #expect(client.requestURL(for: .accepted, inviteID: ".")?.absoluteString == "https://example.com/base/invitations/%2E/accept")
        #expect(RSVPClient(server: try #require(URL(string: "file:///tmp"))).requestURL(for: .accepted, inviteID: "1") == nil)
        #expect(RSVPClient.isUsableServer(try #require(URL(string: "http://h:1"))))
        #expect(!RSVPClient.isUsableServer(try #require(URL(string: "mailto:a@b"))))
    }
}
