import Foundation
import CoolcalInvite
import CoolcalModel

extension Invite {
    /// Every instance ended before `now` (an invitation with no instance never has):
    /// `merge` and `process` skip such an invitation (`past`), `accept` warns.
    package func everyInstanceEnded(before now: Date, zone: TimeZone) -> Bool {
        let finder = ConflictFinder(buffer: Buffer(days: 0, seconds: 0), zone: zone)
        let end = checked.map { instance -> Int64 in
            var single = first
            single.start = instance.start
            single.end = instance.end
            return finder.span(of: single).end
        }.max() ?? Int64.max
        return end <= Int64(now.timeIntervalSince1970)
    }
}
