import Foundation
import CoolcalModel

/// A positive `P…` duration, read strictly by the pre-filter, as its longest length in
/// seconds.
package struct ScanDuration {
    package var seconds: Int64

    package init?(_ v: UnsafeBufferPointer<UInt8>) {
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
