import Foundation
import Testing
@testable import CoolcalInvite
@testable import CoolcalState
@testable import CoolcalRSVP
@testable import CoolcalAnswering
@testable import CoolcalTestSupport

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
        #expect(try store.outbox.entries().map(\.attempts) == [1, 0])
        #expect(try store.outbox.entries().first?.lastError?.hasPrefix("POST \(url)/invitations/1/accept: ") == true)

        server = try TestHTTPServer(home: home, port: url.port ?? 0)
        let up = try drainer.drain()
        #expect(up == { var s = OutboxDrainer.Summary(); s.delivered = 2; return s }())
        #expect(try drainer.drain().delivered == 0)
        #expect(try store.outbox.entries().isEmpty)
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
        let entries = try store.outbox.entries()
        #expect(entries.map(\.attempts) == [1, 0, 1])
        #expect(entries.allSatisfy { $0.state == .queued })
        #expect(entries[0].lastError == "HTTP 500: server says 500 second line " + String(repeating: "x", count: 172))
    }

    /// Issue #29: a server that echoes the request's Authorization in its error body
    /// leaves no credential in the outbox: the token and the password become `***`.
    @Test func anEchoedAuthorizationIsNeverStored() throws {
        let home = home()
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try TestHTTPServer(home: home)
        try server.setMode("400-echo")
        let secret = try #require(URL(string: "http://alice:s3cret-pw@127.0.0.1:\(server.url.port ?? 0)/"))
        let (store, _) = try queuedStore([(.accepted, .number(9), nil)], server: secret)
        defer { try? FileManager.default.removeItem(atPath: store.directory) }
        _ = try OutboxDrainer(store: store, server: secret, requestTimeout: 1, resourceTimeout: 3).drain()
        let sent = try #require(try server.requests().first?["authorization"] as? String)
        let token = String(sent.dropFirst("Basic ".count))
        #expect(token == Data("alice:s3cret-pw".utf8).base64EncodedString(), "the request did carry it: \(sent)")
        let error = try #require(try store.outbox.entries().first?.lastError)
        #expect(error.hasPrefix("HTTP 400: bad request; you sent Authorization: ***"), "\(error)")
        #expect(!error.contains(token) && !error.contains("s3cret-pw"), "\(error)")
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
        let entry = try #require(try store.outbox.entries().first)
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
        // Timeouts far above the time the exchange takes even on a loaded machine: waiting one
        // out would take 30 s; a prompt answer takes well under half of that.
        let summary = try OutboxDrainer(store: store, server: server.url, requestTimeout: 30, resourceTimeout: 60).drain()
        let elapsed = Date().timeIntervalSince(started)
        #expect(summary.denied && summary.delivered == 0)
        #expect(elapsed < 15, "took \(elapsed) s: it waited for the 30 s request timeout")
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
        // It waited out the 1 s timeout (the stall happened), and did not hang: URLSession's
        // own default would be 60 s. That the run stopped after the first entry is asserted
        // below by the attempts and requests, not by a tight wall-clock bound.
        #expect(elapsed >= 1 && elapsed < 30, "took \(elapsed) s")
        #expect(summary.delivered == 0 && summary.queued == 2)
        #expect(summary.stopReason?.hasSuffix("/invitations/1/accept: timed out after 1 s") == true)
        #expect(try store.outbox.entries().map(\.attempts) == [1, 0])
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
        #expect(try store.outbox.entries().isEmpty)
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
