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
public final class SystemZone: ZoneRules {
    public let timeZone: TimeZone
    /// Foundation calls UTC "GMT"; people and RFC 5545 say UTC.
    public var identifier: String {
        timeZone.identifier == "GMT" ? "UTC" : timeZone.identifier
    }

    public init(_ timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    public func offset(atUTC seconds: Int64) -> Int {
        timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
