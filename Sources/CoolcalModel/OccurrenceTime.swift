import Foundation

/// A start or end as DESIGN.md's JSON writes it: a date for all-day events, a UTC
/// instant otherwise.
public enum OccurrenceTime: Hashable, Sendable {
    case date(CivilDateTime)
    case instant(Int64)

    /// `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SSZ`.
    public var jsonString: String {
        switch self {
        case .date(let d): return d.dateString
        case .instant(let s): return CivilDateTime(utcSeconds: s).utcString
        }
    }

    /// As UTC seconds: an all-day date's midnight read in `zone`.
    package func instant(in zone: TimeZone) -> Int64 {
        switch self {
        case .instant(let s): return s
        case .date(let d): return SystemZone(zone).utcSeconds(of: d)
        }
    }
}
