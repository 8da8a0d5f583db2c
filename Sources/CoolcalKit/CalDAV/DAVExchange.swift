import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// The session delegate for one WebDAV request: collects the status, the headers
/// coolcal reads, the body (up to `limit`) and the error, and lets the caller wait.
/// A delegate, like `RSVPExchange`, so that redirects are refused, not followed: a
/// followed redirect would send a `PUT` elsewhere and hide where the calendar went.
final class DAVExchange: NSObject, URLSessionDataDelegate, Sendable {
    struct Reply: Sendable {
        var status: Int?
        /// `ETag`, `Location` and `Content-Type`, when sent.
        var etag: String?
        var location: String?
        var contentType: String?
        var body = Data()
        /// The body was longer than `limit`; the transfer was cancelled.
        var overflow = false
        /// A `URLError.Code` raw value when the transfer failed.
        var errorCode: Int?
        /// The server asked for credentials (401 with `WWW-Authenticate`); the task
        /// was cancelled on purpose and `status` is the answer.
        var challenged = false
    }

    let limit: Int
    private let state = Mutex(Reply())
    private let finished = DispatchSemaphore(value: 0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Waits until the task completed; false when `seconds` passed first.
    func wait(seconds: TimeInterval) -> Bool {
        finished.wait(timeout: .now() + seconds) == .success
    }

    var reply: Reply { state.withLock { $0 } }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @Sendable @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    /// A 401 with `WWW-Authenticate` is the answer, not a question: the credentials
    /// were sent up front and there are no others to try. The challenge is cancelled
    /// (FoundationNetworking's default handling without a stored credential never
    /// completes the task); the 401 itself arrived in `didReceive response` before.
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
        let over = state.withLock { reply -> Bool in
            guard !reply.overflow else { return false }
            guard reply.body.count + data.count <= limit else {
                reply.overflow = true
                return true
            }
            reply.body.append(data)
            return false
        }
        if over { dataTask.cancel() }
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
        state.withLock { reply in
            reply.status = response.statusCode
            reply.etag = etag
            reply.location = location
            reply.contentType = type
        }
    }
}
