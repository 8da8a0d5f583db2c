import Foundation
import CoolcalModel

/// One top-level VEVENT as the pre-filter has read it so far (`ScanLine.property`), and
/// whether it, or any instance of its rules, can reach a window.
package struct ScanBlock {
    package var inner: [UInt64] = []
    package var simple = true
    package var dtstart: ScanTime?
    package var dtend: ScanTime?
    package var duration: ScanDuration?
    package var rules: [ScanRule] = []
    package var uid: UInt64?
    package var uidLines = 0
    package var recurrenceID: ScanTime?
    /// The RECURRENCE-ID's TZID, as written (plain parameters only).
    package var recurrenceTZID: String?
    package var revision = RevisionLines()
    /// Where its BEGIN:VEVENT line starts in the text (`ICalPreFilter.fed`).
    package var at = 0
    /// Where its END:VEVENT line ends (set when it is closed).
    package var end = 0

    /// How long the first instance can be, widened; nil when unknown.
    package var lengthBound: Int64? {
        guard simple, let first = firstSpan else { return nil }
        return first.high - first.low
    }

    /// Whether the block can reach one of `windows`; nil when it cannot be judged.
    package func reachesAny(_ windows: [TimeWindow]) -> Bool? {
        for w in windows {
            guard let r = reaches(w) else { return nil }
            if r { return true }
        }
        return false
    }

    /// Whether any instance could overlap `window`; nil when it cannot be judged.
    /// `offsets`: the UTC offsets DTSTART and DTEND can be read with, when known
    /// (`ScanZones`); else a day either way for any time not in UTC.
    package func reaches(_ window: TimeWindow, offsets: (start: ClosedRange<Int64>, end: ClosedRange<Int64>)? = nil) -> Bool? {
        guard let first = offsets.map({ firstSpan(start: $0.start, end: $0.end) }) ?? firstSpan, let s = dtstart else { return nil }
        func overlaps(_ low: Int64, _ high: Int64) -> Bool { high >= window.start && low <= window.end }
        if overlaps(first.low, first.high) { return true }
        for rule in rules {
            let last = rule.lastStart(from: s)
            if let period = rule.period {
                // Instance k starts exactly k periods (wall clock) after DTSTART.
                var kLow = (window.start - first.high + period - 1) / period
                var kHigh = (window.end - first.low) / period
                kLow = max(kLow, 1)
                if let last { kHigh = min(kHigh, (last - s.seconds) / period) }
                if window.end - first.low < 0 { kHigh = -1 }
                if kLow <= kHigh { return true }
            } else if let step = rule.monthStep {
                if monthlyReaches(step: step, rule: rule, last: last, first: first, start: s, window) { return true }
            } else {
                // BY parts: only days they allow, at DTSTART's time of day (`RuleDays`).
                let after = first.high - s.seconds, before = s.seconds - first.low
                if !rule.days.mayReach(window, start: s.seconds, before: before, after: after, last: last) { continue }
                guard let last else { return first.low <= window.end }
                if overlaps(first.low, last + ICalPreFilter.margin + (first.high - first.low)) { return true }
            }
        }
        return false
    }

    /// Plain MONTHLY/YEARLY rules: an instance on DTSTART's day of the month in every
    /// `step`-th month where that day exists. Checks the few months near the window.
    private func monthlyReaches(step: Int, rule: ScanRule, last: Int64?, first: (low: Int64, high: Int64),
                                start s: ScanTime, _ window: TimeWindow) -> Bool {
        let f = CivilDateTime(utcSeconds: s.seconds)
        let after = first.high - s.seconds, before = s.seconds - first.low
        let from = CivilDateTime(utcSeconds: window.start - after - 32 * 86_400)
        let to = CivilDateTime(utcSeconds: window.end + before + 32 * 86_400)
        let origin = f.year * 12 + f.month - 1
        let lowMonth = from.year * 12 + from.month - 1, highMonth = to.year * 12 + to.month - 1
        guard highMonth - lowMonth <= 48 else { return true }
        for m in max(lowMonth, origin + 1)...max(highMonth, origin + 1) where m <= highMonth {
            let index = m - origin
            guard index % step == 0 else { continue }
            if let count = rule.count, f.day <= 28, index / step >= count { continue }
            let y = m / 12, mo = m % 12 + 1
            guard f.day <= CivilDateTime.daysInMonth(y, mo) else { continue }
            let t = CivilDateTime(year: y, month: mo, day: f.day, hour: f.hour, minute: f.minute, second: f.second).secondsAsUTC
            if let last, t > last { continue }
            if t + after >= window.start && t - before <= window.end { return true }
        }
        return false
    }

    /// The first instance, widened for any zone.
    private var firstSpan: (low: Int64, high: Int64)? {
        let anyZone = -ICalPreFilter.margin...ICalPreFilter.margin
        return firstSpan(start: dtstart?.utc == true ? 0...0 : anyZone, end: dtend?.utc == true ? 0...0 : anyZone)
    }

    /// The first instance when DTSTART is read with an offset in `start` and DTEND
    /// with one in `end` (UTC = wall clock − offset).
    private func firstSpan(start: ClosedRange<Int64>, end: ClosedRange<Int64>) -> (low: Int64, high: Int64)? {
        guard let s = dtstart, !(dtend != nil && duration != nil) else { return nil }
        let low = s.seconds - start.upperBound
        let latest = s.seconds - start.lowerBound
        var high: Int64
        if let e = dtend {
            high = e.seconds - (e.utc ? 0 : end.lowerBound)
        } else if let d = duration {
            high = latest + d.seconds + 7200
        } else {
            high = latest + (s.isDate ? 86_400 : 0)
        }
        high = max(high, latest)
        // An all-day event is at least a day (a DTEND not after it, a DURATION of
        // hours: see `InstanceLength.of`), and hours round up to days.
        if s.isDate { high = max(high, latest + 86_400 + (duration.map { $0.seconds + 86_400 } ?? 0)) }
        return (low, high)
    }

    /// Whether the revision this block leaves when dropped can be told exactly (else it
    /// is kept): no UID, or one plain UID line (`ICalSkippedRevisions.stagedIsPlain`: the
    /// bytes libical reads as they are, staged in `staged`) and plain revision lines.
    package func revisionPlain(staged: ICalSkippedRevisions) -> Bool {
        uidLines == 0 || (uidLines == 1 && revision.plain && staged.stagedIsPlain())
    }

    /// The revision this block leaves when dropped, built (for an override held until
    /// `finish`: few); nil when it cannot be told exactly. Its UID is the one staged in
    /// `staged`.
    package func revision(staged: ICalSkippedRevisions) -> ICalRevision?? {
        guard uidLines <= 1 else { return nil }
        guard uidLines == 1 else { return .some(nil) }
        guard revisionPlain(staged: staged) else { return nil }
        let uid = staged.stagedText()
        var rid: ICalTime?
        if let r = recurrenceID {
            rid = ICalTime(fields: CivilDateTime(utcSeconds: r.seconds), isDate: r.isDate,
                           reference: r.utc ? .utc : recurrenceTZID.map { .zoned($0) } ?? .floating)
        }
        return .some(ICalRevision(uid: uid, recurrenceID: rid, sequence: revision.sequence ?? 0,
                                  stamp: revision.stamp, lastModified: revision.lastModified))
    }
}
