import Foundation
@testable import CLITests

/// Python's standard-library HTTP server with a few answers that are not CalDAV:
/// `501` for PROPFIND at `/` (as `python -m http.server` does), an HTML page with
/// 200 at `/html/`, and a 301 at `/moved/` to a URL with credentials in it. Under
/// `/fake/` and `/foreign/` it plays a calendar whose REPORT leaves out one
/// resource's data, or names a resource on another server. `/transp/` and `/opaque/`
/// are calendars of a scheduling server (RFC 6638): their `schedule-calendar-transp`
/// says so, one event each at 2022-08-20 10:00-11:00Z, and the principal `/principal/`
/// has the inbox `/inbox/`, whose `schedule-default-calendar-URL` is `/opaque/`.
final class PlainWebServer {
    static let script = #"""
    import http.server, sys

    MULTISTATUS = '<?xml version="1.0"?><multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">%s</multistatus>'
    HOUR = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:%s\r\nDTSTAMP:20220801T000000Z\r\nDTSTART:20220820T100000Z\r\nDTEND:20220820T110000Z\r\nSUMMARY:Standup\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    SCHEDULING = {"/principal/": '<C:schedule-inbox-URL><href>/inbox/</href></C:schedule-inbox-URL>',
                  "/inbox/": '<C:schedule-default-calendar-URL><href>/opaque/</href></C:schedule-default-calendar-URL>'}
    EVENT = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:%s\r\nDTSTAMP:20220801T000000Z\r\nDTSTART:20220820T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def reply(self, status, body, kind="application/xml; charset=utf-8", etag=None):
            body = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", kind)
            if etag:
                self.send_header("ETag", etag)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            if self.path == "/fake/b.ics":
                return self.reply(200, EVENT % "b", "text/calendar", '"b1"')
            return http.server.SimpleHTTPRequestHandler.do_GET(self)

        def found(self, props):
            return ('<response><href>%s</href><propstat><prop>%s</prop><status>HTTP/1.1 200 OK</status></propstat>'
                    '</response>') % (self.path, props)

        def do_OPTIONS(self):
            self.send_response(200)
            self.send_header("DAV", "1, 2, access-control, calendar-access, calendar-auto-schedule")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_REPORT(self):
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if self.path in ("/transp/", "/opaque/"):
                data = '<getetag>"h1"</getetag><C:calendar-data><![CDATA[%s]]></C:calendar-data>' % (HOUR % self.path.strip("/"))
                return self.reply(207, MULTISTATUS % ('<response><href>%sh.ics</href><propstat><prop>%s</prop>'
                                                      '<status>HTTP/1.1 200 OK</status></propstat></response>' % (self.path, data)))
            if self.path == "/fake/":
                a = ('<response><href>/fake/a.ics</href><propstat><prop><getetag>"a1"</getetag>'
                     '<C:calendar-data><![CDATA[%s]]></C:calendar-data></prop>'
                     '<status>HTTP/1.1 200 OK</status></propstat></response>') % (EVENT % "a")
                b = ('<response><href>/fake/b.ics</href><propstat><prop><getetag>"b1"</getetag></prop>'
                     '<status>HTTP/1.1 200 OK</status></propstat><propstat><prop><C:calendar-data/></prop>'
                     '<status>HTTP/1.1 404 Not Found</status></propstat></response>')
                return self.reply(207, MULTISTATUS % (a + b))
            return self.reply(207, MULTISTATUS % ('<response><href>http://elsewhere.example/x.ics</href><propstat><prop>'
                                                  '<C:calendar-data>x</C:calendar-data></prop><status>HTTP/1.1 200 OK</status>'
                                                  '</propstat></response>'))

        def do_PROPFIND(self):
            length = int(self.headers.get("Content-Length") or 0)
            asked = self.rfile.read(length).decode()
            if self.path in ("/transp/", "/opaque/"):
                if "current-user-principal" in asked:
                    return self.reply(207, MULTISTATUS % self.found('<current-user-principal><href>/principal/</href></current-user-principal>'))
                return self.reply(207, MULTISTATUS % self.found('<resourcetype><collection/><C:calendar/></resourcetype>'
                                                                 '<C:schedule-calendar-transp><C:%s/></C:schedule-calendar-transp>'
                                                                 % ("transparent" if self.path == "/transp/" else "opaque")))
            if self.path in SCHEDULING:
                return self.reply(207, MULTISTATUS % self.found(SCHEDULING[self.path]))
            if self.path in ("/fake/", "/foreign/"):
                return self.reply(207, MULTISTATUS % ('<response><href>%s</href><propstat><prop><resourcetype>'
                                                      '<collection/><C:calendar/></resourcetype></prop>'
                                                      '<status>HTTP/1.1 200 OK</status></propstat></response>' % self.path))
            if self.path.startswith("/html/"):
                body = b"<html><body>hello</body></html>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
            elif self.path.startswith("/moved/"):
                body = b""
                self.send_response(301)
                self.send_header("Location", "http://carol:Sekr3t-target@127.0.0.1:1/elsewhere/")
            else:
                body = b"unsupported"
                self.send_response(501)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
    """#

    let server: ServerProcess

    init() throws {
        let home = try ServerProcess.temporaryHome("web")
        let script = home.appendingPathComponent("server.py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        let port = try ServerProcess.freePort()
        do {
            server = try ServerProcess(home: home, port: port, executable: "/usr/bin/env",
                                       arguments: ["python3", script.path, String(port)])
        } catch {
            try? FileManager.default.removeItem(at: home)
            throw error
        }
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: server.home)
    }
}
