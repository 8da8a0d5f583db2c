/// Parses the payload's `start`/`end` strictly: `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM|±HHMM)`
/// or a bare `YYYY-MM-DD` for all-day invitations, proleptic Gregorian, years
/// 0001–9999, offsets up to ±18:00. (Foundation's ISO 8601 parser accepts 30 February,
/// `+25:00` and switches to the Julian calendar before 1582; an invitation must not.)
package enum InviteDate {
    package enum Failure: StatusError {
        case noOffset, unparseable

        /// 74 for both; the payload reader says them as an `InviteError` (65).
        package var exitStatus: ExitStatus {
            switch self {
            case .noOffset: return .ioError
            case .unparseable: return .ioError
            }
        }
    }

    package static func parse(_ text: String) throws -> OccurrenceTime {
        let s = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        if s.count == 10, let date = parseDate(s[...]) { return .date(date) }
        guard s.count >= 19, let date = parseDate(s[0..<10]), s[10] == UInt8(ascii: "T") || s[10] == UInt8(ascii: "t"),
              let hour = number(s[11..<13]), s[13] == UInt8(ascii: ":"), let minute = number(s[14..<16]),
              s[16] == UInt8(ascii: ":"), let second = number(s[17..<19]),
              hour <= 23, minute <= 59, second <= 59 else {
            throw Failure.unparseable
        }
        var i = 19
        if i < s.count && (s[i] == UInt8(ascii: ".") || s[i] == UInt8(ascii: ",")) {
            i += 1
            let digits = s[i...].prefix(while: { $0 >= 0x30 && $0 <= 0x39 }).count
            guard digits > 0 else { throw Failure.unparseable }
            i += digits
        }
        guard i < s.count else { throw Failure.noOffset }
        var offset = 0
        switch s[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard i + 1 == s.count else { throw Failure.unparseable }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let rest = Array(s[(i + 1)...])
            let hh: Int?, mm: Int?
            if rest.count == 5 && rest[2] == UInt8(ascii: ":") {
                hh = number(rest[0..<2]); mm = number(rest[3..<5])
            } else if rest.count == 4 {
                hh = number(rest[0..<2]); mm = number(rest[2..<4])
            } else {
                throw Failure.unparseable
            }
            guard let h = hh, let m = mm, h <= 18, m <= 59, h * 60 + m <= 18 * 60 else { throw Failure.unparseable }
            offset = (h * 3600 + m * 60) * (s[i] == UInt8(ascii: "-") ? -1 : 1)
        default:
            throw Failure.unparseable
        }
        var fields = date
        fields.hour = hour
        fields.minute = minute
        fields.second = second
        return .instant(fields.secondsAsUTC - Int64(offset))
    }

    /// `YYYY-MM-DD` exactly, naming a real day.
    package static func parseDate(_ s: String) -> CivilDateTime? {
        parseDate(Array(s.utf8)[...])
    }

    package static func parseDate(_ s: ArraySlice<UInt8>) -> CivilDateTime? {
        let b = Array(s)
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              let y = number(b[0..<4]), let m = number(b[5..<7]), let d = number(b[8..<10]), y >= 1 else { return nil }
        let date = CivilDateTime(year: y, month: m, day: d)
        return date.isValid ? date : nil
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for c in digits {
            guard c >= 0x30 && c <= 0x39 else { return nil }
            value = value * 10 + Int(c - 0x30)
        }
        return value
    }
}
