internal import CChecksum

/// A CRC-32C of bytes seen piece by piece (issue #48): a large calendar's bytes are
/// checksummed while they are scanned, and again when they are read back before the
/// rename; equal checksums (and the file's identity, before and after) say nobody
/// changed them meanwhile. Not a defence against someone who wants a collision (the
/// lock and the identity are): a check that the bytes under the copied ranges are
/// still those read, at the speed of the CPU's crc32 instruction.
package struct Checksum: Equatable, Sendable {
    /// The CRC of everything seen so far (0 for nothing).
    package private(set) var value: UInt32 = 0
    /// How many bytes were seen.
    package private(set) var count = 0
    /// The table instead of the CPU's instruction (tests compare the two).
    private let software: Bool

    package init(software: Bool = false) {
        self.software = software
    }

    /// Takes the next bytes.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        value = coolcal_crc32c_extend(value, base, bytes.count, software ? 1 : 0)
        count += bytes.count
    }

    /// The checksum of `bytes` alone.
    package static func of(_ bytes: UnsafeRawBufferPointer, software: Bool = false) -> Checksum {
        var c = Checksum(software: software)
        c.update(bytes)
        return c
    }

    package static func == (a: Checksum, b: Checksum) -> Bool {
        a.value == b.value && a.count == b.count
    }
}
