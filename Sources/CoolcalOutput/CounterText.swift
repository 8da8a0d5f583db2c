import CoolcalModel
import CoolcalSchedule

/// `reply --counter`'s words (`AnswerStore.proposeCounter`): that no slot was free, or, once the
/// proposal is mailed, what it proposed and to whom, in local times and their zone.
package enum CounterText {
    /// No slot of the invitation's length within `horizonDays` in `hours` (weekdays only unless `weekends`).
    package static func noSlot(horizonDays: Int, hours: WorkingHours, weekends: Bool) -> String {
        "no free slot: nothing of the invitation's length is free within \(horizonDays) days "
            + "in working hours \(hours.description)\(weekends ? "" : " on weekdays"); try --at, --hours or --weekends"
    }

    /// `proposed: TITLE: START–END, mailed to ORGANIZER`, then the zone line.
    package static func proposed(_ title: String, start: OccurrenceTime, end: OccurrenceTime, to organizer: String?,
                                 dates: DateText) -> [String] {
        ["proposed: \(title): \(dates.range(start: start, end: end)), mailed to \(organizer ?? "the organizer")", "  " + dates.zoneLine]
    }
}
