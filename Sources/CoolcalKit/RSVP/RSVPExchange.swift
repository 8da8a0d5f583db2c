import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// The session delegate for one RSVP request: collects the status, the start of the
/// body and the error from URLSession's queue, and lets the caller wait for the end.
///
/// A delegate (rather than a completion handler) is what lets coolcal refuse
/// redirects: following one would turn the POST into a GET elsewhere and a 2xx
/// from there would wrongly count as delivered.
final class RSVPExchange: NSObject, URLSessionDataDelegate, Sendable {
    struct Reply: Sendable {
        var status: Int?
        /// At most `limit` bytes: enough for the reason, bounded against huge pages.
        var body = Data()
        /// A `URLError.Code` raw value when the transfer failed.
        var errorCode: Int?
        /// The server asked for (other) credentials; the task ended cancelled.
        var challenged = false
    }

    private static let limit = 4096
    private let state = Mutex(Reply())
    private let finished = DispatchSemaphore(value: 0)

    /// Waits until the task completed; false when `seconds` passed first.
    func wait(seconds: TimeInterval) -> Bool {
        finished.wait(timeout: .now() + seconds) == .success
    }

    var reply: Reply { state.withLock { $0 } }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @Sendable @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    /// A 401 with `WWW-Authenticate`: the credentials (if any) went with the request,
    /// there are no others. Cancelled, because FoundationNetworking's default handling
    /// without a stored credential never completes the task (the answer waited out the
    /// timeout and looked like a server that is down).
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
        let status = (response as? HTTPURLResponse)?.statusCode
        state.withLock { $0.status = status }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state.withLock { reply in
            let room = Self.limit - reply.body.count
            if room > 0 { reply.body.append(data.prefix(room)) }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        // The final response, also for an unfollowed redirect, which may skip didReceive.
        let status = (task.response as? HTTPURLResponse)?.statusCode
        let code = error.map { ($0 as? URLError)?.code.rawValue ?? URLError.Code.unknown.rawValue }
        state.withLock { reply in
            if let status { reply.status = status }
            reply.errorCode = code
        }
        finished.signal()
    }
}
