import Foundation
import Testing
@testable import CoolcalSupport

/// `BareCR` looks at 32 bytes at a time; its answer must be the byte-by-byte
/// definition's (a CR with no LF right after it, the last byte included) wherever
/// the CRs and LFs fall: across word boundaries, in the tail, at either end.
@Suite struct BareCRTests {
    /// The definition, one byte at a time.
    static func reference(_ bytes: [UInt8]) -> Bool {
        bytes.indices.contains { bytes[$0] == 0x0D && ($0 + 1 == bytes.count || bytes[$0 + 1] != 0x0A) }
    }

    static func present(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { BareCR.present(in: $0) }
    }

    @Test func everyPlacementOfOneCR() {
        // A CRLF text of every length up to 100 (three blocks and a tail), then one CR
        // made bare at every offset.
        for count in 0...100 {
            var text = [UInt8](repeating: UInt8(ascii: "a"), count: count)
            var at = 1
            while at < count { text[at - 1] = 0x0D; text[at] = 0x0A; at += 7 }
            #expect(Self.present(text) == Self.reference(text), "CRLF text of \(count) bytes")
            for i in text.indices {
                var one = text
                one[i] = 0x0D
                #expect(Self.present(one) == Self.reference(one), "a CR at \(i) of \(count) bytes: \(one)")
            }
        }
    }

    @Test func randomTextsOfCRsLFsAndOtherBytes() {
        var rng = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A, UInt8(ascii: "x"), 0x8D, 0x8A, 0x00, 0xFF]
        var sawBare = 0, sawClean = 0
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...99, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            // Half of them made CRLF-only, so that clean texts are as common as bare ones.
            let text = Bool.random(using: &rng) ? bytes.flatMap { $0 == 0x0D ? [0x0D, 0x0A] : [$0] } : bytes
            let want = Self.reference(text)
            if want { sawBare += 1 } else { sawClean += 1 }
            #expect(Self.present(text) == want, "\(text)")
        }
        #expect(sawBare > 1_000 && sawClean > 1_000, "both answers were tried: \(sawBare) bare, \(sawClean) clean")
    }
}
