import Foundation

/// One HTTP request, sent synchronously and never for longer than its timeouts (cron
/// must not hang on a stalled server): what the RSVP client and the CalDAV client
/// both send, handed to `coolcal-http` (`HTTPHelper`), which sends it with Foundation's
/// URLSession. Redirects are refused, not followed (a followed redirect would turn a
/// POST into a GET elsewhere, or send a PUT where nobody looks), and a 401 with
/// `WWW-Authenticate` is an answer, not a question: the credentials went with the
/// request and there are no others to try.
package enum HTTPExchange {
    /// What the server said, as far as it got.
    package struct Reply: Sendable {
        package var status: Int?
        /// `ETag`, `Location`, `Content-Type` and `DAV` (the compliance classes), when sent.
        package var etag: String?
        package var location: String?
        package var contentType: String?
        package var dav: String?
        package var body = Data()
        /// The body was longer than the limit (see `Overflow`).
        package var overflow = false
        /// A `URLError.Code` raw value when the transfer failed.
        package var errorCode: Int?
        /// The server asked for (other) credentials; the task was cancelled on
        /// purpose and `status` is the answer.
        package var challenged = false
        /// No answer within the resource timeout (plus a moment for the session to report).
        package var timedOut = false
        /// The helper could not be started or did not answer as it should: why.
        package var helperProblem: String?

        package init() {}

        /// A transfer error that is not one of the answers above, in words.
        package func failure(requestTimeout: TimeInterval) -> String? {
            if let helperProblem { return helperProblem }
            guard let errorCode, !challenged, !(300..<400).contains(status ?? 0) else { return nil }
            return HTTPExchange.describe(errorCode, requestTimeout: requestTimeout)
        }
    }

    /// What happens to a body longer than the limit.
    package enum Overflow: Sendable {
        /// Keep its start, read on (a reason for a message).
        case truncate
        /// Stop the transfer: the whole body was needed.
        case cancel
    }

    /// Sends `request` through the helper; nil when the whole exchange took longer than
    /// its resource timeout (plus a moment for the session to report).
    package static func send(_ request: HTTPRequest) -> Reply? {
        let reply = HTTPHelper.exchange(request)
        return reply.timedOut ? nil : reply
    }

    /// A transfer error in words.
    package static func describe(_ code: Int, requestTimeout: TimeInterval) -> String {
        switch URLError.Code(rawValue: code) {
        case .timedOut: return "timed out after \(seconds(requestTimeout))"
        case .cannotConnectToHost: return "connection refused"
        case .cannotFindHost, .dnsLookupFailed: return "unknown host"
        case .networkConnectionLost: return "connection lost"
        case .notConnectedToInternet: return "network unreachable"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return "TLS connection failed"
        case .cancelled: return "cancelled"
        default: return "network error \(code)"
        }
    }

    package static func seconds(_ t: TimeInterval) -> String { String(format: "%g s", t) }

    /// Seconds a request to a server may take: `COOLCAL_SERVER_TIMEOUT` (0.1 to 300),
    /// default 5. A stalled server must not hang cron.
    package static func timeout(environment: [String: String]) -> TimeInterval {
        environment["COOLCAL_SERVER_TIMEOUT"].flatMap(TimeInterval.init).map { min(max($0, 0.1), 300) } ?? 5
    }
}
