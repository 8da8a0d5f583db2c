/// A half-open interval of UTC instants `[start, end)`, in seconds since the epoch.
public struct TimeWindow: Hashable, Sendable {
    public var start: Int64
    public var end: Int64

    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z: the instants DESIGN.md's JSON
    /// form can write. Windows and invitations are clamped to them.
    public static let firstInstant = CivilDateTime(year: 1, month: 1, day: 1).secondsAsUTC
    public static let lastInstant = CivilDateTime.lastDate.secondsAsUTC + 86_399

    /// The part of this window JSON can write.
    public var clamped: TimeWindow {
        TimeWindow(start: min(max(start, Self.firstInstant), Self.lastInstant), end: min(max(end, Self.firstInstant), Self.lastInstant))
    }

    public init(start: Int64, end: Int64) {
        self.start = start
        self.end = end
    }

    /// The smallest window holding both.
    public func union(_ other: TimeWindow) -> TimeWindow {
        TimeWindow(start: min(start, other.start), end: max(end, other.end))
    }

    /// DESIGN.md's overlap rule: `start < end && finish > start`; a zero-length
    /// span at `t` overlaps when `start <= t < end`.
    public func overlaps(start s: Int64, end e: Int64) -> Bool {
        if e <= s { return self.start <= s && s < end }
        return s < end && e > self.start
    }
}
