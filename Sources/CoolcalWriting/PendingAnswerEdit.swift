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
        var out: [UInt8] = []
        out.reserveCapacity(block.count + 64)
        var depth = 0
        var answered = false
        for line in ContentLines.logical(block) {
            if line.name == "BEGIN" { depth += 1 }
            if line.name == "END" {
                depth -= 1
                if depth == 0, answered, let comment {
                    out += AttendeeEdit.fold(Array(("COMMENT:" + escaped(comment)).utf8), ending)
                }
            }
            if depth == 1 && line.name == "ATTENDEE", let rewritten = rewrite(line.unfolded, partstat: partstat, me: me) {
                answered = true
                out += AttendeeEdit.fold(rewritten, ending)
            } else if depth == 1 && line.name == "DTSTAMP" {
                out += AttendeeEdit.fold(Array("DTSTAMP:\(stamp)".utf8), ending)
            } else {
                out += block[line.full]
            }
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
        guard let parts = ContentLineParts(line), me.contains(where: { ITIPMessage.sameAddress($0, parts.value) }) else { return nil }
        let name = ContentLineParts.name
        let old = parts.pieces.dropFirst().first { name($0) == "PARTSTAT" }.map(ContentLineParts.value)
        guard old == nil || old?.uppercased() == "NEEDS-ACTION" else { return nil }
        let set = Array("PARTSTAT=\(partstat)".utf8)
        var params = parts.pieces.dropFirst().filter { name($0) != "RSVP" }.map { name($0) == "PARTSTAT" ? set : $0 }
        if old == nil { params.insert(set, at: 0) }
        return parts.line(line, parameters: params)
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
