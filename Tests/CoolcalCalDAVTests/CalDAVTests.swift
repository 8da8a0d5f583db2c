import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalSupport
@testable import CoolcalICal
@testable import CoolcalState
@testable import CoolcalCalDAV
@testable import CoolcalWriting

/// The parts of the CalDAV client that need no server: URLs, netrc, XML.
@Suite struct CalDAVTests {
    @Test(arguments: [
        ("https://alice:pw@dav.example.com/cal/", "https://dav.example.com/cal/"),
        ("http://alice@host:8080/a/b", "http://host:8080/a/b"),
        ("http://a:b@c@host/x?q=1", "http://host/x?q=1"),
        ("https://host/cal/", "https://host/cal/"),
        ("http://user:p%40ss@/no host", "http:///no host"),
        ("http://host/x/a@b.ics", "http://host/x/a@b.ics"),
        ("not a url", "not a url"),
    ])
    func redaction(_ text: String, _ expected: String) {
        #expect(CalDAVLocation.redact(text) == expected)
    }

    @Test func locations() throws {
        let location = try CalDAVLocation("HTTPS://al%40ice:p%3Ass@DAV.example.com:8443/dav/My%20Work#frag")
        #expect(location.user == "al@ice" && location.password == "p:ss")
        #expect(location.url.absoluteString == "https://DAV.example.com:8443/dav/My%20Work/")
        #expect(location.display == "https://DAV.example.com:8443/dav/My%20Work/")
        #expect(location.name == "My Work")
        #expect(location.href(forName: "a/b c@d.ics") == "/dav/My%20Work/a%2Fb%20c@d.ics")
        #expect(location.href(forName: "..") == "/dav/My%20Work/%2E%2E")
        #expect(location.resolve("/dav/My%20Work/x.ics")?.absoluteString == "https://DAV.example.com:8443/dav/My%20Work/x.ics")
        #expect(location.resolve("https://dav.example.com:8443/other.ics") != nil)
        #expect(location.resolve("https://evil.example.com:8443/dav/x.ics") == nil)
        #expect(location.resolve("http://DAV.example.com:8443/dav/x.ics") == nil)
        #expect(location.resourceName("/dav/My%20Work/ev%0A1.ics") == "https://DAV.example.com:8443/dav/My%20Work/ev?1.ics")
        #expect(try CalDAVLocation("http://host").name == "host")
        #expect(CalDAVLocation.isURL("HtTp://x") && CalDAVLocation.isURL("https://x") && !CalDAVLocation.isURL("http.ics"))
        for bad in ["http://", "https:///path", "http://user:secret@/x"] {
            #expect(throws: CalDAVError.self) { try CalDAVLocation(bad) }
            do { _ = try CalDAVLocation(bad) } catch let error as CalDAVError {
                #expect(error.kind == .invalidURL && !error.description.contains("secret"))
            }
        }
        // However a location, client or credentials are printed, no password shows.
        let secret = try CalDAVLocation("https://alice:pa55word@host/cal/")
        let client = CalDAVClient(location: secret, credentials: CalDAVCredentials(user: "alice", password: "pa55word", source: "the URL"))
        for text in ["\(secret)", String(reflecting: secret), "\(client)", String(reflecting: client),
                     "\(client.credentials as Any)", String(reflecting: client.credentials)] {
            #expect(!text.contains("pa55word"), "\(text)")
        }
        #expect(CalendarLocation("https://alice:secret@host/").name == "host")
        #expect(CalendarLocation("https://alice:secret@host/dav/work/").name == "work")
    }

    @Test func netrcParsing() {
        let netrc = Netrc(parsing: """
            # a comment line
            machine dav.example.com login alice password "two words \\" quoted"
            macdef init
            machine inside.example.com login macro password nope

            machine DAV.example.com
              login bob
              password b0b   # trailing comment
            default login anon password anonpw account ignored
            """)
        #expect(netrc.entries.count == 3)
        #expect(netrc.entry(host: "dav.example.com", login: nil)?.password == "two words \" quoted")
        #expect(netrc.entry(host: "Dav.Example.Com", login: "bob")?.password == "b0b")
        #expect(netrc.entry(host: "inside.example.com", login: nil)?.login == "anon")
        #expect(netrc.entry(host: "other", login: nil)?.password == "anonpw")
        #expect(netrc.entry(host: "other", login: "carol") == nil)
        #expect(Netrc(parsing: "").entry(host: "x", login: nil) == nil)
        #expect(Netrc(parsing: "machine").entries == [Netrc.Entry(machine: "", login: nil, password: nil)])
    }

    @Test func credentialsPreferTheURL() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-netrc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("netrc").path
        try "machine host login alice password fromnetrc\nmachine host login bob password bobs\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let diagnostics = Diagnostics()
        let env = ["NETRC": path]
        func resolve(_ url: String) throws -> CalDAVCredentials? {
            CalDAVCredentials.resolve(for: try CalDAVLocation(url), environment: env, diagnostics: diagnostics)
        }
        #expect(try resolve("https://carol:fromurl@host/c/") == CalDAVCredentials(user: "carol", password: "fromurl", source: "the URL"))
        #expect(try resolve("https://host/c/")?.password == "fromnetrc")
        #expect(try resolve("https://bob@host/c/")?.password == "bobs")
        #expect(try resolve("https://dave@host/c/") == nil)
        #expect(try resolve("https://elsewhere/c/") == nil)
        #expect(diagnostics.warnings.isEmpty)
        #expect(try resolve("https://host/c/")?.description == "alice (from \(path))")

        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        _ = try resolve("https://host/c/")
        #expect(diagnostics.warnings == ["\(path) holds passwords and is readable by others (chmod 600 \(path))"])

        let missing = Diagnostics()
        #expect(CalDAVCredentials.resolve(for: try CalDAVLocation("https://host/"), environment: ["NETRC": path + ".none"],
                                          diagnostics: missing) == nil)
        #expect(missing.warnings == ["NETRC: \(path).none: no such file; asking https://host/ without credentials"])
        #expect(CalDAVCredentials.netrcPath(["HOME": "/home/me"]) == "/home/me/.netrc")
        #expect(CalDAVCredentials.netrcPath([:]) == nil)
    }

    @Test func multistatus() throws {
        let xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:multistatus xmlns:d="DAV:" xmlns:cal="urn:ietf:params:xml:ns:caldav" xmlns:x="http://apple.com/ns/ical/">
              <d:response>
                <d:href> /cal/a.ics </d:href>
                <d:propstat><d:prop><d:getetag>"e1"</d:getetag><cal:calendar-data><![CDATA[BEGIN:VCALENDAR\r
            END:VCALENDAR\r
            ]]></cal:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>
                <d:propstat><d:prop><x:calendar-color/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>
              </d:response>
              <d:response><d:href>/cal/gone.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>
              <d:response><d:href>/cal/</d:href><d:propstat><d:prop>
                <d:resourcetype><d:collection/><cal:calendar/></d:resourcetype><x:calendar-color>#FF0000FF</x:calendar-color>
                <d:displayname>Work &amp; more</d:displayname>
              </d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
            </d:multistatus>
            """
        let parsed = try #require(Multistatus(parsing: Data(xml.utf8)))
        #expect(parsed.responses.count == 3)
        #expect(parsed.responses[0].href == "/cal/a.ics" && parsed.responses[0].etag == "\"e1\"")
        #expect(parsed.responses[0].calendarData == "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
        #expect(parsed.responses[0].color == nil)
        #expect(parsed.responses[1].status == 404 && parsed.responses[1].calendarData == nil)
        #expect(parsed.responses[2].resourceTypes == ["DAV: collection", "urn:ietf:params:xml:ns:caldav calendar"])
        #expect(parsed.responses[2].color == "#FF0000FF" && parsed.responses[2].displayName == "Work & more")

        #expect(Multistatus(parsing: Data("<html><body>hi</body></html>".utf8)) == nil)
        #expect(Multistatus(parsing: Data("<multistatus xmlns='DAV:'><response>".utf8)) == nil)
        #expect(Multistatus(parsing: Data("<multistatus>not DAV</multistatus>".utf8)) == nil)
        #expect(Multistatus(parsing: Data()) == nil)
        #expect(Multistatus(parsing: Data("<m:multistatus xmlns:m='DAV:'/>".utf8))?.responses == [])
    }

    /// RFC 6638's properties: `schedule-calendar-transp`'s element, and the href of
    /// `current-user-principal` / `schedule-inbox-URL` / `schedule-default-calendar-URL`;
    /// a 404 propstat (not offered) gives nothing.
    @Test func schedulingProperties() throws {
        let xml = """
            <?xml version="1.0"?>
            <x:multistatus xmlns:x="DAV:" xmlns:cal="urn:ietf:params:xml:ns:caldav">
              <x:response><x:href>/cal/</x:href>
                <x:propstat><x:prop><cal:schedule-calendar-transp><cal:transparent/></cal:schedule-calendar-transp>
                  <x:current-user-principal><x:href> /p/me/ </x:href></x:current-user-principal></x:prop>
                  <x:status>HTTP/1.1 200 OK</x:status></x:propstat></x:response>
              <x:response><x:href>/inbox/</x:href>
                <x:propstat><x:prop><cal:schedule-default-calendar-URL><x:href>/cal/home/</x:href></cal:schedule-default-calendar-URL>
                  </x:prop><x:status>HTTP/1.1 200 OK</x:status></x:propstat>
                <x:propstat><x:prop><cal:schedule-calendar-transp><cal:opaque/></cal:schedule-calendar-transp><cal:schedule-inbox-URL/></x:prop>
                  <x:status>HTTP/1.1 404 Not Found</x:status></x:propstat></x:response>
            </x:multistatus>
            """
        let parsed = try #require(Multistatus(parsing: Data(xml.utf8)))
        #expect(parsed.responses[0].scheduleTransp == "transparent")
        #expect(parsed.responses[0].hrefs == ["DAV: current-user-principal": "/p/me/"])
        #expect(parsed.responses[1].scheduleTransp == nil)
        #expect(parsed.responses[1].hrefs == ["urn:ietf:params:xml:ns:caldav schedule-default-calendar-URL": "/cal/home/"])
    }

    @Test func requestBodies() throws {
        #expect(CalDAVRequestBody.stamp(0) == "19700101T000000Z")
        #expect(CalDAVRequestBody.stamp(1_661_040_000 - 1) == "20220820T235959Z")
        #expect(CalDAVRequestBody.stamp(-1) == "19691231T235959Z")
        #expect(CalDAVRequestBody.stamp(.max) == "99991231T235959Z")
        #expect(CalDAVRequestBody.stamp(.min) == "00010101T000000Z")
        #expect(CalDAVRequestBody.escape("a&b<c>\"'") == "a&amp;b&lt;c&gt;&quot;&apos;")
        #expect(CalDAVRequestBody.isXMLSafe("tab\tok") && !CalDAVRequestBody.isXMLSafe("bell\u{7}"))
        let query = String(decoding: CalDAVRequestBody.calendarQuery(range: (0, 86_400), uid: "<x>"), as: UTF8.self)
        #expect(query.contains("<C:time-range start=\"19700101T000000Z\" end=\"19700102T000000Z\"/>"))
        #expect(query.contains("<C:text-match collation=\"i;octet\">&lt;x&gt;</C:text-match>"))
        // Every body is well-formed XML.
        for body in [CalDAVRequestBody.propfind, CalDAVRequestBody.mkcalendar, CalDAVRequestBody.calendarQuery(uid: "a&b")] {
            #expect(XMLDocumentCheck.wellFormed(body))
        }
    }

    @Test func exitStatuses() {
        let cases: [(CalDAVError.Kind, CoolcalModel.ExitStatus)] = [
            (.unreachable, .tempFail), (.preconditionFailed, .tempFail), (.denied, .noPermission),
            (.notCalendar, .dataError), (.badResponse, .dataError), (.invalidURL, .usage),
        ]
        for (kind, status) in cases {
            #expect(CoolcalModel.ExitStatus.of(CalDAVError(kind, url: "https://h/", "m")) == status)
        }
        #expect(CalDAVError(.denied, url: "https://h/c/", "no").description == "https://h/c/: no")
    }
}

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Parses data with XMLParser and says whether it is well-formed.
enum XMLDocumentCheck {
    static func wellFormed(_ data: Data) -> Bool { XMLParser(data: data).parse() }
}
