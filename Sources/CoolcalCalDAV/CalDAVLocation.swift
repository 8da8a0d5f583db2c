import Foundation
import CoolcalModel

/// A calendar collection's address as the user wrote it, split into the URL that goes
/// on the wire (no user info, no fragment, path ending in `/`), the credentials it
/// carried, and the text every message shows (`https://host/cal/`, never a password).
package struct CalDAVLocation: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The collection, without credentials; its path ends in `/`.
    package let url: URL
    /// `user` and `password` from `user:password@`, percent-decoded.
    package let user: String?
    package let password: String?

    /// True when a calendar argument names a CalDAV collection (see `CalendarLocation`).
    package static func isURL(_ text: String) -> Bool { CalendarLocation.isURL(text) }

    /// Parses `text`; an unusable URL is an `.invalidURL` error that shows it redacted.
    package init(_ text: String) throws {
        let shown = Self.redact(text)
        guard Self.isURL(text), var components = URLComponents(string: text) else {
            throw CalDAVError(.invalidURL, url: shown, "not a valid http(s) URL")
        }
        guard let host = components.host, !host.isEmpty else {
            throw CalDAVError(.invalidURL, url: shown, "the URL has no host")
        }
        user = components.user.flatMap { $0.isEmpty ? nil : $0 }
        password = components.password
        components.user = nil
        components.password = nil
        components.fragment = nil
        components.scheme = components.scheme?.lowercased()
        if !components.percentEncodedPath.hasSuffix("/") { components.percentEncodedPath += "/" }
        guard let url = components.url else { throw CalDAVError(.invalidURL, url: shown, "not a valid http(s) URL") }
        self.url = url
    }

    /// The collection as messages show it.
    package var display: String { Self.redact(url.absoluteString) }

    /// `display`, so that no interpolation or dump can show the password.
    package var description: String { display }
    package var debugDescription: String { "CalDAVLocation(\(display))" }

    /// The name the calendar goes by in output: the collection's last path segment,
    /// percent-decoded (`work` for `https://host/dav/alice/work/`), else the host.
    package var name: String { CalendarLocation.remote(url.absoluteString).name }

    /// The text with any `user:password@` removed (see `CalendarLocation.redact`).
    package static func redact(_ text: String) -> String { CalendarLocation.redact(text) }

    /// An href from the server (an absolute path or a full URL) as a URL on this
    /// collection's server; nil when it does not parse or points at another origin,
    /// where coolcal's credentials must not go.
    package func resolve(_ href: String) -> URL? {
        guard let resolved = URL(string: href, relativeTo: url)?.absoluteURL,
              resolved.scheme?.lowercased() == url.scheme, resolved.host?.lowercased() == url.host?.lowercased(),
              resolved.port == url.port else { return nil }
        return resolved
    }

    /// The href of a new resource called `name` in this collection: the name
    /// percent-encoded as one path segment (no `/`, no dot-segments).
    package func href(forName name: String) -> String {
        var segment = name.addingPercentEncoding(withAllowedCharacters: Self.segmentCharacters) ?? ""
        if segment.isEmpty { segment = "_" }
        if segment == "." || segment == ".." { segment = segment.replacingOccurrences(of: ".", with: "%2E") }
        return url.path(percentEncoded: true) + segment
    }

    /// What warnings call one resource: the collection as shown, then the href's last
    /// segment (`https://host/cal/event.ics`).
    package func resourceName(_ href: String) -> String {
        let last = href.split(separator: "/").last.map(String.init) ?? href
        var base = display
        while base.hasSuffix("/") { base.removeLast() }
        let decoded = last.removingPercentEncoding ?? last
        // The href comes from the server: no control characters reach the terminal.
        let printable = String(decoded.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) })
        return base + "/" + printable
    }

    /// RFC 3986 unreserved characters plus a few sub-delimiters that are safe in a segment.
    private static let segmentCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~@+=")
}
