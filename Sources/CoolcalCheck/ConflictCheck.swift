import CoolcalCalendars
import CoolcalInvite
import CoolcalModel
import CoolcalSchedule

/// The main job, one call: an invitation and the calendars' locations in, the
/// report of what is busy in its buffered window out.
///
/// invitation → window (`ConflictFinder`) → occurrences (`CalendarReader`) → report.
package struct ConflictCheck {
    package var finder: ConflictFinder
    package var reader: CalendarReader

    package init(finder: ConflictFinder, reader: CalendarReader) {
        self.finder = finder
        self.reader = reader
    }

    /// The report, and the occurrences it was made from (read over `window` when one
    /// is given — wider than the invitation's, for free slots — else over the
    /// invitation's buffered window).
    package func run(_ invite: Invite, against locations: [CalendarLocation],
                    window wider: TimeWindow? = nil) throws -> (report: ConflictReport, occurrences: [Occurrence]) {
        let own = finder.window(for: invite)
        let window = wider ?? own
        reader.diagnostics.note("window \(own.jsonString) (\(finder.buffer.description) buffer)")
        let occurrences = try reader.occurrences(in: window, from: locations)
        return (report(invite, occurrences), occurrences)
    }

    /// The report for occurrences already at hand (`merge` reads once for many).
    package func report(_ invite: Invite, _ occurrences: [Occurrence]) -> ConflictReport {
        let report = finder.report(for: invite, occurrences: occurrences)
        reader.diagnostics.note("\(invite.title): \(report.free ? "free" : "busy") (\(report.conflicts.count) conflict\(report.conflicts.count == 1 ? "" : "s"), \(report.ignored.count) ignored)")
        return report
    }
}
