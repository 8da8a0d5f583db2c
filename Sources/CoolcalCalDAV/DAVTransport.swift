import CoolcalSupport
import Foundation

/// Sends one WebDAV request synchronously, never for longer than the timeouts (cron
/// must not hang on a stalled server), and turns "no answer" into `.unreachable`.
package struct DAVTransport: Sendable {
    /// What the server said.
    package struct Response: Sendable {
        package var status: Int
        package var etag: String?
        package var location: String?
        package var contentType: String?
        package var body: Data
        /// The `DAV` header: the compliance classes (`calendar-auto-schedule`…).
        package var dav: String? = nil
    }

    /// Seconds without progress before a request is abandoned.
    package let requestTimeout: TimeInterval
    /// Seconds a whole request may take, also enforced here (libcurl does not always).
    package let resourceTimeout: TimeInterval
    /// The largest body coolcal accepts (a whole calendar in one REPORT).
    package static let maxBody = 256 << 20

    package func send(method: String, url: URL, headers: [String: String], body: Data?,
              credentials: CalDAVCredentials?) throws -> Response {
        let shown = CalDAVLocation.redact(url.absoluteString)
        var fields = headers.sorted { $0.key < $1.key }.map { HTTPHeader($0.key, $0.value) }
        // Sent up front: the URL goes out without user info, and a 401 round trip
        // per request would double the requests for nothing.
        if let credentials { fields.append(HTTPHeader("Authorization", credentials.authorization)) }
        let request = HTTPRequest(method: method, url: url.absoluteString, headers: fields, body: body, requestTimeout: requestTimeout,
                                  resourceTimeout: resourceTimeout, limit: Self.maxBody, overflow: .cancel)
        guard let reply = HTTPExchange.send(request) else {
            throw CalDAVError(.unreachable, url: shown, "\(method): no answer within \(HTTPExchange.seconds(resourceTimeout))")
        }
        if reply.overflow {
            throw CalDAVError(.badResponse, url: shown, "\(method): the answer is larger than \(Self.maxBody >> 20) MiB",
                              status: reply.status)
        }
        if let failure = reply.failure(requestTimeout: requestTimeout) {
            throw CalDAVError(.unreachable, url: shown, "cannot reach the server: \(failure)")
        }
        guard let status = reply.status else {
            throw CalDAVError(.unreachable, url: shown, "cannot reach the server: no HTTP response")
        }
        return Response(status: status, etag: reply.etag, location: reply.location, contentType: reply.contentType,
                        body: reply.body, dav: reply.dav)
    }
}
