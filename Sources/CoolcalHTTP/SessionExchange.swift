import CoolcalSupport
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking

#endif
import Synchronization

/// One request sent with Foundation's URLSession, synchronously and never for longer
/// than its timeouts: what `coolcal-http` does for each frame coolcal hands it
/// (`HTTPExchange` says what the reply means).
enum SessionExchange {
    /// `request` sent; `timedOut` when the whole exchange took longer than its resource
    /// timeout (plus a moment for the session to report).
    static func send(_ request: HTTPRequest) -> HTTPExchange.Reply {
        guard let url = URL(string: request.url), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            var reply = HTTPExchange.Reply()
            reply.errorCode = URLError.Code.badURL.rawValue
            return reply
        }
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: request.requestTimeout)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for header in request.headers { urlRequest.setValue(header.value, forHTTPHeaderField: header.name) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = request.requestTimeout
        configuration.timeoutIntervalForResource = request.resourceTimeout
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        // One session per request: its delegate collects this exchange only, and
        // invalidating it frees libcurl's handles before the next request.
        let delegate = SessionDelegate(limit: request.limit, overflow: request.overflow)
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        let task = session.dataTask(with: urlRequest)
        task.resume()
        guard delegate.wait(seconds: request.resourceTimeout + 1) else {
            task.cancel()
            session.invalidateAndCancel()
            var reply = HTTPExchange.Reply()
            reply.timedOut = true
            return reply
        }
        session.finishTasksAndInvalidate()
        return delegate.reply
    }
}

/// The session delegate: collects the reply on URLSession's queue.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    let limit: Int
    let overflow: HTTPExchange.Overflow
    private let state = Mutex(HTTPExchange.Reply())
    private let finished = DispatchSemaphore(value: 0)

    init(limit: Int, overflow: HTTPExchange.Overflow) {
        self.limit = limit
        self.overflow = overflow
    }

    func wait(seconds: TimeInterval) -> Bool {
        finished.wait(timeout: .now() + seconds) == .success
    }

    var reply: HTTPExchange.Reply { state.withLock { $0 } }

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
