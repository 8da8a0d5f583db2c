import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalSupport
@testable import CoolcalOutput
@testable import CoolcalTestSupport

@Suite struct OutputTests {
    @Test func localeComesFromThePOSIXVariables() {
        #expect(TextStyle.locale(environment: ["LANG": "de_DE.UTF-8"]).identifier == "de_DE")
        #expect(TextStyle.locale(environment: ["LANG": "de_DE.UTF-8", "LC_ALL": "fr_FR.UTF-8"]).identifier == "fr_FR")
        #expect(TextStyle.locale(environment: ["LC_TIME": "en_GB.UTF-8", "LANG": "de_DE"]).identifier == "en_GB")
        #expect(TextStyle.locale(environment: ["LANG": "C"]).identifier == "en_US_POSIX")
        #expect(TextStyle.wantsUnicode(environment: ["LANG": "de_DE.UTF-8"]))
        #expect(!TextStyle.wantsUnicode(environment: ["LANG": "C"]))
        #expect(!TextStyle.wantsUnicode(environment: ["LANG": "de_DE.ISO-8859-1"]))
    }

    @Test func dateRangesFollowLocaleAndZone() throws {
        let start = OccurrenceTime.instant(try utc("2022-08-20T16:00:00Z"))
        let end = OccurrenceTime.instant(try utc("2022-08-20T20:00:00Z"))
        let de = TextStyle(locale: Locale(identifier: "de_DE"), zone: TimeZone(identifier: "Europe/Berlin")!,
                           color: false, unicode: true, terminal: false)
        #expect(DateText(style: de).range(start: start, end: end) == "20.08.2022, 18:00–22:00 Uhr")
        let us = TextStyle(locale: Locale(identifier: "en_US"), zone: TimeZone(identifier: "America/Los_Angeles")!,
                           color: false, unicode: false, terminal: false)
        #expect(DateText(style: us).range(start: start, end: end) == "Aug 20, 2022, 9:00 AM - 1:00 PM")
        let allDay = DateText(style: us).range(start: .date(CivilDateTime(year: 2022, month: 9, day: 2)),
                                                end: .date(CivilDateTime(year: 2022, month: 9, day: 5)))
        #expect(allDay == "Sep 2 - 4, 2022 (all day)")
    }

    @Test func jsonEscapesAndKeepsKeyOrder() {
        let value = JSONValue.object([("b", .string("q\"\\\n\u{1}é")), ("a", .array([.int(1), .null, .bool(false)]))])
        #expect(JSONWriter.string(value, pretty: false) == "{\"b\":\"q\\\"\\\\\\n\\u0001é\",\"a\":[1,null,false]}\n")
    }

    /// Strings with nothing to escape are copied whole; the line and paragraph
    /// separators (whose UTF-8 starts with 0xE2, as an en dash's does) still are.
    @Test func jsonCopiesPlainStringsAndEscapesSeparators() {
        let value = JSONValue.array([.string("Family Reunion – 10:00"), .string("a\u{2028}b\u{2029}c"), .string("plain é 日本")])
        #expect(JSONWriter.string(value, pretty: false) == "[\"Family Reunion – 10:00\",\"a\\u2028b\\u2029c\",\"plain é 日本\"]\n")
    }

    /// Numbers as `String` writes them, the extremes too; pretty output indented by two.
    @Test func jsonWritesNumbersAndIndents() {
        let numbers = JSONValue.array([.int(0), .int(-7), .int(Int64.min), .int(Int64.max), .double(1.5), .double(.infinity)])
        #expect(JSONWriter.string(numbers, pretty: false) == "[0,-7,-9223372036854775808,9223372036854775807,1.5,null]\n")
        let nested = JSONValue.object([("a", .array([.int(1), .string("x")])), ("b", .object([])), ("c", .array([]))])
        #expect(JSONWriter.string(nested) == "{\n  \"a\": [\n    1,\n    \"x\"\n  ],\n  \"b\": {},\n  \"c\": []\n}\n")
    }

    @Test func calendarColours() {
        #expect(CalendarColor.sgr("#1E90FF") == "38;2;30;144;255")
        #expect(CalendarColor.sgr("#1E90FFCC") == "38;2;30;144;255")
        #expect(CalendarColor.sgr("seagreen") == "38;2;46;139;87")
        #expect(CalendarColor.sgr("not-a-colour") == nil)
    }
}
