import Foundation

/// The day view's expected text, written by hand cell by cell (see DayViewTests for
/// each scenario): the invitation █, busy ▌, ignored ┊, rows per 15 minutes. Each is a
/// snapshot file beside the tests, `Snapshots/DayView/NAME.txt`, read as it is.
extension DayViewTests {
    static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots/DayView")

    /// The snapshot's text; empty (so that every comparison with it fails) when it is missing.
    static func snapshot(_ name: String) -> String {
        (try? String(contentsOf: snapshots.appendingPathComponent(name + ".txt"), encoding: .utf8)) ?? ""
    }

    static var overlap40: String { snapshot("overlap40") }
    static var overlap80: String { snapshot("overlap80") }
    static var overlap132: String { snapshot("overlap132") }
    static var allday40: String { snapshot("allday40") }
    static var allday80: String { snapshot("allday80") }
    static var allday132: String { snapshot("allday132") }
    static var midnight40: String { snapshot("midnight40") }
    static var midnight80: String { snapshot("midnight80") }
    static var midnight132: String { snapshot("midnight132") }
    static var fallback40: String { snapshot("fallback40") }
    static var fallback80: String { snapshot("fallback80") }
    static var fallback132: String { snapshot("fallback132") }
    static var fallbackASCII: String { snapshot("fallbackASCII") }
}
