import Foundation

/// The UTC offset rules of one time zone, whatever defined them.
public protocol ZoneRules: AnyObject {
    /// The zone's name, for messages.
    var identifier: String { get }
    /// Seconds east of UTC in force at the given UTC instant.
    func offset(atUTC seconds: Int64) -> Int
}

extension ZoneRules {
    /// The UTC instant of a wall-clock time in this zone, as RFC 5545 §3.3.5 reads it:
    /// a time in a skipped hour uses the offset before the gap (02:30 → 07:30Z in New
    /// York on 2024-03-10), a time in a repeated hour its first occurrence.
    public func utcSeconds(of local: CivilDateTime) -> Int64 {
        let naive = local.secondsAsUTC
        let before = Int64(offset(atUTC: naive - 86_400))
        let after = Int64(offset(atUTC: naive + 86_400))
        let early = naive - before
        let late = naive - after
        let earlyValid = Int64(offset(atUTC: early)) == before
        let lateValid = Int64(offset(atUTC: late)) == after
        switch (earlyValid, lateValid) {
        case (true, true): return min(early, late)
        case (true, false): return early
        case (false, true): return late
        case (false, false): return early
        }
    }

    /// The wall-clock fields of a UTC instant in this zone.
    public func localFields(ofUTC seconds: Int64) -> CivilDateTime {
        CivilDateTime(utcSeconds: seconds + Int64(offset(atUTC: seconds)))
    }
}

/// A zone from the system database (or a fixed one), through Foundation.
///
/// Foundation answers each offset through ICU's calendar arithmetic, which is slow next
/// to everything else per occurrence; so the answers are kept as spans of constant
/// offset: asked for an instant outside every span known, the zone gives its offset
/// there and its next transition (`nextDaylightSavingTimeTransition(after:)`, which
/// reports every change of the UTC offset), and the offset holds from that instant up
/// to the transition. `SystemZoneTests` checks the answers against `secondsFromGMT` for
/// every zone Foundation knows, over 1900–2100, and at every change of offset found.
public final class SystemZone: ZoneRules, @unchecked Sendable {
    public let timeZone: TimeZone
    /// Foundation calls UTC "GMT"; people and RFC 5545 say UTC.
    public var identifier: String {
        timeZone.identifier == "GMT" ? "UTC" : timeZone.identifier
    }

    /// Spans [start, end) of UTC seconds with one offset, in the order learned.
    private var spans: [(start: Int64, end: Int64, offset: Int)] = []
    private var last = 0
    private let lock = NSLock()
    /// Spans kept at most (then forgotten and learned again).
    package static let maxSpans = 4096

    public init(_ timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    public func offset(atUTC seconds: Int64) -> Int {
        lock.lock()
        defer { lock.unlock() }
        if last < spans.count, spans[last].start <= seconds, seconds < spans[last].end { return spans[last].offset }
        for (i, span) in spans.enumerated() where span.start <= seconds && seconds < span.end {
            last = i
            return span.offset
        }
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        let offset = timeZone.secondsFromGMT(for: date)
        var end = seconds + 1
        if let next = timeZone.nextDaylightSavingTimeTransition(after: date) {
            let at = next.timeIntervalSince1970.rounded(.down)
            if at > Double(seconds), at < 9e15 { end = Int64(at) }
        } else {
            // No transition reported after it: trusted for a year at a time only.
            end = seconds + 366 * 86_400
        }
        if spans.count >= Self.maxSpans { spans.removeAll(keepingCapacity: true) }
        spans.append((seconds, end, offset))
        last = spans.count - 1
        return offset
    }

    /// Foundation's own answer, without the spans (for tests).
    package func foundationOffset(atUTC seconds: Int64) -> Int {
        timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
