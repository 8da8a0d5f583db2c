import CoolcalModel
import CoolcalSupport
import CoolcalState
import CoolcalCalDAV
import CoolcalWriting
import Foundation
import Testing
@testable import CLITests

/// `CalDAVClient` against a real Radicale: the primitives that writing builds on.
@Suite struct CalDAVClientTests {
    static func event(_ uid: String, _ summary: String, start: String = "20220820T100000Z") -> Data {
        Data("""
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//coolcal tests//EN\r
            BEGIN:VEVENT\r
            UID:\(uid)\r
            DTSTAMP:20220801T000000Z\r
            DTSTART:\(start)\r
            DURATION:PT1H\r
            SUMMARY:\(summary)\r
            END:VEVENT\r
            END:VCALENDAR\r

            """.utf8)
    }

    /// A new collection on `server` and a client for it.
    static func collection(_ server: RadicaleServer, _ name: String = "cal") throws -> CalDAVClient {
        let client = try CalDAVClient(calendar: server.url("/alice/\(name)/"), environment: [:])
        try client.makeCalendar()
        return client
    }

    static func kind(of body: () throws -> Void) -> CalDAVError.Kind? {
        do { try body() } catch let error as CalDAVError { return error.kind } catch { return nil }
        return nil
    }

    @Test func createTwiceFailsThePrecondition() throws {
        let server = try RadicaleServer()
        let client = try Self.collection(server)
        let href = client.href(forName: "a.ics")
        let etag = try client.put(href, data: Self.event("a", "First"), precondition: .create)
        #expect(etag?.isEmpty == false)
        #expect(Self.kind { try client.put(href, data: Self.event("a", "Second"), precondition: .create) } == .preconditionFailed)
        let stored = try #require(try client.get(href))
        #expect(String(decoding: stored.data, as: UTF8.self).contains("SUMMARY:First"))
        #expect(stored.etag == etag)
    }

    @Test func replaceNeedsTheCurrentEtag() throws {
        let server = try RadicaleServer()
        let client = try Self.collection(server)
        let href = client.href(forName: "b.ics")
        let first = try #require(try client.put(href, data: Self.event("b", "One"), precondition: .create))
        let second = try #require(try client.put(href, data: Self.event("b", "Two"), precondition: .replace(etag: first)))
        #expect(second != first)
        // Someone else's write made `first` stale.
        var error: CalDAVError?
        do { try client.put(href, data: Self.event("b", "Three"), precondition: .replace(etag: first)) } catch let e as CalDAVError {
            error = e
        }
        #expect(error?.kind == .preconditionFailed && error?.status == 412)
        #expect(error?.description == "\(server.origin)/alice/cal/b.ics: PUT: precondition failed (HTTP 412): it changed since it was read")
        let stored = try #require(try client.get(href))
        #expect(stored.etag == second)
        #expect(String(decoding: stored.data, as: UTF8.self).contains("SUMMARY:Two"))
        // Replacing what does not exist fails the precondition too.
        #expect(Self.kind { try client.put(client.href(forName: "none.ics"), data: Self.event("n", "N"),
                                           precondition: .replace(etag: second)) } == .preconditionFailed)
    }

    @Test func getOfAMissingResourceIsNil() throws {
        let server = try RadicaleServer()
        let client = try Self.collection(server)
        #expect(try client.get(client.href(forName: "missing.ics")) == nil)
        #expect(try client.get("\(server.origin)/alice/cal/missing.ics") == nil)
        // An href on another server is refused before anything is sent.
        #expect(Self.kind { _ = try client.get("http://127.0.0.1:1/alice/cal/x.ics") } == .invalidURL)
    }

    @Test func findMatchesTheWholeUID() throws {
        let server = try RadicaleServer()
        let client = try Self.collection(server)
        for (uid, name) in [("abc@example.com", "one.ics"), ("abc@example.com.more", "two.ics"), ("x&<'\"y", "three.ics")] {
            try client.put(client.href(forName: name), data: Self.event(uid, name), precondition: .create)
        }
        let found = try #require(try client.find(uid: "abc@example.com"))
        #expect(found.href == "/alice/cal/one.ics")
        #expect(found.etag == (try client.get(found.href))?.etag)
        #expect(String(decoding: found.data, as: UTF8.self).contains("SUMMARY:one.ics"))
        #expect(try client.find(uid: "abc@example.com.more")?.href == "/alice/cal/two.ics")
        #expect(try client.find(uid: "x&<'\"y")?.href == "/alice/cal/three.ics")
        // A substring of a UID is not that UID (text-match alone would say yes).
        #expect(try client.find(uid: "abc@example") == nil)
        #expect(try client.find(uid: "nobody") == nil)
    }

    @Test func queryWidensTheWindowByADay() throws {
        let server = try RadicaleServer()
        let client = try Self.collection(server)
        let starts = ["early": "20220818T120000Z", "near": "20220819T120000Z", "inside": "20220820T120000Z",
                      "after": "20220821T120000Z", "late": "20220823T120000Z"]
        for (name, start) in starts {
            try client.put(client.href(forName: name + ".ics"), data: Self.event(name, name, start: start), precondition: .create)
        }
        // 2022-08-20T00:00Z to 2022-08-21T00:00Z, asked for 08-19 to 08-22.
        let window = TimeWindow(start: 1_660_953_600, end: 1_661_040_000)
        #expect(try client.query(window: window).map(\.href) ==
                ["/alice/cal/after.ics", "/alice/cal/inside.ics", "/alice/cal/near.ics"])
        #expect(try client.query(window: nil).count == 5)
        #expect(try client.query(window: window).allSatisfy { $0.etag != nil })
        let collection = try client.verify()
        #expect(collection.color == nil)
    }

    @Test func resourcesWithoutDataInTheReportAreFetched() throws {
        let web = try PlainWebServer()
        let client = try CalDAVClient(calendar: "http://127.0.0.1:\(web.server.port)/fake/", environment: [:])
        try client.verify()
        let resources = try client.query(window: nil)
        #expect(resources.map(\.href) == ["/fake/a.ics", "/fake/b.ics"])
        #expect(resources.map(\.etag) == ["\"a1\"", "\"b1\""])
        #expect(resources.allSatisfy { String(decoding: $0.data, as: UTF8.self).hasPrefix("BEGIN:VCALENDAR\r\n") })
        // An href on another server is not followed (credentials would go there).
        let foreign = try CalDAVClient(calendar: "http://127.0.0.1:\(web.server.port)/foreign/", environment: [:])
        #expect(Self.kind { _ = try foreign.query(window: nil) } == .badResponse)
    }

    @Test func verifyRefusesWhatIsNotACalendar() throws {
        let server = try RadicaleServer()
        let client = try Self.collection(server)
        try client.verify()
        #expect(Self.kind { try CalDAVClient(calendar: server.url("/alice/"), environment: [:]).verify() } == .notCalendar)
        #expect(Self.kind { try CalDAVClient(calendar: server.url("/alice/none/"), environment: [:]).verify() } == .notCalendar)
        #expect(Self.kind { _ = try CalDAVClient(calendar: server.url("/alice/none/"), environment: [:]).query(window: nil) }
                == .notCalendar)
        #expect(Self.kind { try CalDAVClient(calendar: server.url("/alice/cal/"), environment: [:]).makeCalendar() }
                == .badResponse)
    }
}
