import Foundation
import Testing
@testable import CoolcalCalDAV
@testable import CLITests

/// Issue #44, "where the UID lives", with the event on a real Radicale: `process` given a
/// local first calendar and a CalDAV collection holding the meeting writes Alice's update
/// into the collection's resource and leaves the first calendar byte-identical.
@Suite(.serialized) struct WhereTheUIDLivesCalDAVTests {
    typealias T = WhereTheUIDLivesTests

    @Test func anUpdateOfAnEventOnTheServerIsWrittenThere() throws {
        let server = try RadicaleServer()
        let url = server.url("/alice/work-\(UUID().uuidString.prefix(8))/")
        let client = try CalDAVClient(calendar: url, environment: [:])
        try client.makeCalendar()
        try client.put(client.href(forName: "server-named.ics"), data: T.calendar([T.stored()]), precondition: .create)
        let desk = try T.Desk()
        try desk.write("first.ics", T.calendar([T.other]))
        let first = try desk.bytes("first.ics")

        let update = try ProcessRun.run(["--recipient", T.me, "--state", desk.state, desk.path("first.ics"), url], message: T.mail())
        #expect(update.status == 0 && update.text.hasPrefix("updated"), "\(update.text)\(update.stderr)")
        #expect(try desk.bytes("first.ics") == first, "the first calendar is byte-identical")
        let stored = try #require(try client.find(uid: T.uid))
        #expect(stored.href.hasSuffix("/server-named.ics"), "the event's own resource: \(stored.href)")
        // (The REPORT's XML answer has its line ends normalized.)
        let text = String(decoding: stored.data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
            .replacingOccurrences(of: "\n ", with: "")
        #expect(text.contains("SUMMARY:Planning (moved)\n"), "\(text)")
        #expect(try client.query(window: nil).count == 1, "no second resource")
    }
}
