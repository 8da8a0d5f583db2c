import Foundation

// MARK: - Generated inputs

enum Generate {
    static let header = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//coolcal corpus//EN\r\n"
    static let footer = "END:VCALENDAR\r\n"
    static let fine = "BEGIN:VEVENT\r\nUID:ok@corpus\r\nSUMMARY:Fine event\r\nDTSTART:20220820T120000Z\r\nDTEND:20220820T123000Z\r\nEND:VEVENT\r\n"

    static func repeated(_ text: String, _ count: Int) -> String { String(repeating: text, count: count) }

    /// A valid payload with a member nested 10,000 arrays deep.
    @Sendable static func deepJSONArrays() -> Data {
        Data((#"{"title": "Deep", "start": "2022-08-20T10:00:00Z", "end": "2022-08-20T11:00:00Z", "id": 7, "x": "#
              + repeated("[", 10_000) + repeated("]", 10_000) + "}").utf8)
    }

    /// 10,000 nested objects.
    @Sendable static func deepJSONObjects() -> Data {
        Data((repeated(#"{"a":"#, 10_000) + "1" + repeated("}", 10_000)).utf8)
    }

    /// A valid payload padded to 2 MiB and a little (2,097,252 bytes).
    @Sendable static func bigJSON() -> Data {
        Data((#"{"title": "Big", "start": "2022-08-20T10:00:00Z", "end": "2022-08-20T11:00:00Z", "id": 7, "pad": ""#
              + repeated("x", 2 << 20) + #""}"#).utf8)
    }

    /// A 900,000-character title, under the 1 MiB limit.
    @Sendable static func bigTitle() -> Data {
        Data((#"{"title": ""# + repeated("t", 900_000) + #"", "start": "2022-08-20T10:00:00Z", "end": "2022-08-20T11:00:00Z", "id": 7}"#).utf8)
    }

    /// An iTIP invitation of 30,000 nested VEVENTs (under 1 MiB), the UID only in the innermost.
    @Sendable static func nestedITIP() -> Data {
        Data(("BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\n" + repeated("BEGIN:VEVENT\r\n", 30_000)
              + "UID:deep@corpus\r\nDTSTART:20220820T120000Z\r\n" + repeated("END:VEVENT\r\n", 30_000) + footer).utf8)
    }

    /// An event in the window of both `events` and `conflicts` whose DESCRIPTION is one 10 MiB line.
    @Sendable static func longLine() -> Data {
        var data = Data((header + "BEGIN:VEVENT\r\nUID:long@corpus\r\nSUMMARY:Long line\r\n"
                         + "DTSTART:20220820T170000Z\r\nDTEND:20220820T173000Z\r\nDESCRIPTION:").utf8)
        data.append(Data(repeating: UInt8(ascii: "x"), count: 10 << 20))
        data.append(Data(("\r\nEND:VEVENT\r\n" + footer).utf8))
        return data
    }

    /// A calendar cut off in a 10 MiB line that never ends.
    @Sendable static func unterminatedLine() -> Data {
        var data = Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nX-JUNK:".utf8)
        data.append(Data(repeating: UInt8(ascii: "x"), count: 10 << 20))
        return data
    }

    /// 50,000 VEVENTs nested in one another.
    @Sendable static func nestedEvents() -> Data {
        Data((header + repeated("BEGIN:VEVENT\r\n", 50_000) + "UID:deep@corpus\r\nDTSTART:20220820T120000Z\r\n"
              + repeated("END:VEVENT\r\n", 50_000) + footer).utf8)
    }

    /// 50,000 nested X- components, then a plain event.
    @Sendable static func nestedXComponents() -> Data {
        Data((header + repeated("BEGIN:X-NEST\r\n", 50_000) + repeated("END:X-NEST\r\n", 50_000) + fine + footer).utf8)
    }

    /// 98 nested X- components inside VCALENDAR (100 deep with the event's own level), then a plain event.
    @Sendable static func nested100() -> Data {
        Data((header + repeated("BEGIN:X-NEST\r\n", 99) + repeated("END:X-NEST\r\n", 99) + fine + footer).utf8)
    }

    /// 50,000 BEGIN:VEVENT lines and nothing else.
    @Sendable static func nestedUnclosed() -> Data {
        Data((header + repeated("BEGIN:VEVENT\r\n", 50_000)).utf8)
    }

    /// ~20 MiB: about 100,000 events in 2021, and one in the invitation's window.
    @Sendable static func twentyMB() -> Data {
        var data = Data(header.utf8)
        data.reserveCapacity(21 << 20)
        var i = 0
        while data.count < 20 << 20 {
            let month = 1 + i % 12, day = 1 + i % 28, hour = i % 24
            let stamp = String(format: "2021%02ld%02ldT%02ld", month, day, hour)
            data.append(Data(("BEGIN:VEVENT\r\nUID:event-\(i)@corpus\r\nSUMMARY:Event \(i) of the big calendar\r\n"
                              + "DTSTART:\(stamp)0000Z\r\nDTEND:\(stamp)3000Z\r\nEND:VEVENT\r\n").utf8))
            i += 1
        }
        data.append(Data(("BEGIN:VEVENT\r\nUID:in-window@corpus\r\nSUMMARY:In the window\r\n"
                          + "DTSTART:20220820T170000Z\r\nDTEND:20220820T173000Z\r\nEND:VEVENT\r\n" + footer).utf8))
        return data
    }

    /// A VTIMEZONE of 5,000 observances (one a month from 1900, alternating +01:00 and +02:00), used by one event.
    @Sendable static func hugeVTimezone() -> Data {
        var text = header + "BEGIN:VTIMEZONE\r\nTZID:Huge\r\n"
        for k in 0..<5_000 {
            let kind = k % 2 == 1 ? "STANDARD" : "DAYLIGHT"
            text += "BEGIN:\(kind)\r\n" + String(format: "DTSTART:%04ld%02ld01T020000\r\n", 1900 + k / 12, 1 + k % 12)
                + "TZOFFSETFROM:+0\(1 + k % 2)00\r\nTZOFFSETTO:+0\(1 + (k + 1) % 2)00\r\nEND:\(kind)\r\n"
        }
        text += "END:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:huge-tz@corpus\r\nSUMMARY:Huge zone\r\n"
            + "DTSTART;TZID=Huge:20220820T120000\r\nDTEND;TZID=Huge:20220820T123000\r\nEND:VEVENT\r\n" + footer
        return Data(text.utf8)
    }

    /// Five FREQ=SECONDLY events starting in the window.
    @Sendable static func fiveSecondly() -> Data {
        var text = header
        for i in 0..<5 {
            text += "BEGIN:VEVENT\r\nUID:tick-\(i)@corpus\r\nSUMMARY:Tick \(i)\r\nDTSTART:20220820T00000\(i)Z\r\n"
                + "DURATION:PT1S\r\nRRULE:FREQ=SECONDLY\r\nEND:VEVENT\r\n"
        }
        return Data((text + footer).utf8)
    }

    /// Five MINUTELY COUNT=2000000000 events from 1970.
    @Sendable static func fiveBombs() -> Data {
        var text = header
        for i in 0..<5 {
            text += "BEGIN:VEVENT\r\nUID:bomb-\(i)@corpus\r\nSUMMARY:Bomb \(i)\r\nDTSTART:19700101T00000\(i)Z\r\n"
                + "DURATION:PT1M\r\nRRULE:FREQ=MINUTELY;COUNT=2000000000\r\nEND:VEVENT\r\n"
        }
        return Data((text + footer).utf8)
    }
}

extension FileManager {
    func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
