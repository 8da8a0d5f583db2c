/// Whether a text has a CR that no LF follows (libical ends a line there; an edit,
/// which finds lines by LF, would not see it). One pass over the bytes, eight at a
/// time: in a CRLF file every line has a CR, so looking at each CR alone costs a call
/// per line; here a word's CRs and LFs are found as bit masks, exactly, and a CR is
/// bare when the byte after it (in the same word, or the next word's first) is no LF.
enum BareCR {
    static func present(in bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        guard let base = bytes.baseAddress, count > 0 else { return false }
        let words = count / 8
        var at = 0
        if words > 0 {
            var word = UInt64(littleEndian: base.loadUnaligned(as: UInt64.self))
            for w in 0..<words {
                // The byte after this word's last: the next word's first (or the tail's).
                let crs = mask(word, of: 0x0D)
                let lfs = mask(word, of: 0x0A)
                var nextLF: UInt64 = 0
                if w + 1 < words {
                    let next = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: (w + 1) * 8, as: UInt64.self))
                    nextLF = mask(next, of: 0x0A) << 56
                    word = next
                } else if (w + 1) * 8 < count, base.load(fromByteOffset: (w + 1) * 8, as: UInt8.self) == 0x0A {
                    nextLF = 0x80 << 56
                }
                // Byte i's high bit at bit 8i+7; the byte after it is byte i+1 (little endian).
                if crs & ~((lfs >> 8) | nextLF) != 0 { return true }
            }
            at = words * 8
        }
        while at < count {
            if base.load(fromByteOffset: at, as: UInt8.self) == 0x0D
                && (at + 1 == count || base.load(fromByteOffset: at + 1, as: UInt8.self) != 0x0A) { return true }
            at += 1
        }
        return false
    }

    /// The high bit of each byte of `word` that equals `byte`, and no other bit: no
    /// carry crosses a byte, so there are no false hits above a true one.
    @inline(__always)
    static func mask(_ word: UInt64, of byte: UInt8) -> UInt64 {
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let x = word ^ (UInt64(byte) &* 0x0101_0101_0101_0101)
        return ~(((x & low) &+ low) | x) & ~low
    }
}
