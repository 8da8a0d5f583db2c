import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking

#endif
import Synchronization

/// One HTTP request, sent synchronously and never for longer than its timeouts (cron
/// must not hang on a stalled server): what the RSVP client and the CalDAV client
/// both send. Redirects are refused, not followed (a followed redirect would turn a
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

        /// A transfer error that is not one of the answers above.
        package var failure: Int? {
            guard let errorCode, !challenged, !(300..<400).contains(status ?? 0) else { return nil }
            return errorCode
        }
    }

    /// What happens to a body longer than the limit.
    package enum Overflow: Sendable {
        /// Keep its start, read on (a reason for a message).
        case truncate
        /// Stop the transfer: the whole body was needed.
        case cancel
    }

    /// Sends `request`; nil when the whole exchange took longer than
    /// `resourceTimeout` (plus a moment for the session to report).
    package static func send(_ request: URLRequest, requestTimeout: TimeInterval, resourceTimeout: TimeInterval,
                     limit: Int, overflow: Overflow) -> Reply? {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = requestTimeout
        configuration.timeoutIntervalForResource = resourceTimeout
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        // One session per request: its delegate collects this exchange only, and
        // invalidating it frees libcurl's handles before the next request.
        let delegate = Delegate(limit: limit, overflow: overflow)
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        let task = session.dataTask(with: request)
        task.resume()
        guard delegate.wait(seconds: resourceTimeout + 1) else {
            task.cancel()
            session.invalidateAndCancel()
            return nil
        }
        session.finishTasksAndInvalidate()
        return delegate.reply
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

    /// The session delegate: collects the reply on URLSession's queue.
    private final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
        let limit: Int
        let overflow: Overflow
        private let state = Mutex(Reply())
        private let finished = DispatchSemaphore(value: 0)

        init(limit: Int, overflow: Overflow) {
            self.limit = limit
            self.overflow = overflow
        }

        func wait(seconds: TimeInterval) -> Bool {
            finished.wait(timeout: .now() + seconds) == .success
        }

        var reply: Reply { state.withLock { $0 } }

        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @Sendable @escaping (URLRequest?) -> Void) {
            completionHandler(nil)
        }

        /// Cancelled: FoundationNetworking's default handling without a stored
        /// credential never completes the task (it waited out the timeout and looked
        /// like a server that is down).
        func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                        completionHandler: @Sendable @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
            let status = (challenge.failureResponse as? HTTPURLResponse)?.statusCode ?? 401
            state.withLock { reply in
                reply.challenged = true
                if reply.status == nil { reply.status = status }
            }
            completionHandler(.cancelAuthenticationChallenge, nil)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @Sendable @escaping (URLSession.ResponseDisposition) -> Void) {
            if let http = response as? HTTPURLResponse { record(http) }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let cancel = state.withLock { reply -> Bool in
                let room = limit - reply.body.count
                if data.count <= room {
                    reply.body.append(data)
                    return false
                }
                if room > 0 { reply.body.append(data.prefix(room)) }
                let first = !reply.overflow
                reply.overflow = true
                return first && overflow == .cancel
            }
            if cancel { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            // The final response, also for an unfollowed redirect, which may skip didReceive.
            if let http = task.response as? HTTPURLResponse { record(http) }
            let code = error.map { ($0 as? URLError)?.code.rawValue ?? URLError.Code.unknown.rawValue }
            state.withLock { $0.errorCode = code }
            finished.signal()
        }

        private func record(_ response: HTTPURLResponse) {
            let etag = response.value(forHTTPHeaderField: "ETag")
            let location = response.value(forHTTPHeaderField: "Location")
            let type = response.value(forHTTPHeaderField: "Content-Type")
            let dav = response.value(forHTTPHeaderField: "DAV")
            state.withLock { reply in
                reply.status = response.statusCode
                reply.etag = etag
                reply.location = location
                reply.contentType = type
                reply.dav = dav
            }
        }
    }
}
