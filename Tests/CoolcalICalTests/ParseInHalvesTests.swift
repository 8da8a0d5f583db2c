import Foundation
import Testing
@testable import CoolcalICal

/// A large checked text is parsed by libical in two halves on two threads
/// (`ParseInHalves`): the calendar must be the one the whole parse gives —
/// every event, in order, its answers, zones and warnings — and a text not shaped for
/// the cut (`HalvesCut`) is parsed whole.
@Suite struct ParseInHalvesTests {
    static let zone = """
        BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nBEGIN:STANDARD\r\nDTSTART:19701025T030000\r\n\
        RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\n\
        BEGIN:DAYLIGHT\r\nDTSTART:19700329T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\n\
        TZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n
        """

    /// `count` events of several kinds: zoned, UTC, all-day, a series with an override
    /// (the override far from its master), an alarm, a folded summary, lower-case names.
    static func text(events count: Int, method: String? = nil, zonesLast: Bool = false) -> Data {
        var out = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nX-WR-CALNAME:Halves\r\n"
        if let method { out += "METHOD:\(method)\r\n" }
        if !zonesLast { out += zone }
        for i in 0..<count {
            let day = String(format: "2026%02d%02d", 1 + i % 12, 1 + i % 28)
            switch i % 6 {
            case 0: out += "BEGIN:VEVENT\r\nUID:e\(i)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;TZID=Europe/Berlin:\(day)T090000\r\nDTEND;TZID=Europe/Berlin:\(day)T100000\r\nSUMMARY:Zoned \(i)\r\nEND:VEVENT\r\n"
            case 1: out += "BEGIN:VEVENT\r\nUID:e\(i)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:\(day)T120000Z\r\nDURATION:PT30M\r\nSUMMARY:A summary long enough to be folded by a client that \r\n folds at seventy-five octets, number \(i)\r\nEND:VEVENT\r\n"
            case 2: out += "BEGIN:VEVENT\r\nUID:e\(i)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;VALUE=DATE:\(day)\r\nSUMMARY:All day \(i)\r\nTRANSP:TRANSPARENT\r\nEND:VEVENT\r\n"
            case 3: out += "BEGIN:VEVENT\r\nUID:series\(i / 60)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:\(day)T080000Z\r\nRRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=\(5 + i % 7)\r\nSUMMARY:Series \(i)\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT15M\r\nDESCRIPTION:soon\r\nEND:VALARM\r\nEND:VEVENT\r\n"
            case 4: out += "begin:vevent\r\nuid:e\(i)\r\ndtstamp:20260101T000000Z\r\ndtstart:\(day)T150000Z\r\ndtend:\(day)T160000Z\r\nsummary:lower \(i)\r\nend:vevent\r\n"
            default: out += "BEGIN:VEVENT\r\nUID:series\(i / 600)\r\nRECURRENCE-ID:\(day)T080000Z\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:\(day)T180000Z\r\nDTEND:\(day)T190000Z\r\nSEQUENCE:\(i % 3)\r\nSUMMARY:Moved \(i)\r\nEND:VEVENT\r\n"
            }
        }
        if zonesLast { out += zone }
        out += "END:VCALENDAR\r\n"
        return Data(out.utf8)
    }

    static func described(_ calendar: ICalCalendar) -> String {
        "\(calendar.events)|\(calendar.answers)|\(calendar.zones.definesInFile("Europe/Berlin"))\(calendar.zones.floatingZoneID ?? "")|\(calendar.warnings)|\(calendar.name ?? "")|\(calendar.method ?? "")"
    }

    @Test(arguments: [nil, "REPLY"])
    func theHalvesGiveTheWholeParsesCalendar(method: String?) throws {
        let text = Self.text(events: 3_000, method: method)
        #expect(text.count >= ParseInHalves.from)
        let halves = try #require(ParseInHalves.halves(text, file: "t.ics"), "the text is cut in two")
        #expect(halves.events.count == 3_000)
        let inHalves = try ICalReader.parsed(text, file: "t.ics", inHalves: true)
        let whole = try ICalReader.parsed(text, file: "t.ics", inHalves: false)
        #expect(Self.described(inHalves) == Self.described(whole))
        #expect(inHalves.events.count + inHalves.answers.count == 3_000)
    }

    /// Each half is parsed in slices of about `sliceBytes` of events (libical's trees of
    /// one slice at a time): they cover the half, start at events, and stop at the first
    /// event past `sliceBytes`.
    @Test func eachHalfIsParsedInSlicesOfEvents() throws {
        let text = Self.text(events: 3_000)
        let cut = try #require(text.withUnsafeBytes { HalvesCut($0) })
        for half in [cut.events..<cut.middle, cut.middle..<cut.end] {
            let slices = cut.slices(half, most: ParseInHalves.sliceBytes)
            #expect(slices.count >= half.count / ParseInHalves.sliceBytes)
            #expect(slices.first?.lowerBound == half.lowerBound && slices.last?.upperBound == half.upperBound)
            for (a, b) in zip(slices, slices.dropFirst()) { #expect(a.upperBound == b.lowerBound) }
            for slice in slices {
                #expect(cut.starts.contains(slice.lowerBound))
                let inside = cut.starts.filter { $0 > slice.lowerBound && $0 < slice.upperBound }
                #expect(inside.allSatisfy { $0 - slice.lowerBound < ParseInHalves.sliceBytes })
            }
        }
    }

    @Test func theCutIsAtAnEventNearTheMiddle() throws {
        let text = Self.text(events: 3_000)
        let cut = try #require(text.withUnsafeBytes { HalvesCut($0) })
        let head = String(decoding: text.prefix(cut.events), as: UTF8.self)
        #expect(head.hasSuffix("END:VTIMEZONE\r\n") && !head.contains("BEGIN:VEVENT"))
        #expect(text[cut.middle...].starts(with: Data("BEGIN:VEVENT".utf8)) || text[cut.middle...].starts(with: Data("begin:vevent".utf8)))
        let share = Double(cut.middle - cut.events) / Double(cut.end - cut.events)
        #expect(share > 0.45 && share < 0.55, "\(share)")
        #expect(text[cut.end...] == Data("END:VCALENDAR\r\n".utf8))
    }

    @Test func aTextNotShapedForTheCutIsParsedWhole() throws {
        let body = String(decoding: Self.text(events: 3_000), as: UTF8.self)
        let shapes = [
            "zones after the events": String(decoding: Self.text(events: 3_000, zonesLast: true), as: UTF8.self),
            "a second VCALENDAR": body + body,
            "text after END:VCALENDAR": body + "X-TRAILER:1\r\n",
            "a property between the events": body.replacingOccurrences(of: "END:VEVENT\r\nBEGIN:VEVENT\r\nUID:e1\r\n",
                                                                       with: "END:VEVENT\r\nX-BETWEEN:1\r\nBEGIN:VEVENT\r\nUID:e1\r\n"),
            "an END that closes another": body.replacingOccurrences(of: "END:VALARM", with: "END:VTODO"),
        ]
        for (what, text) in shapes {
            #expect(body != text, "\(what): changed")
            #expect(text.utf8.count >= ParseInHalves.from)
            #expect(ParseInHalves.halves(Data(text.utf8), file: "t.ics") == nil, "\(what)")
        }
        // Below the size: whole.
        #expect(ParseInHalves.halves(Self.text(events: 20), file: "t.ics") == nil)
    }
}
