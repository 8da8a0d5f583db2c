import CoolcalModel

/// Why a CalDAV calendar could not be read or written. The message names the URL
/// without credentials; the kind decides the exit status (`exitStatus`).
package struct CalDAVError: StatusError, CustomStringConvertible, Equatable, Sendable {
    package enum Kind: Equatable, Sendable {
        /// No usable answer: refused, timed out, unknown host, TLS, 5xx, 408, 429 (75).
        case unreachable
        /// 401 or 403: missing or wrong credentials, or no access (77).
        case denied
        /// The URL is not a CalDAV calendar collection: 404, a plain web page, a
        /// WebDAV collection that is not a calendar, a redirect (65).
        case notCalendar
        /// The server answered, but not with what CalDAV promises (65).
        case badResponse
        /// 412 on a conditional `PUT`: the resource exists (`.create`) or changed since
        /// its etag was read (`.replace`). Callers re-read and retry; otherwise 75.
        case preconditionFailed
        /// The argument is not an `http(s)://` URL with a host (64).
        case invalidURL
    }

    package var kind: Kind
    /// The URL concerned, with any `user:password@` removed.
    package var url: String
    package var message: String
    /// The HTTP status, when the server sent one.
    package var status: Int?

    package init(_ kind: Kind, url: String, _ message: String, status: Int? = nil) {
        self.kind = kind
        self.url = url
        self.message = message
        self.status = status
    }

    package var description: String { "\(url): \(message)" }

    /// The kind's status, as each kind says above.
    package var exitStatus: ExitStatus {
        switch kind {
        case .unreachable, .preconditionFailed: return .tempFail
        case .denied: return .noPermission
        case .notCalendar, .badResponse: return .dataError
        case .invalidURL: return .usage
        }
    }
}
