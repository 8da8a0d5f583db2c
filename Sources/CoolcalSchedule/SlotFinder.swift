import Foundation
import CoolcalCalendars
import CoolcalInvite
import CoolcalModel

/// Finds the next free slots of an invitation's length: starting at or after its
/// start, on a 15-minute grid of the `--tz` wall clock, inside working hours,
/// skipping Saturdays and Sundays unless asked, where `coolcal conflicts` would
/// report the buffered window free. One pass: the busy time is expanded once, then
/// each candidate is a binary search.
public struct SlotFinder {
    public var finder: ConflictFinder
    public var hours: WorkingHours
    public var weekends: Bool
    /// How far after the invitation to look.
    public var horizonDays = 90
    package static let grid: Int64 = 15 * 60

    public init(finder: ConflictFinder, hours: WorkingHours, weekends: Bool) {
        self.finder = finder
        self.hours = hours
        self.weekends = weekends
    }

    /// The span of time whose occurrences `suggestions` needs.
    public func searchWindow(for invite: Invite) -> TimeWindow {
        let span = finder.span(of: invite)
        let end = span.end + Int64(horizonDays + 2) * 86_400
        let buffered = finder.window(for: invite)
        return TimeWindow(start: buffered.start - 86_400, end: finder.buffer.apply(to: end, sign: 1, in: finder.zone))
    }

    /// Up to `count` free, non-overlapping slots. `occurrences` must cover `searchWindow`.
    public func suggestions(for invite: Invite, count: Int, occurrences: [Occurrence]) -> [Invite] {
        let busy = BusyIndex(occurrences.filter { o in
            o.busy && !ConflictFinder.isInvitation(o, invite)
        })
        var result: [Invite] = []
        for candidate in candidates(for: invite) {
            if let last = result.last, finder.span(of: candidate).start < finder.span(of: last).end { continue }
            if !busy.overlaps(finder.window(for: candidate)) { result.append(candidate) }
            if result.count >= count { break }
        }
        return result
    }

    /// Candidate invitations in time order.
    private func candidates(for invite: Invite) -> [Invite] {
        let zone = SystemZone(finder.zone)
        let span = finder.span(of: invite)
        var list: [Invite] = []
        switch (invite.start, invite.end) {
        case (.date(let first), .date(let end)):
            let days = max(1, end.days(since: first))
            for offset in 0..<horizonDays {
                let day = first.addingDays(offset)
                if !weekends && (0..<days).contains(where: { isWeekend(day.addingDays($0)) }) { continue }
                list.append(moved(invite, .date(day), .date(day.addingDays(days))))
            }
        default:
            let length = span.end - span.start
            let firstDay = zone.localFields(ofUTC: span.start).dateOnly
            for offset in 0..<horizonDays {
                let day = firstDay.addingDays(offset)
                if !weekends && isWeekend(day) { continue }
                let open = zone.utcSeconds(of: day.adding(minutes: hours.start))
                let close = zone.utcSeconds(of: day.adding(minutes: hours.end))
                var t = max(open, span.start)
                let local = zone.localFields(ofUTC: t)
                let past = Int64((local.minute * 60 + local.second) % Int(SlotFinder.grid))
                if past != 0 { t += SlotFinder.grid - past }
                while t + length <= close {
                    list.append(moved(invite, .instant(t), .instant(t + length)))
                    t += SlotFinder.grid
                }
            }
        }
        return list
    }

    private func moved(_ invite: Invite, _ start: OccurrenceTime, _ end: OccurrenceTime) -> Invite {
        var copy = invite
        copy.start = start
        copy.end = end
        return copy
    }

    /// 1970-01-01 was a Thursday.
    private func isWeekend(_ day: CivilDateTime) -> Bool {
        let weekday = ((CivilDateTime.daysFromCivil(day.year, day.month, day.day) % 7) + 11) % 7 // 0 = Sunday
        return weekday == 0 || weekday == 6
    }
}

extension CivilDateTime {
    /// Midnight plus `minutes` (24:00 is the next midnight).
    package func adding(minutes: Int) -> CivilDateTime {
        var d = dateOnly.addingDays(minutes / (24 * 60))
        d.hour = minutes % (24 * 60) / 60
        d.minute = minutes % 60
        return d
    }
}

/// Busy spans sorted by start with a running maximum of ends: "does anything
/// overlap this window?" in O(log n). Zero-length spans count as one second, which
/// is DESIGN.md's rule for them.
package struct BusyIndex {
    private var starts: [Int64] = []
    private var maxEnds: [Int64] = []

    package init(_ occurrences: [Occurrence]) {
        let spans = occurrences.map { ($0.startInstant, max($0.endInstant, $0.startInstant + 1)) }.sorted { $0.0 < $1.0 }
        var running = Int64.min
        for (s, e) in spans {
            running = max(running, e)
            starts.append(s)
            maxEnds.append(running)
        }
    }

    package func overlaps(_ w: TimeWindow) -> Bool {
        var lo = 0, hi = starts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if starts[mid] < w.end { lo = mid + 1 } else { hi = mid }
        }
        return lo > 0 && maxEnds[lo - 1] > w.start
    }
}
