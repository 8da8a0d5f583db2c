import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalZones

@Suite struct ZoneTests {
    let newYork = ZoneBook.systemZone(named: "America/New_York")

    @Test func skippedHourUsesTheOffsetBeforeTheGap() throws {
        // RFC 5545 §3.3.5: 02:30 does not exist on 2024-03-10 in New York; libical gives 06:30Z.
        let zone = try #require(newYork)
        let t = zone.utcSeconds(of: CivilDateTime(year: 2024, month: 3, day: 10, hour: 2, minute: 30))
        #expect(CivilDateTime(utcSeconds: t).utcString == "2024-03-10T07:30:00Z")
    }

    @Test func repeatedHourIsItsFirstOccurrence() throws {
        let zone = try #require(newYork)
        let t = zone.utcSeconds(of: CivilDateTime(year: 2024, month: 11, day: 3, hour: 1, minute: 30))
        #expect(CivilDateTime(utcSeconds: t).utcString == "2024-11-03T05:30:00Z")
    }

    @Test func ordinaryTimesBothSidesOfTransitions() throws {
        let zone = try #require(newYork)
        let winter = zone.utcSeconds(of: CivilDateTime(year: 2024, month: 1, day: 15, hour: 9))
        let summer = zone.utcSeconds(of: CivilDateTime(year: 2024, month: 7, day: 15, hour: 9))
        #expect(CivilDateTime(utcSeconds: winter).utcString == "2024-01-15T14:00:00Z")
        #expect(CivilDateTime(utcSeconds: summer).utcString == "2024-07-15T13:00:00Z")
        #expect(zone.localFields(ofUTC: summer) == CivilDateTime(year: 2024, month: 7, day: 15, hour: 9))
    }

    @Test(arguments: [
        ("Pacific Standard Time", "America/Los_Angeles"),
        ("W. Europe Standard Time", "Europe/Berlin"),
        ("/freeassociation.sourceforge.net/Europe/Berlin", "Europe/Berlin"),
        ("/mozilla.org/20050126_1/America/New_York", "America/New_York"),
        ("Europe/Berlin", "Europe/Berlin"),
    ])
    func namesResolve(_ name: String, _ expected: String) throws {
        let zone = try #require(ZoneBook.systemZone(named: name))
        #expect(zone.identifier == expected)
    }

    @Test(arguments: ["Mars/Olympus", "Nowhere Standard Time", ""])
    func unknownNamesGiveNil(_ name: String) {
        #expect(ZoneBook.systemZone(named: name) == nil)
    }

    @Test func fileVTimezoneComesFirst() throws {
        // A custom zone named like a real one: the file's definition (+05:00) wins.
        let text = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        BEGIN:VTIMEZONE\r
        TZID:Europe/Berlin\r
        BEGIN:STANDARD\r
        DTSTART:19700101T000000\r
        TZOFFSETFROM:+0500\r
        TZOFFSETTO:+0500\r
        TZNAME:ODD\r
        END:STANDARD\r
        END:VTIMEZONE\r
        END:VCALENDAR\r

        """
        let calendar = try ICalReader.read(Data(text.utf8), file: "z.ics")
        let zone = try #require(calendar.zones.zone(for: "Europe/Berlin"))
        let t = zone.utcSeconds(of: CivilDateTime(year: 2024, month: 7, day: 1, hour: 12))
        #expect(CivilDateTime(utcSeconds: t).utcString == "2024-07-01T07:00:00Z")
    }
}
