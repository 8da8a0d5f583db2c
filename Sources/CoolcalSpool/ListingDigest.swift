/// What a Maildir's listing holds, in a few words whatever its size: how many names, and
/// two sums of a hash of each (`new/NAME`, `cur/NAME:2,FLAGS`), which do not depend on the
/// order a directory lists its names in. Two listings of one count with the same sums hold
/// the same names but with a chance of about 2⁻¹²⁸ (the names are the delivery agent's,
/// not a sender's choice).
struct ListingDigest: Equatable {
    private(set) var count = 0
    private var first: UInt64 = 0
    private var second: UInt64 = 0

    init() {}

    /// `folder` (`new` or `cur`) and a file name's bytes.
    mutating func add<Name: Sequence>(folder: String, name: Name) where Name.Element == UInt8 {
        let (a, b) = Self.hashes(folder: folder, name: name)
        count += 1
        first &+= a
        second &+= b
    }

    /// Two independent 64-bit hashes of `folder/name`: FNV-1a and a multiply-rotate hash,
    /// each finished by SplitMix64's mixer.
    private static func hashes<Name: Sequence>(folder: String, name: Name) -> (UInt64, UInt64) where Name.Element == UInt8 {
        var fnv: UInt64 = 0xcbf2_9ce4_8422_2325
        var rotate: UInt64 = 0x243f_6a88_85a3_08d3
        func feed(_ byte: UInt8) {
            fnv = (fnv ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            rotate = ((rotate ^ UInt64(byte)) &* 0x9e37_79b9_7f4a_7c15)
            rotate = rotate << 31 | rotate >> 33
        }
        for byte in folder.utf8 { feed(byte) }
        feed(UInt8(ascii: "/"))
        for byte in name { feed(byte) }
        return (mix(fnv), mix(rotate))
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// `COUNT-FIRST-SECOND`, the sums in hexadecimal.
    var text: String {
        "\(count)-\(String(first, radix: 16))-\(String(second, radix: 16))"
    }

    init?(text: Substring) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, let count = Int(parts[0]), count >= 0,
              let first = UInt64(parts[1], radix: 16), let second = UInt64(parts[2], radix: 16) else { return nil }
        self.count = count
        self.first = first
        self.second = second
    }
}
