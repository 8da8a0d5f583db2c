import Foundation
import CoolcalModel

/// What the pre-filter needs of an RRULE: how far its instances can go.
package struct ScanRule {
    package var frequency: Int64 = 0
    package var until: ScanTime?
    package var count: Int64?
    package var interval: Int64 = 1
    /// Only FREQ/COUNT/INTERVAL/WKST, plus plain BYDAY on a weekly rule: one or more
    /// instances in every period, so COUNT bounds the last one.
    package var onePerPeriod = true
    /// No BY parts at all.
    package var plain = true
    /// The days BYDAY, BYMONTH and BYMONTHDAY allow (`RuleDays`).
    package var days = RuleDays()

    /// For plain MONTHLY and YEARLY rules, the months between instances.
    package var monthStep: Int? {
        guard plain else { return nil }
        if frequency == 31 * 86_400 { return Int(interval) }
        if frequency == 366 * 86_400 { return 12 * Int(interval) }
        return nil
    }

    /// For plain DAILY and WEEKLY rules, the exact step between instances in seconds
    /// of wall-clock time: instances are DTSTART plus whole steps.
    package var period: Int64? {
        guard plain, frequency == 86_400 || frequency == 7 * 86_400 else { return nil }
        return frequency * interval
    }

    package init?(_ v: UnsafeBufferPointer<UInt8>) {
        // Strict: anything libical might reject (and then drop with a warning the full
        // parse prints) is not judged here, so the event is kept. Read over the bytes
        // (this runs for every RRULE of the file): ASCII only, spaces and tabs trimmed
        // at both ends, names and values upper-cased.
        var from = 0, to = v.count
        while from < to && (v[from] == 0x20 || v[from] == 0x09) { from += 1 }
        while to > from && (v[to - 1] == 0x20 || v[to - 1] == 0x09) { to -= 1 }
        var byDay = false
        var seen: UInt16 = 0
        var at = from
        while true {
            var end = at
            while end < to && v[end] != 0x3B { end += 1 }
            var eq = at
            while eq < end && v[eq] != 0x3D { eq += 1 }
            guard eq < end, eq + 1 < end, let key = Key.of(v, at, eq), seen & key.bit == 0 else { return nil }
            seen |= key.bit
            let value = eq + 1
            switch key {
            case .freq:
                guard let f = Self.frequency(v, value, end) else { return nil }
                frequency = f
            case .until:
                guard end - value <= 64 else { return nil }
                let t = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer -> ScanTime? in
                    for i in value..<end { buffer[i - value] = ContentLines.upper(v[i]) }
                    return ScanTime(UnsafeBufferPointer(rebasing: buffer[0..<(end - value)]))
                }
                guard let t else { return nil }
                until = t
            case .count:
                guard let c = DecimalBytes.number(v, value, end, signed: false), c >= 1, c < 100_000_000 else { return nil }
                count = c
            case .interval:
                guard let i = DecimalBytes.number(v, value, end, signed: false), i >= 1, i < 100_000 else { return nil }
                interval = i
            case .wkst:
                guard end - value == 2, Self.isDay(v, value) else { return nil }
            case .byDay:
                byDay = true
                plain = false
                var t = value
                while true {
                    var tEnd = t
                    while tEnd < end && v[tEnd] != 0x2C { tEnd += 1 }
                    guard tEnd - t >= 2, Self.isDay(v, tEnd - 2) else { return nil }
                    days.addWeekday(ContentLines.upper(v[tEnd - 2]), ContentLines.upper(v[tEnd - 1]), first: t == value)
                    if tEnd - 2 > t {
                        onePerPeriod = false
                        guard let n = DecimalBytes.number(v, t, tEnd - 2, signed: true), n != 0, abs(n) <= 53 else { return nil }
                        days.addPosition(n)
                    }
                    if tEnd == end { break }
                    t = tEnd + 1
                }
            case .by(let range, let signed, _):
                var t = value
                while true {
                    var tEnd = t
                    while tEnd < end && v[tEnd] != 0x2C { tEnd += 1 }
                    guard let n = DecimalBytes.number(v, t, tEnd, signed: true), range.contains(abs(n)),
                          n >= 0 || signed, !(signed && n == 0) else { return nil }
                    switch key.bit {
                    case 4096: days.addMonth(n, first: t == value)
                    case 512: days.addMonthDay(n, first: t == value)
                    case 64, 128, 256: days.fixedTime = false
                    default: days.judged = false
                    }
                    if tEnd == end { break }
                    t = tEnd + 1
                }
                onePerPeriod = false
                plain = false
            }
            if end == to { break }
            at = end + 1
        }
        guard frequency > 0, !(count != nil && until != nil) else { return nil }
        if byDay && frequency != 7 * 86_400 { onePerPeriod = false }
        days.settle(frequency: frequency)
    }

    /// The RRULE parts the pre-filter reads; any other name keeps the event.
    package enum Key {
        case freq, until, count, interval, wkst, byDay
        case by(ClosedRange<Int64>, signed: Bool, bit: UInt16)

        package var bit: UInt16 {
            switch self {
            case .freq: return 1
            case .until: return 2
            case .count: return 4
            case .interval: return 8
            case .wkst: return 16
            case .byDay: return 32
            case .by(_, _, let bit): return bit
            }
        }

        package static func of(_ v: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Key? {
            func named(_ name: StaticString) -> Bool {
                guard to - from == name.utf8CodeUnitCount else { return false }
                for i in 0..<(to - from) where ContentLines.upper(v[from + i]) != name.utf8Start[i] { return false }
                return true
            }
            if named("FREQ") { return .freq }
            if named("UNTIL") { return .until }
            if named("COUNT") { return .count }
            if named("INTERVAL") { return .interval }
            if named("WKST") { return .wkst }
            if named("BYDAY") { return .byDay }
            if named("BYSECOND") { return .by(0...60, signed: false, bit: 64) }
            if named("BYMINUTE") { return .by(0...59, signed: false, bit: 128) }
            if named("BYHOUR") { return .by(0...23, signed: false, bit: 256) }
            if named("BYMONTHDAY") { return .by(1...31, signed: true, bit: 512) }
            if named("BYYEARDAY") { return .by(1...366, signed: true, bit: 1024) }
            if named("BYWEEKNO") { return .by(1...53, signed: true, bit: 2048) }
            if named("BYMONTH") { return .by(1...12, signed: false, bit: 4096) }
            if named("BYSETPOS") { return .by(1...366, signed: true, bit: 8192) }
            return nil
        }
    }

    /// FREQ's value as the longest period in seconds.
    private static func frequency(_ v: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Int64? {
        func named(_ name: StaticString) -> Bool {
            guard to - from == name.utf8CodeUnitCount else { return false }
            for i in 0..<(to - from) where ContentLines.upper(v[from + i]) != name.utf8Start[i] { return false }
            return true
        }
        if named("DAILY") { return 86_400 }
        if named("WEEKLY") { return 7 * 86_400 }
        if named("MONTHLY") { return 31 * 86_400 }
        if named("YEARLY") { return 366 * 86_400 }
        if named("HOURLY") { return 3600 }
        if named("MINUTELY") { return 60 }
        if named("SECONDLY") { return 1 }
        return nil
    }

    /// MO … SU, any case.
    private static func isDay(_ v: UnsafeBufferPointer<UInt8>, _ at: Int) -> Bool {
        let a = ContentLines.upper(v[at]), b = ContentLines.upper(v[at + 1])
        switch (a, b) {
        case (0x4D, 0x4F), (0x54, 0x55), (0x57, 0x45), (0x54, 0x48), (0x46, 0x52), (0x53, 0x41), (0x53, 0x55): return true
        default: return false
        }
    }

    /// The latest start any instance can have (same clock as DTSTART's value), or nil.
    package func lastStart(from start: ScanTime) -> Int64? {
        if let until {
            return until.seconds + (until.isDate ? 86_400 : 0) + (until.utc == start.utc ? 0 : ICalPreFilter.margin)
        }
        guard let count, onePerPeriod else { return nil }
        let f = CivilDateTime(utcSeconds: start.seconds)
        if frequency == 31 * 86_400 && f.day > 28 { return nil }
        if frequency == 366 * 86_400 && f.month == 2 && f.day == 29 { return nil }
        // COUNT up to 10^8 times INTERVAL up to 10^5 years overflows: no bound then.
        let (periods, o1) = (count + 1).multipliedReportingOverflow(by: interval)
        let (span, o2) = periods.multipliedReportingOverflow(by: frequency)
        let (last, o3) = start.seconds.addingReportingOverflow(span)
        return o1 || o2 || o3 ? nil : last
    }
}
