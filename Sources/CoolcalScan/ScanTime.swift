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
        guard n == 8 || n == 15 || n == 16, let p = v.baseAddress, let (y, mo, d) = Self.date(p) else { return nil }
        isDate = n == 8
        utc = n == 16
        var (h, mi, s) = (0, 0, 0)
        if n >= 15 {
            guard v[8] == 0x54, let time = Self.time(p) else { return nil }
            if n == 16 && v[15] != 0x5A { return nil }
            (h, mi, s) = time
        }
        // `CivilDateTime`'s `isValid` and `secondsAsUTC`, for the years 1–9999 read here
        // (unsigned: no negative year to divide).
        guard y >= 1, mo >= 1, mo <= 12, d >= 1, d <= Self.daysIn(UInt(y), mo), h <= 23, mi <= 59, s <= 60 else { return nil }
        seconds = Int64(Self.days(UInt(y), UInt(mo), UInt(d))) * 86_400 + Int64(h * 3600 + mi * 60 + s)
    }

    /// `CivilDateTime.daysInMonth` for a year from 1.
    @inline(__always)
    private static func daysIn(_ y: UInt, _ m: Int) -> Int {
        if m == 2 { return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) ? 29 : 28 }
        return m == 4 || m == 6 || m == 9 || m == 11 ? 30 : 31
    }

    /// `CivilDateTime.daysFromCivil` (Howard Hinnant's days_from_civil) for a year from 1:
    /// its year before March is then at least 0, its era never negative.
    @inline(__always)
    private static func days(_ y0: UInt, _ m: UInt, _ d: UInt) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = y / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return Int(era * 146_097 + doe) - 719_468
    }

    /// `YYYYMMDD`, the 8 bytes at `p`; nil unless each is a decimal digit. Read as one
    /// word (byte 0 lowest): a byte is a digit when its high nibble is 3 and stays 3 with
    /// 6 added (no carry leaves a byte whose high nibble is 3).
    @inline(__always)
    private static func date(_ p: UnsafePointer<UInt8>) -> (Int, Int, Int)? {
        let x = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
        guard let pairs = digitPairs(x, mask: ~0) else { return nil }
        return (Int(pairs & 0xFFFF) * 100 + Int(pairs >> 16 & 0xFFFF), Int(pairs >> 32 & 0xFFFF), Int(pairs >> 48))
    }

    /// `HHMMSS`, the bytes 9–14 at `p` (after `YYYYMMDDT`), read as `date` reads: the word
    /// of bytes 7–14, its first two (a digit and the `T`) masked out.
    @inline(__always)
    private static func time(_ p: UnsafePointer<UInt8>) -> (Int, Int, Int)? {
        let x = UInt64(littleEndian: UnsafeRawPointer(p + 7).loadUnaligned(as: UInt64.self))
        guard let pairs = digitPairs(x, mask: ~0xFFFF) else { return nil }
        return (Int(pairs >> 16 & 0xFFFF), Int(pairs >> 32 & 0xFFFF), Int(pairs >> 48))
    }

    /// The bytes of `x` that `mask` keeps, each a decimal digit, as four 16-bit numbers of
    /// two digits each (bytes 2k and 2k+1: `10 × d(2k) + d(2k+1)`; 0 where masked out);
    /// nil when one of them is not a digit.
    @inline(__always)
    private static func digitPairs(_ x: UInt64, mask: UInt64) -> UInt64? {
        let nibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0 & mask, threes: UInt64 = 0x3030_3030_3030_3030 & mask
        guard x & nibbles == threes, ((x & mask) &+ (0x0606_0606_0606_0606 & mask)) & nibbles == threes else { return nil }
        // Each byte its digit (0–9): times 10 stays in the byte, as does adding the next.
        let d = (x & mask) &- threes
        return (d &* 10 &+ d >> 8) & 0x00FF_00FF_00FF_00FF
    }
}
