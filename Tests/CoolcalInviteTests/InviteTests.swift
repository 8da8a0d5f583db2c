import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalSupport
@testable import CoolcalInvite
@testable import CoolcalTestSupport

@Suite struct InviteTests {
    func load(_ json: String) throws -> Invite {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("invite-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try InviteLoader.load(url.path, floatingZone: TimeZone(secondsFromGMT: 0)!)
    }

    func message(_ json: String) -> String? {
        do {
            _ = try load(json)
            return nil
        } catch let error as InviteError {
            return error.message
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func theOriginalPayload() throws {
        let invite = try load("""
        {"aps": {"alert": "x", "badge": 1}, "title": "Family Reunion",
         "start": "2022-08-20T08:00:00-08:00", "end": "2022-08-20T12:00:00-08:00", "id": 12}
        """)
        #expect(invite.title == "Family Reunion")
        #expect(invite.id == .number(12))
        #expect(invite.start == .instant(try utc("2022-08-20T16:00:00Z")))
        #expect(invite.end == .instant(try utc("2022-08-20T20:00:00Z")))
        #expect(!invite.allDay)
    }

    @Test func withoutApsWithZAndFractionalSeconds() throws {
        let invite = try load(#"{"title": "T", "start": "2022-08-20T08:00:00.250Z", "end": "2022-08-20T09:00:00Z", "id": 1, "extra": [1]}"#)
        #expect(invite.start == .instant(try utc("2022-08-20T08:00:00Z")))
    }

    @Test func datesMakeAnAllDayInvitation() throws {
        let one = try load(#"{"title": "T", "start": "2022-08-20", "end": "2022-08-20", "id": 1}"#)
        #expect(one.allDay)
        #expect(one.end == .date(CivilDateTime(year: 2022, month: 8, day: 21)))
        let two = try load(#"{"title": "T", "start": "2022-08-20", "end": "2022-08-22", "id": 1}"#)
        #expect(two.end == .date(CivilDateTime(year: 2022, month: 8, day: 22)))
    }

    @Test(arguments: [
        (#"{"start": "2022-08-20T08:00:00Z", "end": "2022-08-20T09:00:00Z", "id": 1}"#, "missing \"title\""),
        (#"{"title": "  ", "start": "2022-08-20T08:00:00Z", "end": "2022-08-20T09:00:00Z", "id": 1}"#, "\"title\" is empty"),
        (#"{"title": 5, "start": "2022-08-20T08:00:00Z", "end": "2022-08-20T09:00:00Z", "id": 1}"#, "\"title\" must be a string, found a number"),
        (#"{"title": "T", "end": "2022-08-20T09:00:00Z", "id": 1}"#, "missing \"start\""),
        (#"{"title": "T", "start": "tomorrow", "end": "2022-08-20T09:00:00Z", "id": 1}"#,
         "\"start\" \"tomorrow\" is not an ISO 8601 date-time (2022-08-20T08:00:00-08:00) or date (2022-08-20)"),
        (#"{"title": "T", "start": "2022-08-20T08:00:00", "end": "2022-08-20T09:00:00Z", "id": 1}"#,
         "\"start\" \"2022-08-20T08:00:00\" has no UTC offset (write Z or ±HH:MM, e.g. 2022-08-20T08:00:00-08:00)"),
        (#"{"title": "T", "start": "2022-02-30", "end": "2022-03-01", "id": 1}"#,
         "\"start\" \"2022-02-30\" is not an ISO 8601 date-time (2022-08-20T08:00:00-08:00) or date (2022-08-20)"),
        (#"{"title": "T", "start": "2022-08-20T08:00:00Z", "end": "2022-08-20T07:00:00Z", "id": 1}"#,
         "\"end\" 2022-08-20T07:00:00Z is before \"start\" 2022-08-20T08:00:00Z"),
        (#"{"title": "T", "start": "2022-08-20", "end": "2022-08-20T07:00:00Z", "id": 1}"#,
         "\"start\" and \"end\" must both be dates or both be date-times"),
        (#"{"title": "T", "start": "2022-08-20T08:00:00Z", "end": "2022-08-20T09:00:00Z"}"#, "missing \"id\""),
        (#"{"title": "T", "start": "2022-08-20T08:00:00Z", "end": "2022-08-20T09:00:00Z", "id": 12.5}"#, "\"id\" must be an integer, found 12.5"),
        (#"{"title": "T", "start": "2022-08-20T08:00:00Z", "end": "2022-08-20T09:00:00Z", "id": 12.50}"#, "\"id\" must be an integer, found 12.50"),
        // Out of range: shown as written, not as the Double it was read as.
        (#"{"title": "T", "start": "2022-08-20T08:00:00Z", "end": "2022-08-20T09:00:00Z", "id": 123456789012345678901234567890123456789012345}"#,
         "\"id\" 123456789012345678901234567890123456789012345 is out of range (at most 9223372036854775807)"),
        (#"{"title": "T", "start": "2022-08-20T08:00:00Z", "end": "2022-08-20T09:00:00Z", "id": -9223372036854775809}"#,
         "\"id\" -9223372036854775809 is out of range (at least -9223372036854775808)"),
        (#"{"title": "T", "start": "2022-08-20T08:00:00Z", "end": "2022-08-20T09:00:00Z", "id": 1E30}"#,
         "\"id\" 1E30 is out of range (at most 9223372036854775807)"),
        (#"{"x": {"id": 1e99}, "title": "T", "start": "2022-08-20T08:00:00Z", "end": "2022-08-20T09:00:00Z", "id": 9223372036854775808}"#,
         "\"id\" 9223372036854775808 is out of range (at most 9223372036854775807)"),
        (#"{"title": "T", "start": "2022-08-20T08:00:00Z", "end": "2022-08-20T09:00:00Z", "id": "12"}"#, "\"id\" must be an integer, found a string"),
        (#"{"title": "T", "start": "2022-08-20T08:00:00Z", "end": "2022-08-20T09:00:00Z", "id": true}"#, "\"id\" must be an integer, found a boolean"),
        (#"[1, 2]"#, "expected a JSON object, found an array"),
        ("", "empty (expected a JSON object with title, start, end and id)"),
        ("{\n  \"title\": \"T\",\n  \"id\": x\n}", "not valid JSON: invalid value at line 3, column 9"),
    ])
    func badPayloadsAreNamed(_ json: String, _ expected: String) {
        #expect(message(json) == expected)
    }

    @Test func notUTF8() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("latin1-\(UUID().uuidString).json")
        try Data([0x7B, 0x22, 0x74, 0xE9, 0x22, 0x7D]).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: InviteError(file: url.path, message: "not UTF-8 text (a push payload is UTF-8 JSON)")) {
            try InviteLoader.load(url.path, floatingZone: TimeZone(secondsFromGMT: 0)!)
        }
    }

    @Test func numberTextsKeepWhatWasWritten() {
        let json = #"{"a": [1, 2.50, {"b\u0021": -1e3}], "id": 123456789012345678901234567890, "id": 7, "c": 9223372036854775807}"#
        #expect(JSONValue.numberTexts(in: Data(json.utf8)) == [
            [.key("a"), .index(1)]: ["2.50"],
            [.key("a"), .index(2), .key("b!")]: ["-1e3"],
            [.key("id")]: ["123456789012345678901234567890"],
        ])
        #expect(JSONValue.numberTexts(in: Data("1.5".utf8)) == [[]: ["1.5"]])
        #expect(JSONValue.numberTexts(in: Data(#"{"s": "1.5 [", "t": true}"#.utf8)).isEmpty)
    }

    @Test(arguments: [
        ("DTSTART:20220820T100000Z\r\nDURATION:-PT1H", "DURATION is negative"),
        ("DTSTART:20220820T100000Z\r\nDTEND:20220820T090000Z", "DTEND is before DTSTART"),
    ])
    func iTIPEndBeforeStartNamesTheProperty(_ lines: String, _ expected: String) {
        let text = "BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:neg@example.com\r\n\(lines)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        #expect(message(text) == expected)
    }

    @Test func iTIPRequestIsDetectedByContent() throws {
        let text = """
        BEGIN:VCALENDAR\r
        METHOD:REQUEST\r
        BEGIN:VEVENT\r
        UID:kickoff-1@example.com\r
        DTSTAMP:20220801T000000Z\r
        SUMMARY:Kickoff\r
        DTSTART;TZID=Europe/Berlin:20220822T100000\r
        DTEND;TZID=Europe/Berlin:20220822T110000\r
        END:VEVENT\r
        END:VCALENDAR\r

        """
        let invite = try load(text)
        #expect(invite.id == .uid("kickoff-1@example.com"))
        #expect(invite.title == "Kickoff")
        #expect(invite.start == .instant(try utc("2022-08-22T08:00:00Z")))
        #expect(invite.end == .instant(try utc("2022-08-22T09:00:00Z")))
    }
}
