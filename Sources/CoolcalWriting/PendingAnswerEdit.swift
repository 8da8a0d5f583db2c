import CoolcalICal
import CoolcalModel

/// The minimal edit that answers an invitation found pending in a calendar (issue 49),
/// on one stored VEVENT block's bytes: where my ATTENDEE line (of the event itself, not
/// of a VALARM) is at `PARTSTAT=NEEDS-ACTION` or has no PARTSTAT, its PARTSTAT is set and
/// its RSVP removed, the DTSTAMP replaced and a COMMENT added when given (RFC 5546 asks
/// these of a reply). SEQUENCE is never changed, SCHEDULE-STATUS never added; every other
/// byte of the block stays as stored. A block where I am not pending is left alone.
package enum PendingAnswerEdit {
    /// The block answered; nil when my ATTENDEE is not pending in it.
    /// `stamp`: the new DTSTAMP value (`20261206T061500Z`).
    package static func answer(_ block: [UInt8], me: [String], partstat: String, stamp: String, comment: String?) -> [UInt8]? {
        let ending = ContentLines.lineEnding(of: block)
        let lines = ContentLines.physical(block)
        var out: [UInt8] = []
        out.reserveCapacity(block.count + 64)
        var depth = 0
        var answered = false
        var i = 0
        while i < lines.count {
            var end = i + 1
            while end < lines.count, let c = lines[end].content.first.map({ block[$0] }), ContentLines.isFold(c) { end += 1 }
            var logical = Array(block[lines[i].content])
            for j in (i + 1)..<end { logical += block[lines[j].content].dropFirst() }
            let name = String(decoding: ContentLines.propertyName(logical), as: UTF8.self).uppercased()
            if name == "BEGIN" { depth += 1 }
            if name == "END" {
                depth -= 1
                if depth == 0, answered, let comment {
                    out += AttendeeEdit.fold(Array(("COMMENT:" + escaped(comment)).utf8), ending)
                }
            }
            if depth == 1 && name == "ATTENDEE", let rewritten = rewrite(logical, partstat: partstat, me: me) {
                answered = true
                out += AttendeeEdit.fold(rewritten, ending)
            } else if depth == 1 && name == "DTSTAMP" {
                out += AttendeeEdit.fold(Array("DTSTAMP:\(stamp)".utf8), ending)
            } else {
                for j in i..<end { out += block[lines[j].full] }
            }
            i = end
        }
        return answered ? out : nil
    }

    /// Whether my ATTENDEE line in the block is pending (what `answer` would edit).
    package static func isPending(_ block: [UInt8], me: [String]) -> Bool {
        answer(block, me: me, partstat: "ACCEPTED", stamp: "19700101T000000Z", comment: nil) != nil
    }

    /// My ATTENDEE line with `PARTSTAT=partstat` (in place of the old one, else after the
    /// name) and without RSVP; nil for anyone else's line, or mine when not pending.
    private static func rewrite(_ line: [UInt8], partstat: String, me: [String]) -> [UInt8]? {
        var quoted = false
        var colon: Int?
        for (n, b) in line.enumerated() {
            if b == 0x22 { quoted.toggle() } else if b == 0x3A && !quoted { colon = n; break }
        }
        guard let colon else { return nil }
        let value = String(decoding: line[(colon + 1)...], as: UTF8.self)
        guard me.contains(where: { ITIPMessage.sameAddress($0, value) }) else { return nil }
        var pieces: [[UInt8]] = [[]]
        quoted = false
        for b in line[..<colon] {
            if b == 0x22 { quoted.toggle() }
            if b == 0x3B && !quoted { pieces.append([]) } else { pieces[pieces.count - 1].append(b) }
        }
        func name(_ piece: [UInt8]) -> String { String(decoding: piece.prefix { $0 != 0x3D }, as: UTF8.self).uppercased() }
        func parameterValue(_ piece: [UInt8]) -> String { String(decoding: piece.drop { $0 != 0x3D }.dropFirst(), as: UTF8.self) }
        let old = pieces.dropFirst().first { name($0) == "PARTSTAT" }.map(parameterValue)
        guard old == nil || old?.uppercased() == "NEEDS-ACTION" else { return nil }
        let set = Array("PARTSTAT=\(partstat)".utf8)
        var params = pieces.dropFirst().filter { name($0) != "RSVP" }.map { name($0) == "PARTSTAT" ? set : $0 }
        if old == nil { params.insert(set, at: 0) }
        return pieces[0] + params.flatMap { [0x3B] + $0 } + line[colon...]
    }

    /// TEXT escaped (RFC 5545 §3.3.11).
    static func escaped(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            case "\r": continue
            default: out.append(c)
            }
        }
        return out
    }
}
