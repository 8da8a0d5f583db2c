import Foundation

#if canImport(FoundationXML)
import FoundationXML

#endif

/// A WebDAV `207 Multi-Status` body (RFC 4918 §13), reduced to what coolcal reads:
/// per `<D:response>` its href, status and the properties a `propstat` with a 2xx
/// status carried. Parsed with XMLParser (libxml2), namespace-aware, no external
/// entities.
package struct Multistatus: Equatable {
    package struct Response: Equatable {
        package var href = ""
        /// A `<D:status>` directly in the response (a resource that is gone, say).
        package var status: Int?
        package var etag: String?
        package var calendarData: String?
        /// `resourcetype` children as `namespace localname`, e.g. `DAV: collection`.
        package var resourceTypes: Set<String> = []
        package var displayName: String?
        package var color: String?
        /// RFC 6638 §9.1 `schedule-calendar-transp`: the element in it, `opaque` or
        /// `transparent` (nil when the server did not give it).
        package var scheduleTransp: String?
        /// The single-href properties (`current-user-principal`, `schedule-inbox-URL`,
        /// `schedule-default-calendar-URL`), keyed `namespace localname`.
        package var hrefs: [String: String] = [:]
    }

    package var responses: [Response]

    package static let dav = "DAV:"
    package static let caldav = "urn:ietf:params:xml:ns:caldav"
    package static let apple = "http://apple.com/ns/ical/"

    /// Nil when the data is not well-formed XML with a `DAV: multistatus` root.
    package init?(parsing data: Data) {
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        // FoundationXML's parse() can succeed on a truncated document: the root
        // must have been closed too.
        guard parser.parse(), reader.sawRoot, reader.closedRoot else { return nil }
        responses = reader.responses
    }

    /// The number in a status line such as `HTTP/1.1 404 Not Found`.
    package static func statusCode(_ line: String) -> Int? {
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var responses: [Response] = []
        var sawRoot = false
        var closedRoot = false
        private var path: [String] = []
        private var text = ""
        private var response: Response?
        private var pending = Response()
        private var propstatStatus: Int?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            let key = (namespaceURI ?? "") + " " + name
            if path.isEmpty {
                guard key == "DAV: multistatus" else { parser.abortParsing(); return }
                sawRoot = true
            }
            if path.last == "DAV: resourcetype" { pending.resourceTypes.insert(key) }
            if path.last == Multistatus.caldav + " schedule-calendar-transp", namespaceURI == Multistatus.caldav {
                pending.scheduleTransp = name
            }
            switch key {
            case "DAV: response": response = Response()
            case "DAV: propstat": pending = Response(); propstatStatus = nil
            default: break
            }
            path.append(key)
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, foundCDATA data: Data) { text += String(decoding: data, as: UTF8.self) }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let key = path.popLast() ?? ""
            if path.isEmpty { closedRoot = true }
            let inProp = path.last == "DAV: prop"
            switch key {
            case "DAV: href" where path.last == "DAV: response":
                response?.href = text.trimmingCharacters(in: .whitespacesAndNewlines)
            case "DAV: href" where path.count >= 2 && path[path.count - 2] == "DAV: prop":
                pending.hrefs[path[path.count - 1]] = text.trimmingCharacters(in: .whitespacesAndNewlines)
            case "DAV: status" where path.last == "DAV: response":
                response?.status = Multistatus.statusCode(text)
            case "DAV: status" where path.last == "DAV: propstat":
                propstatStatus = Multistatus.statusCode(text)
            case "DAV: getetag" where inProp:
                pending.etag = text.trimmingCharacters(in: .whitespacesAndNewlines)
            case Multistatus.caldav + " calendar-data" where inProp:
                pending.calendarData = text
            case "DAV: displayname" where inProp:
                pending.displayName = text
            case Multistatus.apple + " calendar-color" where inProp:
                pending.color = text.trimmingCharacters(in: .whitespacesAndNewlines)
            case "DAV: propstat":
                if let status = propstatStatus, (200..<300).contains(status) { merge(pending) }
            case "DAV: response":
                if let response { responses.append(response) }
                response = nil
            default:
                break
            }
            text = ""
        }

        /// A propstat's properties count only when its status is 2xx; servers list
        /// the properties they do not have under a 404 propstat.
        private func merge(_ found: Response) {
            guard var merged = response else { return }
            merged.etag = found.etag ?? merged.etag
            merged.calendarData = found.calendarData ?? merged.calendarData
            merged.displayName = found.displayName ?? merged.displayName
            merged.color = found.color ?? merged.color
            merged.resourceTypes.formUnion(found.resourceTypes)
            merged.scheduleTransp = found.scheduleTransp ?? merged.scheduleTransp
            merged.hrefs.merge(found.hrefs) { _, new in new }
            response = merged
        }
    }
}
