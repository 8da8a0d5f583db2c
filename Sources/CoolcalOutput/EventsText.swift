import CoolcalCalendars
import CoolcalModel

/// `coolcal events` for people: a heading for each day (`Sat, Aug 20`), then one line
/// per occurrence, as `conflicts` prints them; with none, the window it looked at.
package struct EventsText {
    package var style: TextStyle

    package init(style: TextStyle) {
        self.style = style
    }

    package func render(window: TimeWindow, occurrences: [Occurrence]) -> String {
        let dates = DateText(style: style)
        let zone = SystemZone(style.zone)
        if occurrences.isEmpty {
            return "No events from \(dates.moment(window.start)) to \(dates.moment(window.end)) (\(zone.identifier)).\n"
        }
        let lines = ConflictsText(style: style)
        var out = ""
        var shown: CivilDateTime?
        for o in occurrences {
            // An event that began before the window is under its first day.
            let start: Int64
            switch o.start {
            case .instant(let s): start = max(s, window.start)
            case .date(let d): start = max(zone.utcSeconds(of: d), window.start)
            }
            let day = zone.localFields(ofUTC: start).dateOnly
            if day != shown {
                out += style.bold(dates.day(zone.utcSeconds(of: day))) + "\n"
                shown = day
            }
            out += lines.line(o, dates, note: o.ignoreReason.map { "(\($0.rawValue))" } ?? "", faint: !o.busy)
        }
        return out
    }
}
