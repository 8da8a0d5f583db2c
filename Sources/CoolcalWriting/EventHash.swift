import Foundation
import CoolcalModel

/// A hash of one VEVENT block that survives what a store may do to text it did not
/// change: line folding, CRLF or LF, the order of properties (a CalDAV server may
/// re-serialize). FNV-1a over the unfolded content lines, sorted; 16 hex digits.
package enum EventHash {
    package static func of(_ block: [UInt8]) -> String {
        let unfolded = ContentLines.unfolded(block)
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        for byte in unfolded {
            if byte == 0x0A {
                if !current.isEmpty { lines.append(current) }
                current = []
            } else if byte != 0x0D {
                current.append(byte)
            }
        }
        if !current.isEmpty { lines.append(current) }
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for line in lines.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            for b in line + [0x0A] { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    package static func of(_ text: CalendarText, _ block: EventBlock) -> String {
        of(Array(text.bytes[block.range]))
    }
}
