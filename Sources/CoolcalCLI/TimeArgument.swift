import Foundation
import CoolcalModel

/// `events --from`/`--to`: `today`, `tomorrow`, `+Nd`, a date or a local
/// `YYYY-MM-DDTHH:MM[:SS]` read in `--tz`, or an instant with an offset.
package enum TimeArgument: ArgumentValue, Equatable {
    case instant(Int64)
    /// A date or a local date-time, in the output zone.
    case local(CivilDateTime)
    case today
    case tomorrow
    /// `+Nd`: N days from today (`--from`) or from `--from` (`--to`).
    case days(Int)

    /// More days than this is no agenda (and would overflow nothing, but says a typo).
    static let maximumDays = 3660

    package init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces)
        switch text.lowercased() {
        case "today": self = .today; return
        case "tomorrow": self = .tomorrow; return
        default: break
        }
        if text.hasPrefix("+"), text.lowercased().hasSuffix("d"), let n = Int(text.dropFirst().dropLast()), n >= 0, n <= Self.maximumDays {
            self = .days(n)
            return
        }
        if let local = Self.localDateTime(text) {
            self = .local(local)
            return
        }
        switch try? InviteDate.parse(text) {
        case .instant(let s)?: self = .instant(s)
        case .date(let d)?: self = .local(d)
        case nil: return nil
        }
    }

    /// `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS`, with no offset.
    private static func localDateTime(_ text: String) -> CivilDateTime? {
        let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let date = InviteDate.parseDate(String(parts[0])) else { return nil }
        let clock = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 2 || clock.count == 3, clock.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
              let hour = Int(clock[0]), let minute = Int(clock[1]), let second = clock.count == 3 ? Int(clock[2]) : 0,
              hour <= 23, minute <= 59, second <= 59 else { return nil }
        return CivilDateTime(year: date.year, month: date.month, day: date.day, hour: hour, minute: minute, second: second)
    }

    package static func invalid(_ text: String, option: String) -> String {
        "--\(option) '\(text)' is not today, tomorrow, +Nd, a date (2022-08-20), a local date-time (2022-08-20T09:00) "
            + "or one with an offset (2022-08-20T08:00:00Z)"
    }

    /// The instant in `zone`; `+Nd` counts from `base` (a local date-time).
    package func instant(in zone: ZoneRules, today: CivilDateTime, base: CivilDateTime) -> Int64 {
        switch self {
        case .instant(let s): return s
        case .local(let local): return zone.utcSeconds(of: local)
        case .today: return zone.utcSeconds(of: today)
        case .tomorrow: return zone.utcSeconds(of: today.addingDays(1))
        case .days(let n): return zone.utcSeconds(of: base.addingDays(n))
        }
    }
}
