import Foundation
import CoolcalCalendars
import CoolcalICal
import CoolcalModel

/// The time an invitation covers (issue #43, "too long"): its instances — rule, RDATEs
/// and RDATE periods, overrides together — within `horizonDays` of DTSTART either way,
/// at most the first `maxInstances` of them. `merge` holds an invitation with an
/// instance longer than `max-duration`, or more than `max-duration` busy in any
/// `span` (`MergePass.outsized`).
///
/// The work is bounded: the expansion stops at `maxInstances` (and at `maxSteps` rule
/// steps), and reaching a bound is `cut` — counted as too long, since what lies past it
/// was not seen. Only the figures `excess` needs are kept (an invitation in memory does
/// not carry its ten thousand instances).
public struct InviteCoverage: Equatable, Sendable {
    /// The longest instance, busy or not (a cancelled one is no instance); nil when
    /// none was found.
    public var longest: TimeWindow?
    /// The `span` from an instance's start with the most busy time; nil without a busy
    /// instance.
    public var busiest: Busiest?
    /// How many of the instances would be busy (not TRANSPARENT, not CANCELLED, not
    /// shown as free).
    public var busyCount: Int
    /// How many instances were examined: never more than `maxInstances`.
    public var examined: Int
    /// Why the count stopped before it had seen every instance within `horizonDays`;
    /// nil when it had.
    public var cut: String?

    /// Ten years, in days (leap days included).
    public static let horizonDays = 3_653
    /// The most instances counted.
    public static let maxInstances = 10_000
    /// The span busy time is measured over: 30 days.
    public static let span: Int64 = 30 * 86_400
    /// Rule steps walked at most (a daily rule takes one a day: 3,653 in ten years).
    static let maxSteps = 100_000

    /// Where the busiest `span` starts (UTC seconds) and how many seconds of it are busy:
    /// the sum of each busy instance's overlap with it.
    public struct Busiest: Equatable, Sendable {
        public var start: Int64
        public var busy: Int64
    }

    /// The coverage of these instances: `busy` those that would be busy, `starts` the
    /// start of every instance (busy or not; the busy ones' when nil), where a `span`
    /// may start. Only what `excess` needs is kept, not the instances.
    public init(busy: [TimeWindow], starts: [Int64]? = nil, longest: TimeWindow?, examined: Int, cut: String? = nil) {
        self.longest = longest
        self.busiest = InviteCoverage.busiest(busy, from: starts ?? busy.map(\.start), over: InviteCoverage.span)
        self.busyCount = busy.count
        self.examined = examined
        self.cut = cut
    }

    /// Why an invitation covers more time than `limit` (seconds) allows, the first that
    /// applies: an instance longer than `limit`, more than `limit` busy in some `span`,
    /// or the count stopped at its bound; nil when none does.
    public func excess(over limit: Int64) -> Excess? {
        if let longest, longest.end - longest.start > limit { return .instance(longest) }
        if let busiest, busiest.busy > limit { return .busy(from: busiest.start, seconds: busiest.busy) }
        return cut.map(Excess.bound)
    }

    /// What makes an invitation too long (`excess(over:)`).
    public enum Excess: Equatable, Sendable {
        /// This instance (UTC seconds) lasts longer than the limit.
        case instance(TimeWindow)
        /// The busy instances cover `seconds` of the `span` from `from`.
        case busy(from: Int64, seconds: Int64)
        /// The count stopped at a bound (`cut`), so what lies past it is not known.
        case bound(String)
    }

    /// Of the spans of `length` from each of `starts`, the one with the most busy time
    /// (the sum of each of `spans`' overlap with it), the earliest of equals; nil without
    /// a busy span. The busy time of `[s, s + length)` is the integral of how many spans
    /// are running, taken from a running total of it at each start and end: O(n log n)
    /// for n spans, whatever their overlap.
    package static func busiest(_ spans: [TimeWindow], from starts: [Int64], over length: Int64) -> Busiest? {
        guard !spans.isEmpty else { return nil }
        var changes: [(at: Int64, by: Int)] = []
        changes.reserveCapacity(spans.count * 2)
        for s in spans where s.end > s.start {
            changes.append((s.start, 1))
            changes.append((s.end, -1))
        }
        changes.sort { $0.at < $1.at }
        // At each instant where the count changes: the busy time before it, and how many
        // spans run from it to the next.
        var times: [Int64] = []
        var before: [Int64] = []
        var running: [Int64] = []
        var depth: Int64 = 0
        var total: Int64 = 0
        for change in changes {
            if let last = times.last, last != change.at {
                total += depth * (change.at - last)
            }
            depth += Int64(change.by)
            if times.last == change.at {
                running[running.count - 1] = depth
            } else {
                times.append(change.at)
                before.append(total)
                running.append(depth)
            }
        }
        /// The busy time before `t`.
        func busyBefore(_ t: Int64) -> Int64 {
            // The last change at or before t.
            var low = 0, high = times.count
            while low < high {
                let mid = (low + high) / 2
                if times[mid] <= t { low = mid + 1 } else { high = mid }
            }
            guard low > 0 else { return 0 }
            let k = low - 1
            return before[k] + running[k] * (t - times[k])
        }
        var best: Busiest?
        for start in starts {
            let busy = busyBefore(start + length) - busyBefore(start)
            if best.map({ busy > $0.busy || (busy == $0.busy && start < $0.start) }) ?? true {
                best = Busiest(start: start, busy: busy)
            }
        }
        return best
    }

    /// The coverage of the events of `uid` in `calendar` (an invitation's own), counted
    /// from `dtstart` (UTC seconds).
    static func of(_ calendar: ICalCalendar, uid: String, dtstart: Int64, floatingZone: TimeZone) -> InviteCoverage {
        let horizon = Int64(horizonDays) * 86_400
        let window = TimeWindow(start: dtstart - horizon, end: dtstart + horizon).clamped
        var options = ExpansionOptions(floatingZone: floatingZone, maxSteps: maxSteps, maxOccurrencesPerEvent: maxInstances)
        options.maxStepsPerQuery = 2 * maxSteps
        options.maxOccurrencesPerQuery = maxInstances
        let expander = OccurrenceExpander(options: options, diagnostics: Diagnostics())
        let found = expander.occurrences(of: uid, in: window, file: calendar, name: uid)
        var cut = unexpanded(calendar, uid: uid)
        // A limit stopped the expansion: what it found is marked, and the rest of the
        // series' reach is one more occurrence (no instance: no RECURRENCE-ID).
        let many = "more than \(RecurrenceSet.grouped(maxInstances)) instances"
        if let reason = found.lazy.compactMap(\.incomplete).first {
            cut = cut ?? (reason.contains("occurrences") ? many : reason)
        }
        var instances = found.filter { $0.status != "CANCELLED" && ($0.incomplete == nil || $0.recurrenceID != nil) }
        if instances.count > maxInstances {
            instances.removeLast(instances.count - maxInstances)
            cut = cut ?? many
        }
        let longest = instances.max { $0.endInstant - $0.startInstant < $1.endInstant - $1.startInstant }
        return InviteCoverage(busy: instances.filter(\.busy).map { TimeWindow(start: $0.startInstant, end: $0.endInstant) },
                              starts: instances.map(\.startInstant),
                              longest: longest.map { TimeWindow(start: $0.startInstant, end: $0.endInstant) },
                              examined: instances.count, cut: cut)
    }

    /// Why a rule of the series is not expanded here (nor by any calendar read: only its
    /// DTSTART is used) while another program may well expand it: its instances too far
    /// apart for the step limit, or a rule libical refuses; nil when each is expanded or
    /// can never match (then DTSTART is all there is, everywhere).
    private static func unexpanded(_ calendar: ICalCalendar, uid: String) -> String? {
        for event in calendar.events where event.uid == uid && event.recurrenceID == nil {
            guard let dtstart = event.start else { continue }
            for rule in event.rules {
                if let why = rule.unboundedReason(start: dtstart.fields), !why.hasPrefix("it can never match") {
                    return "its rule is not expanded (\(why))"
                }
                if RecurrenceSet.iterator(for: rule, from: dtstart.fields, isDate: dtstart.isDate, civilRules: true) == nil {
                    return "its rule cannot be expanded"
                }
            }
        }
        return nil
    }
}
