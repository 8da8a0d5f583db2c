import CoolcalICal
import Foundation
import Testing
@testable import CoolcalScan

/// What `accept` writes reads back the same in libical and in Python's icalendar
/// (installed by `make test` into .build/pyenv).
@Suite struct ReadbackTests {
    static let python = Binary.root.appendingPathComponent(".build/pyenv/bin/python").path

    struct Event: Codable, Equatable {
        var uid: String
        var summary: String?
        var start: String?
        var end: String?
        var sequence: Int?
        var status: String?
        var invite_id: String?
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: ReadbackTests.python), "needs make pydeps"))
    func writtenEventsReadBackIdentically() throws {
        let cal = try Binary.temp("work.ics", try Data(contentsOf: URL(fileURLWithPath: Binary.sample("work.ics"))))
        let titles = [
            "Plain", "Quotes \"here\", commas, semi;colons and back\\slash",
            "Ünïcödé ☕ 日本語 " + String(repeating: "long title that must be folded ", count: 4),
            "Line one\nline two", "END:VEVENT BEGIN:VEVENT",
        ]
        for (i, title) in titles.enumerated() {
            let allDay = i == 2
            let start = allDay ? "2030-02-0\(i + 1)" : "2030-02-0\(i + 1)T09:30:00+01:00"
            let end = allDay ? "2030-02-0\(i + 3)" : "2030-02-0\(i + 1)T10:45:00+01:00"
            let json = try JSONSerialization.data(withJSONObject: ["title": title, "start": start, "end": end, "id": 500 + i])
            #expect(try Binary.run(["accept", try Binary.temp("i\(i).json", json), cal]).status == 0)
        }
        // Re-send one with a new title: SEQUENCE 1.
        let resend = try JSONSerialization.data(withJSONObject: ["title": "Plain, renamed", "start": "2030-02-01T09:30:00+01:00",
                                                                 "end": "2030-02-01T10:45:00+01:00", "id": 500])
        #expect(try Binary.run(["accept", try Binary.temp("r.json", resend), cal]).status == 0)

        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.python)
        p.arguments = [Binary.root.appendingPathComponent("Tests/Readback/readback.py").path, cal]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        let python = try String(decoding: data, as: UTF8.self).split(separator: "\n")
            .map { try JSONDecoder().decode(Event.self, from: Data($0.utf8)) }
            .filter { $0.invite_id != nil }

        let calendar = try ICalReader.read(try Data(contentsOf: URL(fileURLWithPath: cal)), file: cal)
        let libical = calendar.events.filter { $0.inviteID != nil }.map { e in
            Event(uid: e.uid ?? "", summary: e.summary, start: e.start.map(Self.text), end: e.end.map(Self.text),
                  sequence: e.sequence, status: e.status, invite_id: e.inviteID)
        }
        #expect(python.count == titles.count)
        #expect(python == libical)
        // The text itself survives (libical writes a newline as \n, read back as a newline).
        let trimmed = titles.dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(Set(python.compactMap(\.summary)) == Set(["Plain, renamed"] + trimmed))
        #expect(python.first { $0.invite_id == "500" }?.sequence == 1)
    }

    static func text(_ t: ICalTime) -> String {
        t.isDate ? t.fields.dateString : t.fields.utcString
    }
}
