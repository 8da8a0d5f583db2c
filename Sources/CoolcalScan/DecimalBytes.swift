/// Decimal integers in the bytes of an iCalendar value, read without making strings
/// (the pre-filter reads every RRULE of a file).
package enum DecimalBytes {
    /// A decimal integer as Swift's `Int64(String)` reads it (an optional sign, then
    /// digits, leading zeros allowed); magnitudes past 10^12 are nil (every caller
    /// refuses them anyway). `signed: false` refuses a minus sign (every such caller
    /// refuses values below 1).
    package static func number(_ v: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int, signed: Bool) -> Int64? {
        var i = from
        var negative = false
        if i < to && (v[i] == 0x2B || v[i] == 0x2D) {
            negative = v[i] == 0x2D
            if negative && !signed { return nil }
            i += 1
        }
        guard i < to else { return nil }
        var x: Int64 = 0
        while i < to {
            let d = v[i]
            guard d >= 0x30 && d <= 0x39 else { return nil }
            x = x * 10 + Int64(d - 0x30)
            guard x <= 1_000_000_000_000 else { return nil }
            i += 1
        }
        return negative ? -x : x
    }
}
