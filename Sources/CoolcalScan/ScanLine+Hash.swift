/// The hash the pre-filter knows names and UIDs by (`ScanLine.vevent`, `ScanBlock.uid`,
/// `ICalSkippedRevisions.hash`): a UID is hashed on every event of the file, so the
/// bytes are taken eight at a time, one multiply a word (a byte-by-byte FNV-1a took 5 %
/// of a scan, its multiplies one after another).
extension ScanLine {
    /// The hash of the `n` bytes at `p`, ASCII small letters read as capitals: the bytes
    /// as little-endian words of eight (the last, short one padded with zeros), each
    /// mixed in (`mixed`), then the length, then MurmurHash3's final mix, so that every
    /// bit depends on every byte.
    @inline(__always)
    package static func nameHash(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
        var h = nameSeed
        var i = 0
        while i + 8 <= n {
            h = mixed(h, upper(UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))))
            i += 8
        }
        let rest = n - i
        if rest > 0 {
            var last: UInt64
            if n >= 8 {
                // The last eight bytes, those hashed already shifted out.
                last = UInt64(littleEndian: UnsafeRawPointer(p + n - 8).loadUnaligned(as: UInt64.self)) >> UInt64(8 * (8 - rest))
            } else {
                last = 0
                for k in 0..<rest { last |= UInt64(p[k]) << UInt64(8 * k) }
            }
            h = mixed(h, upper(last))
        }
        return finished(h ^ UInt64(n))
    }

    /// `nameHash` of the bytes of `b`, which may be empty.
    package static func nameHash(_ b: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let p = b.baseAddress else { return finished(nameSeed) }
        return nameHash(p, b.count)
    }

    private static let nameSeed: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// A word mixed into the hash: multiplied in, the high half folded onto the low.
    @inline(__always)
    private static func mixed(_ h: UInt64, _ word: UInt64) -> UInt64 {
        let m = (h ^ word) &* 0xFF51_AFD7_ED55_8CCD
        return m ^ (m >> 32)
    }

    /// MurmurHash3's 64-bit finalizer.
    @inline(__always)
    private static func finished(_ h: UInt64) -> UInt64 {
        var x = h ^ (h >> 33)
        x = x &* 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        x = x &* 0xC4CE_B9FE_1A85_EC53
        return x ^ (x >> 33)
    }
}
