import Foundation
import CoolcalModel

extension Invite {
    /// Every instance ended before `now` (an invitation with no instance never has;
    /// an all-day end is its date's midnight in `zone`): `merge` and `process` skip
    /// such an invitation (`past`), `accept` warns.
    package func everyInstanceEnded(before now: Date, zone: TimeZone) -> Bool {
        let end = checked.map { $0.end.instant(in: zone) }.max() ?? Int64.max
        return end <= Int64(now.timeIntervalSince1970)
    }
}
