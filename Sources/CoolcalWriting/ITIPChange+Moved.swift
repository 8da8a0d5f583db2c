import Foundation
import CoolcalICal
import CoolcalModel
import CoolcalScan

/// How an organizer's update stands to the answer I gave (RFC 6638 §3.2.8, the one rule
/// of `SignificantChange`): whether it moves a time the stored copy has, and my PARTSTAT
/// in that copy. `merge` and `process` write every genuine update; only my PARTSTAT in it
/// depends on this and on the policy.
package struct UpdateAssessment: Equatable, Sendable {
    /// Some component the update writes changes DTSTART, DTEND/DURATION, RRULE, RDATE or
    /// EXDATE of its stored counterpart (a newly arriving override: of the instance the
    /// stored series gives it).
    package var significant: Bool
    /// My PARTSTAT in the stored copy (its series, else its first component), upper case;
    /// nil when the stored copy names none of my addresses with one.
    package var mine: String?

    /// Whether I had answered: ACCEPTED, TENTATIVE or DECLINED (NEEDS-ACTION, or no
    /// PARTSTAT, is no answer the update could keep).
    package var answered: Bool { ["ACCEPTED", "TENTATIVE", "DECLINED"].contains(mine ?? "") }
}

extension ITIPChange {
    /// This update against the stored copies `stored` of its UID, whose zones `calendar`
    /// defines; nil when nothing is stored (a new invitation).
    package func assessment(_ stored: [EventBlock], calendar: ICalCalendar) -> UpdateAssessment? {
        guard !stored.isEmpty else { return nil }
        let newest = { (blocks: [EventBlock]) in blocks.max { ITIPChange.order($1.event, $0.event) == .newer } }
        let master = newest(stored.filter { $0.event.recurrenceID == nil })
        var significant = false
        for version in message.versions {
            let wanted = key(version.recurrenceID, message.zones)
            if let own = newest(stored.filter { key($0.event.recurrenceID, calendar.zones) == wanted }) {
                significant = significant || SignificantChange.between(own.event, version)
            } else if let master, let rid = version.recurrenceID {
                significant = significant || SignificantChange.between(Self.instance(of: master.event, at: rid), version)
            } else {
                significant = true
            }
        }
        let mine = (master ?? stored[0]).event.attendees.first { a in
            me.contains { ITIPMessage.sameAddress($0, a.address) } && a.partstat != nil
        }?.partstat?.uppercased()
        return UpdateAssessment(significant: significant, mine: mine)
    }

    /// The instance a stored series gives at `rid`, as an override of it that moves
    /// nothing would say: DTSTART at the RECURRENCE-ID, the series' length, no rules.
    private static func instance(of series: ICalEvent, at rid: ICalTime) -> ICalEvent {
        var instance = series
        instance.start = rid
        instance.rules = []
        instance.rdates = []
        instance.exdates = []
        instance.recurrenceID = rid
        if let start = series.start, let end = series.end {
            let length = end.fields.secondsAsUTC - start.fields.secondsAsUTC
            let (seconds, overflow) = rid.fields.secondsAsUTC.addingReportingOverflow(length)
            instance.end = overflow ? nil : ICalTime(fields: CivilDateTime(utcSeconds: seconds), isDate: rid.isDate,
                                                     reference: rid.reference)
        }
        return instance
    }
}
