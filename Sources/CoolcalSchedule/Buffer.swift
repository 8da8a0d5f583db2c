import Foundation

/// The time added before and after an invitation (`--buffer`): `2h`, `90m`,
/// `1h30m`, `1d`, `45s`, `0`, or ISO 8601 `PT2H`. Days are calendar days in `--tz`.
public struct Buffer: Equatable, Sendable {
    public var days: Int
    public var seconds: Int

    public static let standard = Buffer(days: 0, seconds: 7200)

    public init(days: Int, seconds: Int) {
        self.days = days
        self.seconds = seconds
    }

    /// The longest buffer, in days: anything longer is a typo, and would leave the
    /// calendar's range.
    public static let maximumDays = 366

    /// nil when the text is not a duration, or is one longer than `maximumDays`.
    public init?(parsing raw: String) {
        guard let parts = Buffer.parts(raw), parts.days * 86_400 + parts.seconds <= Buffer.maximumDays * 86_400 else {
            return nil
        }
        self.init(days: parts.days, seconds: parts.seconds)
    }

    /// Whether the text is a duration, but longer than `maximumDays`.
    public static func isTooLong(_ raw: String) -> Bool {
        guard let parts = parts(raw) else { return false }
        return parts.days * 86_400 + parts.seconds > maximumDays * 86_400
    }

    /// Days and seconds of the text, uncapped; nil when it is not a duration.
    private static func parts(_ raw: String) -> (days: Int, seconds: Int)? {
        var text = raw.trimmingCharacters(in: .whitespaces).lowercased()
        if text.hasPrefix("pt") { text.removeFirst(2) }
        else if text.hasPrefix("p") { text.removeFirst() ; text = text.replacingOccurrences(of: "t", with: "") }
        guard !text.isEmpty else { return nil }
        if text == "0" { return (0, 0) }
        var days = 0, seconds = 0, number = ""
        for ch in text {
            if ch.isASCII && ch.isNumber { number.append(ch); continue }
            guard let n = Int(number), n <= 100_000 else { return nil }
            switch ch {
            case "w": days += 7 * n
            case "d": days += n
            case "h": seconds += 3600 * n
            case "m": seconds += 60 * n
            case "s": seconds += n
            default: return nil
            }
            number = ""
        }
        guard number.isEmpty else { return nil }
        return (days, seconds)
    }

    /// `2 h`, `1 h 30 min`, `0`.
    public var description: String {
        var parts: [String] = []
        if days > 0 { parts.append("\(days) d") }
        if seconds / 3600 > 0 { parts.append("\(seconds / 3600) h") }
        if seconds % 3600 / 60 > 0 { parts.append("\(seconds % 3600 / 60) min") }
        if seconds % 60 > 0 { parts.append("\(seconds % 60) s") }
        return parts.isEmpty ? "0" : parts.joined(separator: " ")
    }

    /// `date` moved by this buffer (`sign` −1 before, +1 after) with `Calendar` arithmetic.
    package func apply(to seconds: Int64, sign: Int, in zone: TimeZone) -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var components = DateComponents()
        components.day = sign * days
        components.second = sign * self.seconds
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        guard let moved = calendar.date(byAdding: components, to: date) else {
            return seconds + Int64(sign) * Int64(days * 86_400 + self.seconds)
        }
        return Int64(moved.timeIntervalSince1970.rounded())
    }
}
