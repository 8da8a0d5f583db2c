import Foundation
import CoolcalInvite
import CoolcalModel
import CoolcalSchedule
import CoolcalWriting

/// What no person would accept unseen (SECURITY.md, "too long"): an invitation that
/// would make weeks of the calendar busy — one instance longer than `max-duration`, or
/// its instances together busy more than `max-duration` of some 30 days (a 13-day event
/// repeating daily, an hourly rule, hundreds of back-to-back RDATE periods, long
/// overrides) — and a rule that floods a day. `MergePass.outsized` asks it.
struct OutsizeCheck {
    /// Config `max-duration`, in seconds.
    let maxDuration: Int
    /// The user's zone, for the dates said.
    let zone: TimeZone
    let finder: ConflictFinder

    /// Held `too long` when an instance lasts longer than `max-duration`, or the busy
    /// instances (`InviteCoverage`) cover more than `max-duration` of the 30 days from
    /// an instance's start, or there were more than the check counts; else held `too many
    /// instances a day` when its rule puts more than `maxInstancesADay` in one day.
    func held(_ invite: Invite) -> WriteOutcome? {
        let limit = Int64(maxDuration)
        let max = String(format: "max-duration is %g days", Double(limit) / 86_400)
        let coverage = invite.coverage ?? payloadCoverage(invite)
        switch coverage.excess(over: limit) {
        case .instance(let longest)?:
            let days = String(format: "%.1f days", Double(longest.end - longest.start) / 86_400)
            if coverage.examined <= 1 { return .held(.tooLong, "it lasts \(days); \(max)") }
            return .held(.tooLong, "an instance lasts \(days) (from \(day(longest.start))); \(max)")
        case .busy(let from, let seconds)?:
            let days = String(format: "%.1f days", Double(seconds) / 86_400)
            return .held(.tooLong, "busy \(days) in the \(InviteCoverage.span / 86_400) days from \(day(from)); \(max)")
        case .bound(let cut)?:
            return .held(.tooLong, "counted no further than its bound (\(cut) within \(InviteCoverage.horizonDays / 365) years of its start); \(max)")
        case nil:
            break
        }
        var perDay: [Int64: Int] = [:]
        for instance in invite.checked {
            let day = finder.span(of: Self.single(invite, instance)).start / 86_400
            perDay[day, default: 0] += 1
        }
        if let busiest = perDay.values.max(), busiest > AnswerSettings.maxInstancesADay {
            return .held(.tooDense, "\(busiest) instances in one day")
        }
        return nil
    }

    /// A push payload's instances (it has no TRANSP: each is busy).
    private func payloadCoverage(_ invite: Invite) -> InviteCoverage {
        let spans = invite.checked.map { finder.span(of: Self.single(invite, $0)) }
        return InviteCoverage(busy: spans, longest: spans.max { $0.end - $0.start < $1.end - $1.start }, examined: spans.count)
    }

    /// The day of `instant` in the user's zone, as YYYY-MM-DD.
    private func day(_ instant: Int64) -> String {
        let fields = SystemZone(zone).localFields(ofUTC: instant)
        return String(format: "%04d-%02d-%02d", fields.year, fields.month, fields.day)
    }

    private static func single(_ invite: Invite, _ instance: InviteInstance) -> Invite {
        var single = invite.first
        single.start = instance.start
        single.end = instance.end
        return single
    }
}
