import CoolcalModel

/// Whole properties of a stored event block replaced on its bytes: every line of the
/// event itself (not of a VALARM inside it) with one of the names goes, the new lines
/// stand where the first of them stood (or before `END:VEVENT`), and every other byte
/// of the block stays as the user's file has it.
package enum PropertyEdit {
    /// `block` with the properties `names` (upper case) replaced by `lines` (unfolded
    /// content lines without their line ends; folded here at 75 octets).
    package static func replacing(_ names: Set<String>, with lines: [String], in block: [UInt8]) -> [UInt8] {
        let ending = ContentLines.lineEnding(of: block)
        let physical = ContentLines.physical(block)
        let inserted = lines.flatMap { AttendeeEdit.fold(Array($0.utf8), ending) }
        var out: [UInt8] = []
        out.reserveCapacity(block.count + inserted.count)
        var depth = 0
        var placed = false
        var i = 0
        while i < physical.count {
            var end = i + 1
            while end < physical.count, let c = physical[end].content.first.map({ block[$0] }), ContentLines.isFold(c) { end += 1 }
            let name = String(decoding: ContentLines.propertyName(block[physical[i].content]), as: UTF8.self).uppercased()
            if name == "BEGIN" { depth += 1 }
            if name == "END" {
                depth -= 1
                if depth == 0 && !placed {
                    out += inserted
                    placed = true
                }
            }
            if depth == 1 && names.contains(name) {
                if !placed {
                    out += inserted
                    placed = true
                }
            } else {
                for j in i..<end { out += block[physical[j].full] }
            }
            i = end
        }
        return out
    }
}
