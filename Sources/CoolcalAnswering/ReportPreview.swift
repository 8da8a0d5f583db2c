import Foundation
import CoolcalICal
import CoolcalModel
import CoolcalWriting

/// `merge --policy report`: what each message would do to the calendar written to, found
/// by applying its change to the file as read — in memory only, without the lock, never
/// written — so that the run can say `would update` (an update of a stored event, an
/// attendee's reply) or `would hold` as well as `would cancel`. A calendar that is not
/// one local file (a vdir, CalDAV), or cannot be read, previews nothing.
struct ReportPreview {
    let text: CalendarText
    let calendar: ICalCalendar
    let file: String

    init?(_ target: CalendarLocation) {
        guard case .file(let path) = target, let data = try? ICalReader.wholeFile(path),
              let calendar = try? ICalReader.read(data, file: path) else { return nil }
        text = CalendarText(bytes: data)
        self.calendar = calendar
        file = path
    }

    /// What `change` would do; nil when it could not be worked out.
    func outcome(_ change: CalendarChange) -> WriteOutcome? {
        (try? change.apply(to: text, calendar: calendar, file: file))?.1
    }
}
