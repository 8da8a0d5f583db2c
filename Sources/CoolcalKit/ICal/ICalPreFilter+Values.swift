import Foundation

/// The values the pre-filter reads itself: date-times, durations and RRULEs, strictly
/// (anything libical might read otherwise is not read, so the event is kept).
extension ICalPreFilter {
    /// `YYYYMMDD`, `YYYYMMDDTHHMMSS` or `…Z`, as UTC-or-wall-clock seconds.
    struct TimeValue {
        var seconds: Int64
        var utc: Bool
        var isDate: Bool

        init?(_ v: UnsafeBufferPointer<UInt8>) {
            var n = v.count
            while n > 0 && (v[n - 1] == 0x20 || v[n - 1] == 0x09) { n -= 1 }
            func digits(_ at: Int, _ len: Int) -> Int? {
                var x = 0
                for i in at..<at + len {
                    let d = v[i]
                    guard d >= 0x30 && d <= 0x39 else { return nil }
                    x = x * 10 + Int(d - 0x30)
                }
                return x
            }
            guard n == 8 || n == 15 || n == 16, let y = digits(0, 4), let mo = digits(4, 2), let d = digits(6, 2) else { return nil }
            var fields = CivilDateTime(year: y, month: mo, day: d)
            isDate = n == 8
            utc = n == 16
            if n >= 15 {
                guard v[8] == 0x54, let h = digits(9, 2), let mi = digits(11, 2), let s = digits(13, 2) else { return nil }
                if n == 16 && v[15] != 0x5A { return nil }
                fields.hour = h
                fields.minute = mi
                fields.second = s
            }
            guard fields.isValid, y >= 1 else { return nil }
            seconds = fields.secondsAsUTC
        }
    }

    /// A positive `P…` duration as its longest length in seconds.
    struct DurationValue {
        var seconds: Int64

        init?(_ v: UnsafeBufferPointer<UInt8>) {
            var n = v.count
            while n > 0 && (v[n - 1] == 0x20 || v[n - 1] == 0x09) { n -= 1 }
            var i = 0
            if i < n && v[i] == 0x2B { i += 1 }
            guard i < n && ContentLines.upper(v[i]) == 0x50 else { return nil }
            i += 1
            var total: Int64 = 0, number: Int64 = 0, digits = 0, sawUnit = false
            while i < n {
                let c = ContentLines.upper(v[i])
                if c >= 0x30 && c <= 0x39 {
                    number = number * 10 + Int64(c - 0x30)
                    digits += 1
                    guard digits <= 9 else { return nil }
                } else {
                    switch c {
                    case 0x54: guard digits == 0 else { return nil } // T
                    case 0x57: total += number * 7 * 86_400 // W
                    case 0x44: total += number * 86_400 // D
                    case 0x48: total += number * 3600 // H
                    case 0x4D: total += number * 60 // M
                    case 0x53: total += number // S
                    default: return nil
                    }
                    if c != 0x54 {
                        guard digits > 0 else { return nil }
                        sawUnit = true
                    }
                    number = 0
                    digits = 0
                }
                i += 1
            }
            guard sawUnit, digits == 0 else { return nil }
            seconds = total
        }
    }

    /// What the pre-filter needs of an RRULE: how far its instances can go.
    struct RuleValue {
        var frequency: Int64 = 0
        var until: TimeValue?
        var count: Int64?
        var interval: Int64 = 1
        /// Only FREQ/COUNT/INTERVAL/WKST, plus plain BYDAY on a weekly rule: one or more
        /// instances in every period, so COUNT bounds the last one.
        var onePerPeriod = true
        /// No BY parts at all.
        var plain = true

        /// For plain MONTHLY and YEARLY rules, the months between instances.
        var monthStep: Int? {
            guard plain else { return nil }
            if frequency == 31 * 86_400 { return Int(interval) }
            if frequency == 366 * 86_400 { return 12 * Int(interval) }
            return nil
        }

        /// For plain DAILY and WEEKLY rules, the exact step between instances in seconds
        /// of wall-clock time: instances are DTSTART plus whole steps.
        var period: Int64? {
            guard plain, frequency == 86_400 || frequency == 7 * 86_400 else { return nil }
            return frequency * interval
        }

        init?(_ v: UnsafeBufferPointer<UInt8>) {
            // Strict: anything libical might reject (and then drop with a warning the full
            // parse prints) is not judged here, so the event is kept.
            let text = String(decoding: v, as: UTF8.self).trimmingCharacters(in: .whitespaces).uppercased()
            var byDay = false
            var seen: Set<String> = []
            for part in text.split(separator: ";", omittingEmptySubsequences: false) {
                let kv = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                guard kv.count == 2, !kv[1].isEmpty, seen.insert(kv[0]).inserted else { return nil }
                switch kv[0] {
                case "FREQ":
                    let seconds: [String: Int64] = ["SECONDLY": 1, "MINUTELY": 60, "HOURLY": 3600, "DAILY": 86_400,
                                                    "WEEKLY": 7 * 86_400, "MONTHLY": 31 * 86_400, "YEARLY": 366 * 86_400]
                    guard let f = seconds[kv[1]] else { return nil }
                    frequency = f
                case "UNTIL":
                    guard let t = kv[1].utf8.withContiguousStorageIfAvailable({ TimeValue($0) }) ?? nil else { return nil }
                    until = t
                case "COUNT":
                    guard let c = Int64(kv[1]), c >= 1, c < 100_000_000 else { return nil }
                    count = c
                case "INTERVAL":
                    guard let i = Int64(kv[1]), i >= 1, i < 100_000 else { return nil }
                    interval = i
                case "WKST":
                    guard RuleValue.days.contains(Substring(kv[1])) else { return nil }
                case "BYDAY":
                    byDay = true
                    plain = false
                    for token in kv[1].split(separator: ",", omittingEmptySubsequences: false) {
                        guard token.count >= 2, RuleValue.days.contains(token.suffix(2)) else { return nil }
                        let ordinal = token.dropLast(2)
                        if !ordinal.isEmpty {
                            onePerPeriod = false
                            guard let n = Int(ordinal), n != 0, abs(n) <= 53 else { return nil }
                        }
                    }
                default:
                    guard let range = RuleValue.byRanges[kv[0]] else { return nil }
                    for token in kv[1].split(separator: ",", omittingEmptySubsequences: false) {
                        let signed = ["BYMONTHDAY", "BYYEARDAY", "BYWEEKNO", "BYSETPOS"].contains(kv[0])
                        guard let n = Int(token), range.contains(abs(n)), n >= 0 || signed, !(signed && n == 0) else { return nil }
                    }
                    onePerPeriod = false
                    plain = false
                }
            }
            guard frequency > 0, !(count != nil && until != nil) else { return nil }
            if byDay && frequency != 7 * 86_400 { onePerPeriod = false }
        }

        private static let days: Set<Substring> = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        private static let byRanges: [String: ClosedRange<Int>] = [
            "BYSECOND": 0...60, "BYMINUTE": 0...59, "BYHOUR": 0...23, "BYMONTHDAY": 1...31,
            "BYYEARDAY": 1...366, "BYWEEKNO": 1...53, "BYMONTH": 1...12, "BYSETPOS": 1...366,
        ]

        /// The latest start any instance can have (same clock as DTSTART's value), or nil.
        func lastStart(from start: TimeValue) -> Int64? {
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
}
