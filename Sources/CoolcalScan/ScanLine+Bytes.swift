/// The byte searches of the pre-filter's line loop (`ICalPreFilter.feed`, `ScanLine`): 16
/// bytes compared at a time (SSE2's compare, or NEON's), then byte by byte for what is
/// left before the end, so that no search reads past it.
extension ScanLine {
    /// The first `;` in `base[from..<to]` (`to` when none), 16 bytes at a time while they
    /// are all before `to`.
    @inline(__always)
    package static func semicolon(_ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int) -> Int {
        var i = from
        while i + 16 <= to {
            let v = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD16<UInt8>.self)
            let m = halves(unsafeBitCast(v .== SIMD16<UInt8>(repeating: 0x3B), to: SIMD2<UInt64>.self))
            if m.low != 0 { return i + m.low.trailingZeroBitCount >> 3 }
            if m.high != 0 { return i + 8 + m.high.trailingZeroBitCount >> 3 }
            i += 16
        }
        while i < to && base[i] != 0x3B { i += 1 }
        return i
    }

    /// The 16 bytes at `p` compared with `:` and `;` (`lineBreaks`: LF and CR): each byte
    /// equal to either is 0xFF in `low` (bytes 0–7, the first in the lowest bits) or
    /// `high` (bytes 8–15), else 0. (The vectors are literals: built from parameters,
    /// the compare was compiled lane by lane, through memory.)
    @inline(__always)
    package static func nameBreaks(_ p: UnsafePointer<UInt8>) -> (low: UInt64, high: UInt64) {
        let v = UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self)
        let m = (v .== SIMD16<UInt8>(repeating: 0x3A)) .| (v .== SIMD16<UInt8>(repeating: 0x3B))
        return halves(unsafeBitCast(m, to: SIMD2<UInt64>.self))
    }

    @inline(__always)
    package static func lineBreaks(_ p: UnsafePointer<UInt8>) -> (low: UInt64, high: UInt64) {
        let v = UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self)
        let m = (v .== SIMD16<UInt8>(repeating: 0x0A)) .| (v .== SIMD16<UInt8>(repeating: 0x0D))
        return halves(unsafeBitCast(m, to: SIMD2<UInt64>.self))
    }

    /// The two halves of a compare's lanes, byte 0 lowest whatever the machine's order.
    @inline(__always)
    fileprivate static func halves(_ m: SIMD2<UInt64>) -> (low: UInt64, high: UInt64) {
        (UInt64(littleEndian: m[0]), UInt64(littleEndian: m[1]))
    }

    /// The first LF in `base[from..<count]`, and whether the line up to it has a CR that
    /// no LF follows (a lone CR: one before the line's CR LF, or anywhere in an LF-ended
    /// line); nil when there is no LF. One pass over the line's bytes, 16 at a time:
    /// it stops only at a CR or an LF, and a CR LF ends the line at once.
    @inline(__always)
    package static func lineEnd(_ base: UnsafePointer<UInt8>, from: Int, count: Int) -> (lf: Int, loneCR: Bool)? {
        var i = from
        var lone = false
        while i + 16 <= count {
            let m = lineBreaks(base + i)
            if m.low | m.high == 0 {
                i += 16
                continue
            }
            let k = i + (m.low != 0 ? m.low.trailingZeroBitCount >> 3 : 8 + m.high.trailingZeroBitCount >> 3)
            if base[k] == 0x0A { return (k, lone) }
            if k + 1 < count && base[k + 1] == 0x0A { return (k + 1, lone) }
            lone = true
            i = k + 1
        }
        while i < count {
            let c = base[i]
            if c == 0x0A { return (i, lone) }
            if c == 0x0D && !(i + 1 < count && base[i + 1] == 0x0A) { lone = true }
            i += 1
        }
        return nil
    }

    /// The first `count` bytes at `p` (at most 16), ASCII small letters made capitals and
    /// the bytes after them 0, as two little-endian words; `p` must have 16 bytes.
    @inline(__always)
    package static func upperWords(_ p: UnsafePointer<UInt8>, count: Int) -> (UInt64, UInt64) {
        let raw = UnsafeRawPointer(p)
        let a = upper(UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)))
        let b = upper(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        if count >= 16 { return (a, b) }
        if count >= 8 { return (a, b & ((1 << UInt64(8 * (count - 8))) &- 1)) }
        return (a & ((1 << UInt64(8 * max(count, 0))) &- 1), 0)
    }

    /// Each byte of `x` from `a` to `z` made its capital (`ContentLines.upper` on each):
    /// a byte's high bit is set in `small` exactly when it is 0x61–0x7A (its low 7 bits
    /// plus 0x1F reach 0x80, plus 0x05 do not, and its own high bit is clear; no sum
    /// carries out of its byte), and 0x80 >> 2 is the 0x20 taken off.
    @inline(__always)
    static func upper(_ x: UInt64) -> UInt64 {
        let low = x & 0x7F7F_7F7F_7F7F_7F7F
        let small = (low &+ 0x1F1F_1F1F_1F1F_1F1F) & ~(low &+ 0x0505_0505_0505_0505) & ~x & 0x8080_8080_8080_8080
        return x &- (small >> 2)
    }

    /// The first `:` or `"` in `base[from..<to]` (`to` when none).
    @inline(__always)
    static func colonOrQuote(_ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int) -> Int {
        var i = from
        while i + 16 <= to {
            let v = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD16<UInt8>.self)
            let m = halves(unsafeBitCast((v .== SIMD16<UInt8>(repeating: 0x3A)) .| (v .== SIMD16<UInt8>(repeating: 0x22)),
                                         to: SIMD2<UInt64>.self))
            if m.low != 0 { return i + m.low.trailingZeroBitCount >> 3 }
            if m.high != 0 { return i + 8 + m.high.trailingZeroBitCount >> 3 }
            i += 16
        }
        while i < to && base[i] != 0x3A && base[i] != 0x22 { i += 1 }
        return i
    }
}
