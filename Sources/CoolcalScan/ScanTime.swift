import Foundation
import CoolcalModel

/// A time value the pre-filter reads itself — `YYYYMMDD`, `YYYYMMDDTHHMMSS` or `…Z` —
/// as UTC-or-wall-clock seconds; strictly: anything libical might read otherwise is
/// not read, so the event is kept.
package struct ScanTime {
    package var seconds: Int64
    package var utc: Bool
    package var isDate: Bool

    package init?(_ v: UnsafeBufferPointer<UInt8>) {
        var n = v.count
        while n > 0 && (v[n - 1] == 0x20 || v[n - 1] == 0x09) { n -= 1 }
        guard n == 8 || n == 15 || n == 16, let p = v.baseAddress, let y = Self.digits(p, 0, 4),
              let mo = Self.digits(p, 4, 2), let d = Self.digits(p, 6, 2) else { return nil }
        var fields = CivilDateTime(year: y, month: mo, day: d)
        isDate = n == 8
        utc = n == 16
        if n >= 15 {
            guard v[8] == 0x54, let h = Self.digits(p, 9, 2), let mi = Self.digits(p, 11, 2),
                  let s = Self.digits(p, 13, 2) else { return nil }
            if n == 16 && v[15] != 0x5A { return nil }
            fields.hour = h
            fields.minute = mi
            fields.second = s
        }
        guard fields.isValid, y >= 1 else { return nil }
        seconds = fields.secondsAsUTC
    }

    /// `len` decimal digits at `at`; nil at any other byte. Inlined (a nested function
    /// here was a call per field of every time value).
    @inline(__always)
    private static func digits(_ p: UnsafePointer<UInt8>, _ at: Int, _ len: Int) -> Int? {
        var x = 0
        for i in at..<at + len {
            let d = p[i] &- 0x30
            guard d <= 9 else { return nil }
            x = x * 10 + Int(d)
        }
        return x
    }
}
