import CoolcalICal
import CoolcalModel

/// The owner's `PARTSTAT` set in a stored iTIP event block, on its bytes: only the
/// owner's own `ATTENDEE` line (of the event itself, not of a VALARM) is rewritten —
/// its other parameters and value kept as they are, folded again at 75 octets — and
/// every other byte of the block stays as the user's file has it (their alarms,
/// notes, unknown properties).
package enum AttendeeEdit {
    /// What an edit did to a block.
    package enum Result: Equatable {
        /// The owner's line now says `PARTSTAT=partstat`.
        case edited([UInt8])
        /// It said so already.
        case unchanged
        /// No attendee line of the owner's in the block.
        case notAnAttendee
    }

    /// `setting(partstat:for:in:)` over the blocks of `text`: the edits to splice, and
    /// whether any block has an attendee line of `me` at all.
    /// `parameters`: more parameters to set on the line (`DELEGATED-TO` → its value as
    /// written), after PARTSTAT.
    package static func setting(partstat: String, for me: [String], in blocks: [EventBlock], of text: CalendarText,
                                parameters: [(name: String, value: String)] = []) -> (edits: [(range: Range<Int>, bytes: [UInt8])], found: Bool) {
        var edits: [(range: Range<Int>, bytes: [UInt8])] = []
        var found = false
        for block in blocks {
            switch setting(partstat: partstat, for: me, in: Array(text.bytes[block.range]), parameters: parameters) {
            case .edited(let new):
                found = true
                edits.append((block.range, new))
            case .unchanged: found = true
            case .notAnAttendee: break
            }
        }
        return (edits, found)
    }

    package static func setting(partstat: String, for me: [String], in block: [UInt8],
                                parameters: [(name: String, value: String)] = []) -> Result {
        let ending = ContentLines.lineEnding(of: block)
        var out: [UInt8] = []
        out.reserveCapacity(block.count + 32)
        var depth = 0
        var found = false
        var changed = false
        for line in ContentLines.logical(block) {
            if line.name == "BEGIN" { depth += 1 } else if line.name == "END" { depth -= 1 }
            if depth == 1 && line.name == "ATTENDEE",
               let rewritten = rewrite(line.unfolded, partstat: partstat, parameters: parameters, me: me) {
                found = true
                if rewritten != line.unfolded {
                    changed = true
                    out += fold(rewritten, ending)
                    continue
                }
            }
            out += block[line.full]
        }
        if !found { return .notAnAttendee }
        return changed ? .edited(out) : .unchanged
    }

    /// The line with `PARTSTAT=partstat` first among its parameters (then `parameters`,
    /// replacing those of the same names), when its value is one of `me`; nil for anyone
    /// else's line; the line itself when it says all that already.
    private static func rewrite(_ line: [UInt8], partstat: String, parameters: [(name: String, value: String)],
                                me: [String]) -> [UInt8]? {
        guard let parts = ContentLineParts(line), me.contains(where: { ITIPMessage.sameAddress($0, parts.value) }) else { return nil }
        let wanted = [("PARTSTAT", partstat)] + parameters
        let name = ContentLineParts.name
        let existing = Dictionary(parts.pieces.dropFirst().map { (name($0), ContentLineParts.value($0)) },
                                  uniquingKeysWith: { first, _ in first })
        if wanted.allSatisfy({ w in existing[w.0].map { w.0 == "PARTSTAT" ? $0.uppercased() == w.1 : $0 == w.1 } ?? false }) {
            return line
        }
        let names = Set(wanted.map(\.0))
        let kept = parts.pieces.dropFirst().filter { !names.contains(name($0)) }
        return parts.line(line, parameters: wanted.map { Array("\($0.0)=\($0.1)".utf8) } + kept)
    }

    /// A content line folded at 75 octets (RFC 5545 §3.1), never inside a UTF-8 character.
    static func fold(_ line: [UInt8], _ ending: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var start = 0
        var limit = 75
        while line.count - start > limit {
            var cut = start + limit
            while cut > start + 1 && line[cut] & 0xC0 == 0x80 { cut -= 1 }
            out += line[start..<cut] + ending + [0x20]
            start = cut
            limit = 74
        }
        return out + line[start...] + ending
    }
}
