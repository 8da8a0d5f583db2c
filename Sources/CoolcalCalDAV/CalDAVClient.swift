import CoolcalICal
import CoolcalModel
import CoolcalSupport
import Foundation

/// A CalDAV calendar collection (RFC 4791) over HTTP(S): read its events in a window,
/// read, create and replace single resources with etags. Synchronous, one request at
/// a time, every request bounded by the timeouts. Errors are `CalDAVError`s that name
/// the URL without credentials.
package struct CalDAVClient: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// One calendar object resource: its href as the server wrote it (usually an
    /// absolute path), its etag (nil when the server sent none) and its iCalendar text.
    package struct Resource: Equatable, Sendable {
        package var href: String
        package var etag: String?
        package var data: Data

        package init(href: String, etag: String?, data: Data) {
            self.href = href
            self.etag = etag
            self.data = data
        }
    }

    /// What a conditional `PUT` requires of the resource.
    package enum Precondition: Equatable, Sendable {
        /// It must not exist yet (`If-None-Match: *`).
        case create
        /// It must still have this etag (`If-Match`).
        case replace(etag: String)
    }

    /// What `verify` learned about the collection.
    package struct Collection: Equatable, Sendable {
        package var displayName: String?
        /// `#RRGGBB` or `#RRGGBBAA` as the server keeps it, when it does.
        package var color: String?
        /// RFC 6638 §9.1 `schedule-calendar-transp`: true for `transparent` (its
        /// events are no busy time), false for `opaque`, nil when not offered.
        package var transparent: Bool? = nil
    }

    /// The collection (its URL has no credentials in it).
    package let location: CalDAVLocation
    /// What is sent as HTTP Basic with every request; nil: nothing.
    package let credentials: CalDAVCredentials?
    private let transport: DAVTransport

    /// The collection as messages show it: never a password, however it is printed.
    package var description: String { location.display }
    package var debugDescription: String { "CalDAVClient(\(location.display))" }

    /// Time ranges sent to the server are this much wider on each side than the
    /// window asked for: servers differ on floating times and unknown zones, so
    /// they only pre-select and coolcal decides overlap itself.
    package static let slack: Int64 = 86_400

    /// - Parameters: `requestTimeout` is seconds without progress (at least one,
    ///   libcurl counts whole seconds); a whole request may take twelve times that.
    package init(location: CalDAVLocation, credentials: CalDAVCredentials?, requestTimeout: TimeInterval = 5) {
        self.location = location
        self.credentials = credentials
        let timeout = max(1, requestTimeout.rounded(.up))
        transport = DAVTransport(requestTimeout: timeout, resourceTimeout: timeout * 12)
    }

    /// The client for a calendar argument: credentials from the URL or the netrc
    /// file, the timeout from `COOLCAL_SERVER_TIMEOUT` (seconds, default 5).
    package init(calendar: String, environment: [String: String], diagnostics: Diagnostics? = nil) throws {
        let location = try CalDAVLocation(calendar)
        let timeout = HTTPExchange.timeout(environment: environment)
        self.init(location: location,
                  credentials: CalDAVCredentials.resolve(for: location, environment: environment, diagnostics: diagnostics),
                  requestTimeout: timeout)
    }

    /// Checks that the URL is a calendar collection (`PROPFIND`, `Depth: 0`, its
    /// `resourcetype` holds `C:calendar`); anything else is `.notCalendar`.
    @discardableResult
    package func verify() throws -> Collection {
        let response = try send("PROPFIND", location.url, depth: "0", body: CalDAVRequestBody.propfind)
        let status = try multistatus(response, method: "PROPFIND", url: location.url)
        let me = status.responses.first { location.resolve($0.href) == location.url } ?? status.responses.first
        guard let me else {
            throw CalDAVError(.badResponse, url: location.display, "PROPFIND: the answer describes no resource")
        }
        guard me.resourceTypes.contains(Multistatus.caldav + " calendar") else {
            let what: String
            if me.resourceTypes.contains("DAV: principal") {
                what = "a user's principal, not a calendar (name one of its calendar collections)"
            } else if me.resourceTypes.contains("DAV: collection") {
                what = "a WebDAV collection, but not a calendar"
            } else {
                what = "a WebDAV resource, but not a calendar collection"
            }
            throw CalDAVError(.notCalendar, url: location.display, "not a CalDAV calendar: \(what)")
        }
        let transparent: Bool? = switch me.scheduleTransp {
        case "transparent"?: true
        case "opaque"?: false
        default: nil
        }
        return Collection(displayName: me.displayName, color: me.color.flatMap { $0.isEmpty ? nil : $0 },
                          transparent: transparent)
    }

    /// The calendar the server puts new invitations in (RFC 6638 §9.2
    /// `schedule-default-calendar-URL` on the scheduling inbox), found with one
    /// `PROPFIND` each for the current user's principal, its `schedule-inbox-URL` and
    /// that property; nil when a step is not offered (any answer but a 207 with it).
    package func defaultCalendarURL() throws -> URL? {
        guard let principal = try hrefProperty(location.url, "D:current-user-principal", Multistatus.dav + " current-user-principal"),
              let inbox = try hrefProperty(principal, "C:schedule-inbox-URL", Multistatus.caldav + " schedule-inbox-URL")
        else { return nil }
        return try hrefProperty(inbox, "C:schedule-default-calendar-URL", Multistatus.caldav + " schedule-default-calendar-URL")
    }

    private func hrefProperty(_ url: URL, _ property: String, _ key: String) throws -> URL? {
        let response = try send("PROPFIND", url, depth: "0", body: CalDAVRequestBody.propfind(property))
        guard response.status == 207, let status = Multistatus(parsing: response.body) else { return nil }
        let me = status.responses.first { location.resolve($0.href) == url } ?? status.responses.first
        return me?.hrefs[key].flatMap { location.resolve($0) }
    }

    /// The compliance classes the server names in `DAV` for the collection (`OPTIONS`):
    /// `calendar-auto-schedule` says it schedules (RFC 6638 §2). Lower-cased.
    public func complianceClasses() throws -> [String] {
        let response = try send("OPTIONS", location.url)
        guard (200..<300).contains(response.status) else { throw failure(response, method: "OPTIONS", url: location.url) }
        return (response.dav ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
    }

    /// Every VEVENT resource that may reach `window` (a `calendar-query` REPORT with a
    /// time-range widened by `slack` each side; all of them without a window), sorted
    /// by href.
    package func query(window: TimeWindow?) throws -> [Resource] {
        let range = window.map { (start: $0.start - Self.slack, end: $0.end + Self.slack) }
        return try report(CalDAVRequestBody.calendarQuery(range: range))
    }

    /// The resource holding a VEVENT whose UID is exactly `uid`, or nil. The server
    /// pre-selects with a `text-match` (a substring match); the UIDs are then checked.
    package func find(uid: String) throws -> Resource? {
        let candidates = CalDAVRequestBody.isXMLSafe(uid)
            ? try report(CalDAVRequestBody.calendarQuery(uid: uid)) : try report(CalDAVRequestBody.calendarQuery())
        return candidates.first { resource in
            guard let calendar = try? ICalReader.read(resource.data, file: location.resourceName(resource.href)) else {
                return false
            }
            return calendar.events.contains { $0.uid == uid }
        }
    }

    /// The resource at `href` (a path on this server or a full URL), or nil when the
    /// server says 404 or 410.
    package func get(_ href: String) throws -> Resource? {
        let url = try resolve(href)
        let response = try send("GET", url, accept: "text/calendar")
        switch response.status {
        case 200..<300: return Resource(href: href, etag: response.etag, data: response.body)
        case 404, 410: return nil
        default: throw failure(response, method: "GET", url: url)
        }
    }

    /// Stores `data` at `href` if `precondition` holds and returns the new etag (nil
    /// when the server sends none, as it may when it changed the data). A failed
    /// precondition is a `.preconditionFailed` error: re-read and retry.
    @discardableResult
    package func put(_ href: String, data: Data, precondition: Precondition) throws -> String? {
        let url = try resolve(href)
        var headers = ["Content-Type": "text/calendar; charset=utf-8"]
        switch precondition {
        case .create: headers["If-None-Match"] = "*"
        case .replace(let etag): headers["If-Match"] = etag
        }
        let response = try transport.send(method: "PUT", url: url, headers: headers, body: data, credentials: credentials)
        switch response.status {
        case 200..<300: return response.etag
        case 412:
            let what = precondition == .create ? "it exists already" : "it changed since it was read"
            throw CalDAVError(.preconditionFailed, url: CalDAVLocation.redact(url.absoluteString),
                              "PUT: precondition failed (HTTP 412): \(what)", status: 412)
        default: throw failure(response, method: "PUT", url: url)
        }
    }

    /// Deletes the resource at `href` if its etag is still `etag` (`If-Match`); one
    /// already gone counts as deleted. A failed precondition is `.preconditionFailed`.
    package func delete(_ href: String, etag: String) throws {
        let url = try resolve(href)
        let response = try transport.send(method: "DELETE", url: url, headers: ["If-Match": etag], body: nil,
                                          credentials: credentials)
        switch response.status {
        case 200..<300, 404, 410: return
        case 412:
            throw CalDAVError(.preconditionFailed, url: CalDAVLocation.redact(url.absoluteString),
                              "DELETE: precondition failed (HTTP 412): it changed since it was read", status: 412)
        default: throw failure(response, method: "DELETE", url: url)
        }
    }

    /// Creates the collection with the server's defaults (`MKCALENDAR`).
    package func makeCalendar() throws {
        let response = try send("MKCALENDAR", location.url, body: CalDAVRequestBody.mkcalendar)
        guard (200..<300).contains(response.status) else { throw failure(response, method: "MKCALENDAR", url: location.url) }
    }

    /// The href for a new resource named `name` in this collection.
    package func href(forName name: String) -> String { location.href(forName: name) }

    // MARK: - Requests

    /// The resources of a calendar-query. One listed without its calendar data (a
    /// server may leave it out) is fetched with `GET`: a missing resource would
    /// make a busy window look free.
    private func report(_ body: Data) throws -> [Resource] {
        let response = try send("REPORT", location.url, depth: "1", body: body)
        let status = try multistatus(response, method: "REPORT", url: location.url)
        var resources: [Resource] = []
        for item in status.responses {
            guard item.status.map({ (200..<300).contains($0) }) ?? true else { continue }
            guard let url = location.resolve(item.href) else {
                throw CalDAVError(.badResponse, url: location.display,
                                  "REPORT: the answer names a resource on another server or an unusable href")
            }
            if url == location.url { continue }
            if let text = item.calendarData {
                resources.append(Resource(href: item.href, etag: item.etag, data: Data(text.utf8)))
            } else if let fetched = try get(item.href) {
                resources.append(fetched)
            }
        }
        return resources.sorted { $0.href < $1.href }
    }

    private func send(_ method: String, _ url: URL, depth: String? = nil, accept: String? = nil,
                      body: Data? = nil) throws -> DAVTransport.Response {
        var headers: [String: String] = [:]
        if let depth { headers["Depth"] = depth }
        if body != nil { headers["Content-Type"] = "application/xml; charset=utf-8" }
        if let accept { headers["Accept"] = accept }
        return try transport.send(method: method, url: url, headers: headers, body: body, credentials: credentials)
    }

    private func resolve(_ href: String) throws -> URL {
        guard let url = location.resolve(href) else {
            throw CalDAVError(.invalidURL, url: location.display,
                              "'\(CalDAVLocation.redact(href))' is not a resource on this server")
        }
        return url
    }

    /// The parsed 207 of a PROPFIND or REPORT; any other answer is an error.
    private func multistatus(_ response: DAVTransport.Response, method: String, url: URL) throws -> Multistatus {
        let shown = CalDAVLocation.redact(url.absoluteString)
        switch response.status {
        case 207:
            guard let parsed = Multistatus(parsing: response.body) else {
                throw CalDAVError(.badResponse, url: shown, "\(method): the 207 answer is not a WebDAV multistatus", status: 207)
            }
            return parsed
        case 200..<300:
            let type = response.contentType.map { " with \($0.split(separator: ";").first ?? "")" } ?? ""
            throw CalDAVError(.notCalendar, url: shown,
                              "not a CalDAV calendar: \(method) answered HTTP \(response.status)\(type), not a WebDAV multistatus",
                              status: response.status)
        case 404, 410:
            throw CalDAVError(.notCalendar, url: shown, "not a CalDAV calendar: no such collection (HTTP \(response.status))",
                              status: response.status)
        case 400, 405, 415, 422, 501:
            throw CalDAVError(.notCalendar, url: shown,
                              "not a CalDAV calendar: \(method) refused with HTTP \(response.status) \(Self.reason(response.status))"
                                + (response.status == 405 || response.status == 501 ? " (not a WebDAV server?)" : ""),
                              status: response.status)
        default:
            throw failure(response, method: method, url: url)
        }
    }

    /// The error for an answer the operation cannot use: 401/403 are `.denied`, 3xx a
    /// refused redirect naming its target, 5xx/408/429 `.unreachable`, the rest `.badResponse`.
    private func failure(_ response: DAVTransport.Response, method: String, url: URL) -> CalDAVError {
        let shown = CalDAVLocation.redact(url.absoluteString)
        let status = response.status
        let http = "HTTP \(status) \(Self.reason(status))"
        switch status {
        case 401:
            let message = credentials.map { "the server refused the credentials for \($0.user) from \($0.source) (\(http))" }
                ?? "the server wants credentials (\(http)); give them in ~/.netrc or as user:password@ in the URL"
            return CalDAVError(.denied, url: shown, message, status: status)
        case 403:
            return CalDAVError(.denied, url: shown, "access denied (\(http))", status: status)
        case 300..<400:
            let target = response.location.flatMap { URL(string: $0, relativeTo: url)?.absoluteURL }
                .map { "redirected to \(CalDAVLocation.redact($0.absoluteString))" } ?? "redirected"
            return CalDAVError(.notCalendar, url: shown, "\(target) (\(http)); coolcal does not follow redirects: use that URL",
                               status: status)
        case 408, 429, 500...:
            return CalDAVError(.unreachable, url: shown, "\(method): the server failed (\(http))", status: status)
        default:
            return CalDAVError(.badResponse, url: shown, "\(method): unexpected answer (\(http))", status: status)
        }
    }

    private static func reason(_ status: Int) -> String {
        HTTPStatusName.of(status)
    }
}
