import Foundation
import CoolcalModel

/// Every UTC offset a system zone has had or will have — tzdata as Foundation reads it,
/// every transition from 1653 to 2201 (past them the last rules repeat) — for the TZID a
/// file names it by, resolved as `ZoneBook` resolves a name the file does not define; nil
/// when no system zone has that name. The pre-filter bounds a time in such a zone by it
/// instead of by a day either way (`ScanZones`). Cached for the process (a
/// vdir's files share it) and safe from both threads of a split scan.
package enum ZoneOffsetRange {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var known: [String: ClosedRange<Int>?] = [:]

    /// Every offset the system zone named `tzid` has had or will have; nil: no such zone.
    package static func of(_ tzid: String) -> ClosedRange<Int>? {
        lock.lock()
        defer { lock.unlock() }
        if let cached = known[tzid] { return cached }
        let range = (ZoneBook.systemZone(named: tzid) as? SystemZone).map { all($0.timeZone) }
        known[tzid] = .some(range)
        return range
    }

    private static func all(_ zone: TimeZone) -> ClosedRange<Int> {
        var at = Date(timeIntervalSince1970: -10_000_000_000)
        let end = Date(timeIntervalSince1970: 7_300_000_000)
        var low = zone.secondsFromGMT(for: at), high = low
        while let next = zone.nextDaylightSavingTimeTransition(after: at), next < end {
            let offset = zone.secondsFromGMT(for: next)
            (low, high, at) = (min(low, offset), max(high, offset), next)
        }
        return low...high
    }
}
