import Foundation
import Testing
@testable import CoolcalModel

/// `SystemZone` answers offsets from spans it learned instead of asking Foundation each
/// time: its answers must be Foundation's, for every zone, 1900–2100.
@Suite struct SystemZoneTests {
    /// Seconds at 1900-01-01T00:00Z and 2101-01-01T00:00Z.
    static let first = CivilDateTime(year: 1900, month: 1, day: 1).secondsAsUTC
    static let last = CivilDateTime(year: 2101, month: 1, day: 1).secondsAsUTC

    /// Every zone, an instant every 29 days (at odd times of day), forward then backward
    /// through the years; and wherever two samples disagree, the exact second the offset
    /// changes (found with Foundation alone) and the seconds either side of it.
    @Test func everyZoneAgreesWithFoundation() throws {
        let step: Int64 = 29 * 86_400 + 3_601
        var compared = 0, changes = 0
        for id in TimeZone.knownTimeZoneIdentifiers {
            let tz = try #require(TimeZone(identifier: id))
            let zone = SystemZone(tz)
            var t = Self.first
            var previous: (at: Int64, offset: Int)?
            while t < Self.last {
                let expected = zone.foundationOffset(atUTC: t)
                #expect(zone.offset(atUTC: t) == expected, "\(id) at \(t)")
                compared += 1
                if let p = previous, p.offset != expected {
                    let change = Self.firstSecond(after: p.at, before: t, in: zone, differingFrom: p.offset)
                    for probe in [change - 1, change, change + 1] {
                        #expect(zone.offset(atUTC: probe) == zone.foundationOffset(atUTC: probe), "\(id) at \(probe)")
                        compared += 1
                    }
                    changes += 1
                }
                previous = (t, expected)
                t += step
            }
            // Backward, with a fresh zone: spans learned from later instants first.
            let backward = SystemZone(tz)
            t = Self.last - 7_777
            while t > Self.first {
                #expect(backward.offset(atUTC: t) == backward.foundationOffset(atUTC: t), "\(id) at \(t) (backward)")
                compared += 1
                t -= 3 * step
            }
        }
        #expect(TimeZone.knownTimeZoneIdentifiers.count > 300)
        #expect(changes > 10_000)
        #expect(compared > 1_000_000)
    }

    /// The first second in (after, before] whose offset is not `offset` (by bisection).
    static func firstSecond(after: Int64, before: Int64, in zone: SystemZone, differingFrom offset: Int) -> Int64 {
        var low = after, high = before
        while high - low > 1 {
            let mid = low + (high - low) / 2
            if zone.foundationOffset(atUTC: mid) == offset { low = mid } else { high = mid }
        }
        return high
    }

    /// Hand-checked offsets: New York's 2024 spring-forward and fall-back seconds, asked
    /// out of order, and a zone's span cache shared by local-time conversions.
    @Test func newYork2024() throws {
        let zone = SystemZone(try #require(TimeZone(identifier: "America/New_York")))
        // 2024-03-10T07:00:00Z is 03:00 EDT; a second before is 01:59:59 EST.
        let spring: Int64 = 1_710_054_000
        // 2024-11-03T06:00:00Z is 01:00 EST; a second before is 01:59:59 EDT.
        let fall: Int64 = 1_730_613_600
        #expect(zone.offset(atUTC: fall) == -5 * 3600)
        #expect(zone.offset(atUTC: spring - 1) == -5 * 3600)
        #expect(zone.offset(atUTC: fall - 1) == -4 * 3600)
        #expect(zone.offset(atUTC: spring) == -4 * 3600)
        // 120 days before: 2023-11-11, after the fall-back of 2023-11-05: EST.
        #expect(zone.offset(atUTC: spring - 86_400 * 120) == -5 * 3600)
        #expect(zone.offset(atUTC: spring - 86_400 * 200) == -4 * 3600)
        // 02:30 on 2024-03-10 does not exist: RFC 5545 reads it with the offset before.
        #expect(zone.utcSeconds(of: CivilDateTime(year: 2024, month: 3, day: 10, hour: 2, minute: 30)) == spring + 1800)
        #expect(zone.localFields(ofUTC: fall) == CivilDateTime(year: 2024, month: 11, day: 3, hour: 1))
    }
}
