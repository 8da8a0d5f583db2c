/// The part of each day in which slots may be suggested (`--hours 09:00-18:00`),
/// on the wall clock of `--tz`.
public struct WorkingHours: Equatable, Sendable {
    /// Minutes after midnight.
    public var start: Int
    public var end: Int

    public static let standard = WorkingHours(start: 9 * 60, end: 18 * 60)

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// `HH:MM-HH:MM` with start before end; `24:00` allowed as an end.
    public init?(parsing text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = WorkingHours.minutes(parts[0]), let b = WorkingHours.minutes(parts[1]),
              a < b, a < 24 * 60 else { return nil }
        self.init(start: a, end: b)
    }

    private static func minutes(_ s: Substring) -> Int? {
        let hm = s.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard hm.count == 2, hm[1].count == 2, (1...2).contains(hm[0].count),
              let h = Int(hm[0]), let m = Int(hm[1]), (0...59).contains(m), (0...24).contains(h) else { return nil }
        let total = h * 60 + m
        return total <= 24 * 60 ? total : nil
    }

    /// `09:00-18:00`.
    public var description: String {
        func f(_ m: Int) -> String { (m / 60 < 10 ? "0" : "") + "\(m / 60):" + (m % 60 < 10 ? "0" : "") + "\(m % 60)" }
        return f(start) + "-" + f(end)
    }
}
