import CoolcalModel
import CoolcalState
import CoolcalSupport
import Foundation

/// Tells the inviting server about one answer:
/// `POST {server}/invitations/{id}/accept|decline|comment` with a JSON body and an
/// `Idempotency-Key` header, synchronously, and never for longer than the timeouts
/// (cron must not hang on a stalled server).
package struct RSVPClient: Sendable {
    /// What became of one request.
    package enum Outcome: Equatable, Sendable {
        /// 2xx: the server has it.
        case delivered(status: Int)
        /// The server said no for good (4xx other than 408/425/429, or an unfollowed 3xx).
        case refused(status: Int, reason: String)
        /// Try again later: no HTTP answer at all (`status` nil: refused, timed out,
        /// unknown host) or a temporary one (5xx, 408, 425, 429).
        case retryLater(status: Int?, reason: String)
    }

    /// The server as configured, possibly with `user:password@` for basic auth.
    package let server: URL
    /// Seconds without progress before a request is abandoned (`timeoutIntervalForRequest`).
    package let requestTimeout: TimeInterval
    /// Seconds a whole request may take (`timeoutIntervalForResource`), also enforced
    /// here, because a libcurl-backed session does not always honour it.
    package let resourceTimeout: TimeInterval

    /// - Parameters: timeouts are at least one second (libcurl counts whole seconds).
    package init(server: URL, requestTimeout: TimeInterval = 5, resourceTimeout: TimeInterval = 15) {
        self.server = server
        self.requestTimeout = max(1, requestTimeout.rounded(.up))
        self.resourceTimeout = max(self.requestTimeout, resourceTimeout)
    }

    /// True for an `http` or `https` URL with a host: the only servers coolcal talks to.
    package static func isUsableServer(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return !(url.host ?? "").isEmpty
    }

    /// The URL without `user:password`, for every message and log line.
    package static func redacted(_ url: URL) -> String {
        CalendarLocation.redact(url.absoluteString, marker: "***")
    }

    /// `{server}/invitations/{id}/{method}`, the id percent-encoded as one path
    /// segment (so `a/b` cannot walk the server's paths), without credentials.
    package func requestURL(for answer: Answer, inviteID: String) -> URL? {
        guard Self.isUsableServer(server),
              var components = URLComponents(url: server, resolvingAgainstBaseURL: false) else { return nil }
        components.user = nil
        components.password = nil
        components.fragment = nil
        var base = components.percentEncodedPath
        while base.hasSuffix("/") { base.removeLast() }
        var segment = inviteID.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? ""
        // `.` and `..` would be dot-segments that clients and servers resolve away.
        if segment == "." || segment == ".." { segment = segment.replacingOccurrences(of: ".", with: "%2E") }
        components.percentEncodedPath = base + "/invitations/" + segment + "/" + answer.method
        return components.url
    }

    /// RFC 3986 unreserved characters; everything else in an id is percent-encoded.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Sends one outbox entry.
    package func send(_ entry: OutboxEntry) -> Outcome {
        guard let answer = entry.answer else { return .refused(status: 0, reason: "\(entry.key): a mail reply, not a server request") }
        return send(answer, inviteID: entry.inviteID, body: entry.body, idempotencyKey: entry.key)
    }

    /// Sends one answer and waits for the outcome, at most `resourceTimeout` (plus a
    /// moment for the session to report).
    package func send(_ answer: Answer, inviteID: String, body: String, idempotencyKey: String) -> Outcome {
        guard let url = requestURL(for: answer, inviteID: inviteID) else {
            return .retryLater(status: nil, reason: "\(Self.redacted(server)): not an http(s) server URL")
        }
        let label = "POST \(Self.redacted(url))"
        var headers = [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Idempotency-Key", idempotencyKey)]
        if let authorization = basicAuthorization() { headers.append(HTTPHeader("Authorization", authorization)) }
        let request = HTTPRequest(method: "POST", url: url.absoluteString, headers: headers, body: Data(body.utf8),
                                  requestTimeout: requestTimeout, resourceTimeout: resourceTimeout, limit: 4096, overflow: .truncate)
        guard let reply = HTTPExchange.send(request) else {
            return .retryLater(status: nil, reason: "\(label): no answer within \(HTTPExchange.seconds(resourceTimeout))")
        }
        if let failure = reply.failure(requestTimeout: requestTimeout) {
            return .retryLater(status: nil, reason: "\(label): \(failure)")
        }
        guard let status = reply.status else {
            return .retryLater(status: nil, reason: "\(label): no HTTP response")
        }
        // A server may echo the request's Authorization: never kept, never shown.
        let reason = "HTTP \(status): \(Self.snippet(Data(SecretText.redact(String(decoding: reply.body, as: UTF8.self), secrets: secrets()).utf8)))"
        switch status {
        case 200..<300: return .delivered(status: status)
        case 408, 425, 429, 500...: return .retryLater(status: status, reason: reason)
        default: return .refused(status: status, reason: reason)
        }
    }

    /// `Basic base64(user:password)` from the URL: sent explicitly because the URL
    /// itself goes out without credentials.
    private func basicAuthorization() -> String? {
        guard let components = URLComponents(url: server, resolvingAgainstBaseURL: false),
              let user = components.user, !user.isEmpty else { return nil }
        return "Basic " + Data("\(user):\(components.password ?? "")".utf8).base64EncodedString()
    }

    /// The server URL's password and its `Basic` credentials: what a reply must not echo.
    private func secrets() -> [String] {
        guard let components = URLComponents(url: server, resolvingAgainstBaseURL: false) else { return [] }
        var found = [components.password, components.percentEncodedPassword].compactMap { $0 }.filter { !$0.isEmpty }
        if let basic = basicAuthorization() { found.append(String(basic.dropFirst("Basic ".count))) }
        return found
    }

    /// The first 200 bytes of a body as one line of text (control characters become
    /// spaces so `coolcal outbox` stays one line per entry).
    package static func snippet(_ body: Data) -> String {
        let text = String(decoding: body.prefix(200), as: UTF8.self)
        let flat = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
        return flat.trimmingCharacters(in: .whitespaces)
    }
}
