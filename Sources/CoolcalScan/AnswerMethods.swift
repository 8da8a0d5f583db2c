import CoolcalModel

/// The iTIP methods whose components answer about an event rather than describe it
/// (RFC 5546 §1.4): REPLY, COUNTER, REFRESH, DECLINECOUNTER. A VCALENDAR of one of them
/// holds no version of any event (`ICalCalendar.answers`).
public enum AnswerMethods {
    public static let all: Set<String> = ["REPLY", "COUNTER", "REFRESH", "DECLINECOUNTER"]

    /// Whether the line is `METHOD` (with parameters or not) whose value names one of
    /// them, in any case, blanks around it.
    package static func named(_ p: UnsafePointer<UInt8>, _ to: Int) -> Bool {
        let line = UnsafeBufferPointer(start: p, count: to)
        guard ContentLines.propertyName(line).map(ContentLines.upper) == Array("METHOD".utf8),
              let colon = line.firstIndex(of: 0x3A) else { return false }
        let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespaces).uppercased()
        return all.contains(value)
    }
}
