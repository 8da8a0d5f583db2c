internal import CLibical
import Foundation

/// What expanding a rule asks of it each time — its parts, COUNT, whether it has BY
/// parts, and whether libical would walk it without bound — read once, when the rule
/// is parsed, instead of from its text for every window it is expanded in (`merge`
/// expands each of its invitations' windows; a calendar has thousands of series).
extension ICalRule {
    package struct Facts: Hashable, Sendable {
        /// The text read into its parts (UNTIL aside): what the recurrence walks take the
        /// rule by; nil when it is not of RFC 5545's form (`RuleParts`).
        package let parts: RuleParts?
        /// COUNT, as the text has it.
        package let count: Int?
        /// The text has a BY part.
        package let hasByParts: Bool
        /// Seconds per step of SECONDLY … DAILY; nil for longer frequencies.
        package let unit: Int64?
        /// The longest a period of the rule can be, in seconds, when every period holds an
        /// instance (no BY part but a weekly rule's plain BYDAY): what bounds a COUNT
        /// rule's end, as the pre-filter bounds it. Nil otherwise.
        package let periodPerInstance: Int64?
        /// `unboundedReason` when it does not depend on DTSTART (`.some(nil)`: bounded).
        package let fixedReason: String??
        /// What a sub-daily rule's answer needs from DTSTART.
        package let subDaily: SubDaily?

        /// The facts of `text`, read once per distinct text: a calendar's thousands of
        /// rules are a few dozen texts (UNTIL aside), and each reading parses it twice
        /// (here and by libical). Shared, so the copies share their parts' storage too.
        static func read(text: String, interval: Int) -> Facts {
            FactsCache.shared.facts(text: text, interval: interval)
        }

        package init(text: String, interval: Int) {
            self.parts = RuleParts(text)
            let parts = text.split(separator: ";").map(String.init)
            count = parts.lazy.compactMap { $0.hasPrefix("COUNT=") ? Int($0.dropFirst(6)) : nil }.first
            hasByParts = text.contains(";BY")
            periodPerInstance = Facts.periodPerInstance(parts)
            unit = ICalRule.unitSeconds(of: text)
            let r = text.withCString { icalrecurrencetype_from_string($0) }
            let (reason, subDaily) = Facts.unbounded(r, unit: unit, interval: interval)
            fixedReason = reason
            self.subDaily = subDaily
        }

        private static func periodPerInstance(_ parts: [String]) -> Int64? {
            let periods: [String: Int64] = ["FREQ=SECONDLY": 1, "FREQ=MINUTELY": 60, "FREQ=HOURLY": 3_600, "FREQ=DAILY": 86_400,
                                            "FREQ=WEEKLY": 7 * 86_400, "FREQ=MONTHLY": 31 * 86_400, "FREQ=YEARLY": 366 * 86_400]
            guard let period = parts.first.flatMap({ periods[$0] }) else { return nil }
            let weekly = period == 7 * 86_400
            guard parts.allSatisfy({ !$0.hasPrefix("BY") || (weekly && $0.hasPrefix("BYDAY=") && !$0.contains(where: \.isNumber)) }) else { return nil }
            return period
        }

        /// The answer when DTSTART cannot change it, else what the sub-daily check needs.
        private static func unbounded(_ r: icalrecurrencetype, unit: Int64?, interval: Int) -> (String??, SubDaily?) {
            guard r.freq != ICAL_NO_RECURRENCE else { return (.some(nil), nil) }
            let end = Int16(truncatingIfNeeded: ICAL_RECURRENCE_ARRAY_MAX.rawValue)
            func used<T>(_ array: T) -> [Int] {
                withUnsafeBytes(of: array) { Array($0.bindMemory(to: Int16.self).prefix { $0 != end }).map(Int.init) }
            }
            let filter = DayFilter(months: Set(used(r.by_month)), monthDays: Set(used(r.by_month_day)),
                                   yearDays: Set(used(r.by_year_day)),
                                   weekdays: Set(used(r.by_day).map { Int(icalrecurrencetype_day_day_of_week(Int16($0)).rawValue) }))
            if !filter.matchesSomeDate {
                return (.some("it can never match: no date has \(filter.described)"), nil)
            }
            // BYSETPOS picks from each period's set: a position past the largest set a
            // period can hold never matches (libical walks period after period for it).
            let positions = used(r.by_set_pos)
            if !positions.isEmpty, let most = ICalRule.largestSet(r), positions.allSatisfy({ abs($0) > most }) {
                return (.some("it can never match: BYSETPOS=\(positions.map(String.init).joined(separator: ",")) but a period holds at most \(most) instance\(most == 1 ? "" : "s")"), nil)
            }
            guard let unit, unit < 86_400 else { return (.some(nil), nil) }
            // Sub-daily: BYHOUR (and BYMINUTE for MINUTELY and SECONDLY, BYSECOND for SECONDLY) are filters too.
            let sub = SubDaily(step: unit * Int64(max(interval, 1)), hours: Set(used(r.by_hour)),
                               minutes: unit <= 60 ? Set(used(r.by_minute)) : [], seconds: unit == 1 ? Set(used(r.by_second)) : [],
                               dayFilterActive: filter.isActive, dayGap: filter.isActive ? filter.longestGapInDays : nil,
                               dayFilterDescribed: filter.described)
            return (nil, sub)
        }
    }

    package struct SubDaily: Hashable, Sendable {
        package let step: Int64
        package let hours: Set<Int>, minutes: Set<Int>, seconds: Set<Int>
        package let dayFilterActive: Bool
        /// The day filter's longest gap in days (nil: no date passes it).
        package let dayGap: Int?
        package let dayFilterDescribed: String
    }
}

/// The facts read so far, by rule text and interval: rules are read on two threads
/// (`ParseInHalves`), so behind a lock. It grows with the distinct rule texts read, at
/// most `most` of them, then starts again.
private final class FactsCache: @unchecked Sendable {
    static let shared = FactsCache()
    private static let most = 4096
    private let lock = NSLock()
    private var known: [Key: ICalRule.Facts] = [:]

    private struct Key: Hashable {
        let text: String
        let interval: Int
    }

    func facts(text: String, interval: Int) -> ICalRule.Facts {
        let key = Key(text: text, interval: interval)
        lock.lock()
        if let facts = known[key] {
            lock.unlock()
            return facts
        }
        lock.unlock()
        let facts = ICalRule.Facts(text: text, interval: interval)
        lock.lock()
        if known.count >= Self.most { known.removeAll() }
        known[key] = facts
        lock.unlock()
        return facts
    }
}
