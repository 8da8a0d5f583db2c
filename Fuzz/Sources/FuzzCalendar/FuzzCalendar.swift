import CoolcalModel
import CoolcalICal
import CoolcalCalendars
import Foundation

/// Calendar reading (libical) and occurrence expansion over a fixed three-day window:
/// any bytes must give occurrences (and warnings) or a thrown error, never a crash.
private let floatingZone = TimeZone(identifier: "America/Los_Angeles") ?? TimeZone(secondsFromGMT: 0)!

/// 2022-08-19T00:00:00Z … 2022-08-22T00:00:00Z: the samples' weekend.
private let window = TimeWindow(start: 1_660_867_200, end: 1_660_867_200 + 3 * 86_400)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Data(bytes: data, count: size)
    guard let calendar = try? ICalReader.read(input, file: "fuzz.ics") else { return 0 }
    let loaded = LoadedCalendar(name: "fuzz.ics", color: nil, files: [calendar])
    let diagnostics = Diagnostics()
    let options = ExpansionOptions(floatingZone: floatingZone, me: ["me@example.com"], maxSteps: 20_000,
                                   maxOccurrencesPerEvent: 2_000)
    let found = OccurrenceExpander(options: options, diagnostics: diagnostics)
        .occurrences(in: window, calendars: [loaded])
    for o in found {
        _ = o.start.jsonString
        _ = o.end.jsonString
        _ = o.recurrenceID?.jsonString
        _ = o.busy
    }
    return 0
}
