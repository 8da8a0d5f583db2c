import CoolcalICal
import CoolcalModel

/// The wall-clock starts of a recurrence rule, as libical's iterator walks them.
package protocol RuleIterator: AnyObject {
    /// Skips ahead to the first instance at or after `start` (rules without COUNT only).
    func skip(to start: CivilDateTime) -> Bool
    /// The next start, or nil at the end of the rule.
    func next() -> CivilDateTime?
}

extension RecurrenceIterator: RuleIterator {}

/// libical's iterator for the simplest rules, in civil arithmetic: `FREQ=DAILY`,
/// `WEEKLY`, `MONTHLY` or `YEARLY` with at most `INTERVAL`, `COUNT` and `WKST`, and
/// no BY part (so `WKST` changes nothing). Such a rule's instances are DTSTART plus a
/// whole number of its periods, the n-th computable at once. libical takes the same
/// steps through ICU's calendar, which was most of expanding a long window.
///
/// Only where the answer is sure: not a monthly rule from a day past the 28th (months
/// without that day), not a yearly one from February 29, only starts in 1900–2199
/// (and not on a leap second).
/// Everything else stays on libical. `FastRecurrenceTests` compares the two over
/// thousands of random rules, starts and skips, and whole expansions over windows
/// and zones, limits included.
package final class CivilRecurrence: RuleIterator {
    private enum Period {
        case days(Int)
        case months(Int)
    }

    private let start: CivilDateTime
    private let isDate: Bool
    private let period: Period
    private let count: Int?
    /// The index of the instance `next()` gives.
    private var index = 0

    /// The parts these rules have (a constant: an OptionSet's literal is built each time).
    private static let takes: RuleParts.Names = [.freq, .count, .interval, .wkst]

    /// nil when the rule is not one of these simple ones.
    package init?(rule: ICalRule, start: CivilDateTime, isDate: Bool) {
        guard (1900...2199).contains(start.year), start.isValid, start.second < 60, let parts = rule.facts.parts,
              parts.names.isSubset(of: CivilRecurrence.takes), parts.civilBounds,
              parts.interval == max(rule.interval, 1), parts.count != nil || !rule.hasCount else { return nil }
        let interval = parts.interval
        switch parts.frequency {
        case .daily: period = .days(interval)
        case .weekly: period = .days(7 * interval)
        case .monthly where start.day <= 28: period = .months(interval)
        case .yearly where !(start.month == 2 && start.day == 29): period = .months(12 * interval)
        default: return nil
        }
        self.start = isDate ? start.dateOnly : start
        self.isDate = isDate
        self.count = parts.count
    }

    /// The `k`-th instance (0 is the start).
    private func instance(_ k: Int) -> CivilDateTime {
        switch period {
        case .days(let n):
            return start.addingDays(k * n)
        case .months(let n):
            let months = start.month - 1 + k * n
            var t = start
            t.year = start.year + months / 12
            t.month = months % 12 + 1
            return t
        }
    }

    package func skip(to target: CivilDateTime) -> Bool {
        index = max(index, firstIndex(atOrAfter: isDate ? target.dateOnly : target))
        return true
    }

    /// The first instance at or after `goal`, or the first one libical never reaches.
    private func firstIndex(atOrAfter goal: CivilDateTime) -> Int {
        // A guess from the distance, then exact steps either way.
        var k: Int
        switch period {
        case .days(let n): k = max(0, goal.days(since: start) / n)
        case .months(let n): k = max(0, ((goal.year - start.year) * 12 + goal.month - start.month) / n)
        }
        while k > 0 && instance(k - 1) >= goal { k -= 1 }
        while instance(k) < goal && instance(k) < RecurrenceSet.pastLibicalLimit { k += 1 }
        return k
    }

    /// Passes over the instances `next()` would give before `goal` — at most `limit`, and
    /// none past COUNT — as if each had been taken: how many, and the last one. Each is
    /// one step of libical's iterator (a rule without BY parts matches at every step),
    /// so the caller counts them as `next()`'s would be counted.
    package func pass(before goal: CivilDateTime, atMost limit: Int) -> (count: Int, last: CivilDateTime?) {
        let upto = min(firstIndex(atOrAfter: goal), index + max(0, limit), count ?? .max)
        guard upto > index else { return (0, nil) }
        let passed = upto - index
        index = upto
        return (passed, instance(upto - 1))
    }

    package func next() -> CivilDateTime? {
        if let count, index >= count { return nil }
        let t = instance(index)
        guard t < RecurrenceSet.pastLibicalLimit else { return nil }
        index += 1
        return t
    }
}

extension RuleParts {
    /// COUNT and INTERVAL as the civil walks take them: a COUNT of at least 1, an
    /// INTERVAL under 10,000 (libical refuses COUNT=0 and an INTERVAL past 32,767).
    var civilBounds: Bool {
        interval < 10_000 && count.map { $0 > 0 } ?? true
    }
}
