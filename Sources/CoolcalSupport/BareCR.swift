/// Whether a text has a CR that no LF follows (libical ends a line there; an edit,
/// which finds lines by LF, would not see it). One pass over the bytes, 32 at a time:
/// in a CRLF file every line has a CR, so looking at each CR alone costs a call per
/// line; here the bytes and the bytes one further on are compared as vectors, and a
/// CR is bare when the byte after it is no LF (64 MiB: ~10 ms here, where a `memchr`
/// per CR took ~40 ms and eight bytes at a time ~25 ms).
package enum BareCR {
    package static func present(in bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        guard let base = bytes.baseAddress else { return false }
        let cr = SIMD32<UInt8>(repeating: 0x0D), lf = SIMD32<UInt8>(repeating: 0x0A)
        var at = 0
        // A block of 32 whose following byte exists: every CR's next byte is in `next`.
        while at + 33 <= count {
            let here = base.loadUnaligned(fromByteOffset: at, as: SIMD32<UInt8>.self)
            let next = base.loadUnaligned(fromByteOffset: at + 1, as: SIMD32<UInt8>.self)
            // (Read as four words: `any` on the mask is a call, not inlined.)
            let words = unsafeBitCast((here .== cr) .& (next .!= lf), to: SIMD4<UInt64>.self)
            if words[0] | words[1] | words[2] | words[3] != 0 { return true }
            at += 32
        }
        while at < count {
            if base.load(fromByteOffset: at, as: UInt8.self) == 0x0D
                && (at + 1 == count || base.load(fromByteOffset: at + 1, as: UInt8.self) != 0x0A) { return true }
            at += 1
        }
        return false
    }
}
