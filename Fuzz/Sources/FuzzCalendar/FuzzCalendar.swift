import CoolcalKit
import Foundation

/// Calendar reading (libical) and occurrence expansion over a fixed three-day window:
/// any bytes must give occurrences (and warnings) or a thrown error, never a crash.
private let floatingZone = TimeZone(identifier: "America/Los_Angeles") ?? TimeZone(secondsFromGMT: 0)!

/// 2022-08-19T00:00:00Z … 2022-08-22T00:00:00Z: the samples' weekend.
private let window = TimeWindow(start: 1_660_867_200, end: 1_660_867_200 + 3 * 86_400)

/// `LoadedCalendar` has no public initializer: load an empty vdir once and swap in the
/// parsed file (`files` and `name` are public). libFuzzer runs inputs on one thread.
nonisolated(unsafe) private let template: LoadedCalendar = {
    let dir = FileManager.default.temporaryDirectory
        .appendingPathComponent("coolcal-fuzz-\(getpid())", isDirectory: true)
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    guard var loaded = try? CalendarSource.load(path: dir.path) else {
        fatalError("fuzz harness: cannot load an empty calendar directory at \(dir.path)")
    }
    loaded.name = "fuzz.ics"
    loaded.color = nil
    return loaded
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Data(bytes: data, count: size)
    guard let calendar = try? ICalReader.read(input, file: "fuzz.ics") else { return 0 }
    var loaded = template
    loaded.files = [calendar]
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
