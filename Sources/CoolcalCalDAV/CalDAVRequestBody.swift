import Foundation
import CoolcalModel
import CoolcalSupport

/// The XML bodies coolcal sends (RFC 4918 PROPFIND, RFC 4791 calendar-query).
package enum CalDAVRequestBody {
    /// What `verify` asks of the collection: its kind, name, colour (Apple's
    /// `calendar-color`, which most servers keep) and RFC 6638's
    /// `schedule-calendar-transp` (a server without it lists it as not found).
    package static let propfind = Data("""
        <?xml version="1.0" encoding="utf-8"?>
        <D:propfind xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:A="http://apple.com/ns/ical/">
          <D:prop><D:resourcetype/><D:displayname/><A:calendar-color/><C:schedule-calendar-transp/></D:prop>
        </D:propfind>
        """.utf8)

    /// A PROPFIND for one property, `D:name` (WebDAV) or `C:name` (CalDAV).
    package static func propfind(_ property: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="utf-8"?>
            <D:propfind xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><\(property)/></D:prop></D:propfind>
            """.utf8)
    }

    /// MKCALENDAR with no properties: the server's defaults.
    package static let mkcalendar = Data("""
        <?xml version="1.0" encoding="utf-8"?>
        <C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"/>
        """.utf8)

    /// A calendar-query for every VEVENT resource, with its etag and data:
    /// within `range` (UTC seconds) when given, with that `uid` (substring match,
    /// `i;octet`; RFC 4791 has no equality match) when given.
    package static func calendarQuery(range: (start: Int64, end: Int64)? = nil, uid: String? = nil) -> Data {
        var filter = ""
        if let range {
            filter += "<C:time-range start=\"\(stamp(range.start))\" end=\"\(stamp(range.end))\"/>"
        }
        if let uid {
            filter += "<C:prop-filter name=\"UID\"><C:text-match collation=\"i;octet\">\(escape(uid))</C:text-match></C:prop-filter>"
        }
        return Data("""
            <?xml version="1.0" encoding="utf-8"?>
            <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
              <D:prop><D:getetag/><C:calendar-data/></D:prop>
              <C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT">\(filter)</C:comp-filter></C:comp-filter></C:filter>
            </C:calendar-query>
            """.utf8)
    }

    /// `YYYYMMDDTHHMMSSZ`, clamped to years 1–9999 (a window can reach further).
    package static func stamp(_ seconds: Int64) -> String {
        let t = CivilDateTime(utcSeconds: min(max(seconds, TimeWindow.firstInstant), TimeWindow.lastInstant))
        return t.basicDateTime + "Z"
    }

    /// Text content escaped for XML.
    package static func escape(_ text: String) -> String { MarkupText.escaped(text) }

    /// True when XML 1.0 can carry the text at all (no control characters but tab,
    /// newline and carriage return).
    package static func isXMLSafe(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { s in
            s.value >= 0x20 ? !(0xFFFE...0xFFFF).contains(s.value) : (s == "\t" || s == "\n" || s == "\r")
        }
    }
}
