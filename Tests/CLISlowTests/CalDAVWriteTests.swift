import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalInvite
@testable import CoolcalCalDAV
@testable import CoolcalWriting
@testable import CLITests

/// `accept` into a CalDAV collection on a real Radicale: one resource per event,
/// idempotent, and a concurrent change on the server (etag mismatch) detected and
/// never overwritten.
@Suite(.serialized) struct CalDAVWriteTests {
    let uid = "standup-9@example.org"

    func collection(_ server: RadicaleServer) throws -> (url: String, client: CalDAVClient) {
        let url = server.url("/alice/cal-\(UUID().uuidString.prefix(8))/")
        let client = try CalDAVClient(calendar: url, environment: [:])
        try client.makeCalendar()
        return (url, client)
    }

    func invitation(sequence: Int, hour: Int = 10, method: String = "REQUEST") -> String {
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "METHOD:\(method)", "BEGIN:VEVENT",
            "UID:\(uid)", "DTSTAMP:20220815T091500Z", "SEQUENCE:\(sequence)", "SUMMARY:Standup v\(sequence)",
            "ORGANIZER:mailto:alice@example.org", "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:me@example.com",
            String(format: "DTSTART:20220822T%02d0000Z", hour), String(format: "DTEND:20220822T%02d3000Z", hour),
            "END:VEVENT", "END:VCALENDAR",
        ].map { $0 + "\r\n" }.joined()
    }

    func file(_ text: String) throws -> String { try Binary.temp("invite.ics", Data(text.utf8)) }

    func state() throws -> [String: String] {
        ["COOLCAL_STATE": try Binary.temp("state/.keep", Data()) + "-dir"]
    }

    @Test func acceptCreatesOneResourceAndIsIdempotent() throws {
        let server = try RadicaleServer()
        let (url, client) = try collection(server)
        let env = try state()
        let first = try Binary.run(["accept", Binary.sample("invite.json"), url], env: env)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "accepted: Family Reunion (id 12): added to \(url)\n")
        let created = try client.query(window: nil)
        #expect(created.count == 1)
        let again = try Binary.run(["accept", Binary.sample("invite.json"), url], env: env)
        #expect(again.stdout.hasSuffix("already in \(url), unchanged\n"))
        let after = try client.query(window: nil)
        #expect(after == created, "nothing was written: same href, etag and bytes")
        // iTIP: its own resource, named from the UID; accepting twice keeps one.
        #expect(try Binary.run(["accept", "--me", "me@example.com", try file(invitation(sequence: 0)), url], env: env).status == 0)
        #expect(try Binary.run(["accept", "--me", "me@example.com", try file(invitation(sequence: 0)), url], env: env).status == 0)
        let resources = try client.query(window: nil)
        #expect(resources.count == 2)
        let stored = try #require(try client.find(uid: uid))
        #expect(stored.href.removingPercentEncoding?.hasSuffix("/standup-9@example.org.ics") == true)
        let text = String(decoding: stored.data, as: UTF8.self).replacingOccurrences(of: "\r\n ", with: "")
        #expect(text.contains("PARTSTAT=ACCEPTED") && text.contains("mailto:me@example.com"))
        // Conflicts read back through CalDAV see the accepted events.
        let events = try Binary.run(["events", "--json", "--from", "2022-08-20", "--to", "2022-08-23", url])
        let uids = (try Binary.json(events.stdout)["events"] as? [[String: Any]] ?? []).compactMap { $0["uid"] as? String }
        #expect(uids.sorted() == ["coolcal-invite-12@\(NewEvent.domain(configured: nil))", uid].sorted())
    }

    @Test func newerVersionUpdatesTheResourceAndCancelMarksIt() throws {
        let server = try RadicaleServer()
        let (url, client) = try collection(server)
        let env = try state()
        #expect(try Binary.run(["accept", try file(invitation(sequence: 0)), url], env: env).status == 0)
        let moved = try Binary.run(["accept", try file(invitation(sequence: 1, hour: 14)), url], env: env)
        #expect(moved.stdout.hasSuffix("updated in \(url)\n"), "\(moved.stdout)\(moved.stderr)")
        let stale = try Binary.run(["accept", try file(invitation(sequence: 0)), url], env: env)
        #expect(stale.stdout.hasPrefix("ignored: "))
        let cancel = try Binary.run(["accept", try file(invitation(sequence: 2, hour: 14, method: "CANCEL")), url], env: env)
        #expect(cancel.stdout.hasSuffix("marked cancelled in \(url)\n"))
        let resources = try client.query(window: nil)
        #expect(resources.count == 1)
        let text = String(decoding: resources.first?.data ?? Data(), as: UTF8.self)
        #expect(text.contains("STATUS:CANCELLED") && text.contains("DTSTART:20220822T140000Z") && text.contains("SEQUENCE:2"))
    }

    /// A change that, while coolcal holds the resource's old etag, lets another
    /// client store a newer version — the race `If-Match` exists for.
    final class Interfering: CalendarChange {
        let inner: CalendarChange
        let other: CalDAVClient
        let newer: String
        var times: Int
        var applied = 0

        init(_ inner: CalendarChange, other: CalDAVClient, newer: String, times: Int) {
            self.inner = inner
            self.other = other
            self.newer = newer
            self.times = times
        }

        var uid: String { inner.uid }

        func splice(of text: CalendarText, calendar: ICalCalendar, file: String) throws -> (Splice?, WriteOutcome) {
            applied += 1
            if times > 0, let current = try other.find(uid: inner.uid), let etag = current.etag {
                times -= 1
                let version = newer.replacingOccurrences(of: "SEQUENCE:5", with: "SEQUENCE:\(5 + applied)")
                try other.put(current.href, data: Data(version.utf8), precondition: .replace(etag: etag))
            }
            return try inner.splice(of: text, calendar: calendar, file: file)
        }

        func preview(lineEnding: String) -> String { inner.preview(lineEnding: lineEnding) }
    }

    func message(_ text: String) throws -> ITIPMessage {
        try #require(try InviteLoader.open(try file(text), floatingZone: TimeZone(identifier: "UTC") ?? .current).message)
    }

    @Test func aConcurrentChangeOnTheServerIsDetectedNotOverwritten() throws {
        let server = try RadicaleServer()
        let (url, client) = try collection(server)
        #expect(try Binary.run(["accept", try file(invitation(sequence: 0)), url], env: try state()).status == 0)
        // Between coolcal's read (SEQUENCE 0) and its PUT of SEQUENCE 1, another client
        // stores SEQUENCE 6: the PUT gets 412, coolcal reads again and finds its own
        // version older — nothing is overwritten.
        let change = Interfering(ITIPChange(message: try message(invitation(sequence: 1)), cancel: false, me: []),
                                 other: try CalDAVClient(calendar: url, environment: [:]),
                                 newer: invitation(sequence: 5, hour: 16), times: 1)
        let outcome = try CalDAVWriter(client: client).write(change)
        #expect(change.applied == 2, "read, 412, read again")
        #expect(outcome == .stale("the calendar has a newer version (SEQUENCE 6; this is SEQUENCE 1)"))
        let text = String(decoding: try #require(try client.find(uid: uid)).data, as: UTF8.self)
        #expect(text.contains("SEQUENCE:6") && text.contains("DTSTART:20220822T160000Z"))
    }

    @Test func aServerThatKeepsChangingIsATemporaryFailure() throws {
        let server = try RadicaleServer()
        let (url, client) = try collection(server)
        #expect(try Binary.run(["accept", try file(invitation(sequence: 0)), url], env: try state()).status == 0)
        // Every attempt loses the race (the other client keeps storing older-looking
        // versions, so coolcal's SEQUENCE 50 stays newer): after 3 tries, 75.
        let change = Interfering(ITIPChange(message: try message(invitation(sequence: 50)), cancel: false, me: []),
                                 other: try CalDAVClient(calendar: url, environment: [:]),
                                 newer: invitation(sequence: 5, hour: 16), times: 10)
        #expect {
            try CalDAVWriter(client: client).write(change)
        } throws: { error in
            (error as? CalDAVError)?.kind == .preconditionFailed && ExitStatus.of(error) == .tempFail
        }
        #expect(change.applied == 3)
        let text = String(decoding: try #require(try client.find(uid: uid)).data, as: UTF8.self)
        #expect(!text.contains("SEQUENCE:50"), "coolcal's version was never forced over the other client's")
    }
}
