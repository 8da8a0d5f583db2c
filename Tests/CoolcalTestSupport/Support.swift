import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalCalendars
@testable import CoolcalInvite

/// Builds a calendar from VEVENT text (wrapped in a VCALENDAR) and expands it.
func expand(_ body: String, from: String, to: String, tz: String = "UTC", me: [String] = [],
            maxSteps: Int = 2_000_000) throws -> (occurrences: [Occurrence], warnings: [String]) {
    let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + body + "END:VCALENDAR\r\n"
    let calendar = try ICalReader.read(Data(text.utf8), file: "test.ics")
    let loaded = LoadedCalendar(name: "test.ics", color: nil, files: [calendar])
    let diagnostics = Diagnostics()
    let zone = try #require(TimeZone(identifier: tz))
    let expander = OccurrenceExpander(options: ExpansionOptions(floatingZone: zone, me: me, maxSteps: maxSteps),
                                      diagnostics: diagnostics)
    let window = TimeWindow(start: try utc(from), end: try utc(to))
    return (expander.occurrences(in: window, calendars: [loaded]), diagnostics.warnings)
}

/// Seconds since the epoch of `2024-03-10T07:30:00Z`.
func utc(_ text: String) throws -> Int64 {
    guard case .instant(let s) = try InviteDate.parse(text) else { throw TestFailure("not an instant: \(text)") }
    return s
}

/// One VEVENT with the given lines (UID and DTSTAMP added).
func vevent(_ uid: String, _ lines: String...) -> String {
    "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20240101T000000Z\r\n" + lines.map { $0 + "\r\n" }.joined() + "END:VEVENT\r\n"
}

/// `start–end` strings of occurrences, as JSON writes them.
func spans(_ occurrences: [Occurrence]) -> [String] {
    occurrences.map { "\($0.start.jsonString)/\($0.end.jsonString)" }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
