/// A half-open interval of UTC instants `[start, end)`, in seconds since the epoch.
public struct TimeWindow: Hashable, Sendable {
    public var start: Int64
    public var end: Int64

    public init(start: Int64, end: Int64) {
        self.start = start
        self.end = end
    }

    /// DESIGN.md's overlap rule: `start < end && finish > start`; a zero-length
    /// span at `t` overlaps when `start <= t < end`.
    public func overlaps(start s: Int64, end e: Int64) -> Bool {
        if e <= s { return self.start <= s && s < end }
        return s < end && e > self.start
    }
}
