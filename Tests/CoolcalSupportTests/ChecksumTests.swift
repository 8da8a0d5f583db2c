import Foundation
import Testing
@testable import CoolcalSupport

/// The CRC-32C a streamed edit compares a large calendar's bytes by (issue #48): the
/// values RFC 3720 (iSCSI, appendix B.4) and the usual check value give, by the CPU's
/// instruction and by the table alike, piece by piece as in one go.
@Suite struct ChecksumTests {
    static func crc(_ bytes: [UInt8], software: Bool) -> UInt32 {
        bytes.withUnsafeBytes { Checksum.of($0, software: software).value }
    }

    @Test(arguments: [false, true]) func publishedValues(software: Bool) {
        #expect(Self.crc(Array("123456789".utf8), software: software) == 0xE306_9283)
        #expect(Self.crc([UInt8](repeating: 0, count: 32), software: software) == 0x8A91_36AA)
        #expect(Self.crc([UInt8](repeating: 0xFF, count: 32), software: software) == 0x62A8_AB43)
        #expect(Self.crc((0..<32).map { UInt8($0) }, software: software) == 0x46DD_794E)
        #expect(Self.crc((0..<32).map { UInt8(31 - $0) }, software: software) == 0x113F_DB5C)
        #expect(Self.crc([], software: software) == 0)
    }

    /// Pieces of every length at every alignment give the checksum of the whole, and the
    /// instruction's value is the table's.
    @Test func piecesGiveTheWholesChecksum() {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<5000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let whole = Self.crc(bytes, software: true)
        #expect(Self.crc(bytes, software: false) == whole)
        for cut in [0, 1, 7, 8, 9, 63, 64, 65, 4095, 4999, 5000] {
            var c = Checksum()
            bytes.withUnsafeBytes { all in
                c.update(UnsafeRawBufferPointer(rebasing: all[..<cut]))
                c.update(UnsafeRawBufferPointer(rebasing: all[cut...]))
            }
            #expect(c.value == whole && c.count == bytes.count, "cut at \(cut)")
        }
        // Three blocks of 4 KiB and more go three streams at once: long runs, cut anywhere.
        let long = (0..<100_003).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let longWhole = Self.crc(long, software: true)
        #expect(Self.crc(long, software: false) == longWhole)
        for cut in [1, 4096, 12_288, 12_289, 50_000] {
            var c = Checksum()
            long.withUnsafeBytes { all in
                c.update(UnsafeRawBufferPointer(rebasing: all[..<cut]))
                c.update(UnsafeRawBufferPointer(rebasing: all[cut...]))
            }
            #expect(c.value == longWhole, "cut at \(cut)")
        }
        var other = bytes
        other[2500] ^= 0x01
        #expect(Self.crc(other, software: false) != whole, "one bit else is another checksum")
    }
}
