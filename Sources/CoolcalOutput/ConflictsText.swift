import CoolcalCalendars
import CoolcalInvite
import CoolcalModel
import CoolcalSchedule

/// `coolcal conflicts` for people: the invitation, its window, each conflict with
/// calendar, time and relation, then what was ignored and why.
package struct ConflictsText {
    package var style: TextStyle
    /// Columns for the day view, or nil for none (text piped to another program).
    package var dayViewWidth: Int?

    package init(style: TextStyle, dayViewWidth: Int? = nil) {
        self.style = style
        self.dayViewWidth = dayViewWidth
    }

    package func render(_ report: ConflictReport, suggestions: [Invite]? = nil) -> String {
        let dates = DateText(style: style).within(report.window)
        var out = style.bold(style.printable(report.invite.title)) + "\n"
        out += "  " + dates.range(start: report.invite.start, end: report.invite.end) + "\n"
        let checked = report.invite.checked
        if checked.count > 1, let last = checked.last {
            let busy = checked.indices.filter { !report.isFree(instance: $0) }.count
            out += "  repeats: \(checked.count) instances checked, through \(dates.range(start: last.start, end: last.end))"
                + (busy == 0 ? "" : "; \(busy) busy") + "\n"
            out += "  " + style.dim("window: \(report.buffer.description) buffer around each instance") + "\n"
            out += "  " + style.dim(dates.zoneLine) + "\n"
        } else {
            out += "  " + style.dim("window (\(report.buffer.description) buffer): " + dates.timeRange(report.window)) + "\n"
            out += "  " + style.dim(dates.zoneLine) + "\n"
            if let width = dayViewWidth {
                out += "\n" + DayView.render(DayViewInput(report: report, zone: style.zone), width: width, style: style)
            }
        }
        out += "\n"
        if report.conflicts.isEmpty {
            out += style.paint("Free:", "32;1") + " nothing busy in the window.\n"
        } else {
            let n = report.conflicts.count
            out += style.paint("Busy:", "31;1") + " \(n) conflict\(n == 1 ? "" : "s")\n"
            for c in report.conflicts {
                var note = relationText(c.relation, report.buffer)
                if let i = c.instance, checked.indices.contains(i) {
                    note += " the instance of " + dates.range(start: checked[i].start, end: checked[i].end)
                }
                out += line(c.occurrence, dates, note: note)
            }
        }
        if !report.ignored.isEmpty {
            let n = report.ignored.count
            out += "Ignored: \(n) event\(n == 1 ? "" : "s")\n"
            for i in report.ignored {
                out += line(i.occurrence, dates, note: "(\(i.reason.rawValue))", faint: true)
            }
        }
        if let suggestions {
            out += suggestions.isEmpty ? "No free slots found.\n" : "Free slots:\n"
            for slot in suggestions {
                out += "  " + style.paint(style.unicode ? "○" : "o", "32") + " " + dates.range(start: slot.start, end: slot.end) + "\n"
            }
        }
        return out
    }

    private func relationText(_ r: Relation, _ b: Buffer) -> String {
        switch r {
        case .overlaps: return style.paint("overlaps", "31")
        case .before: return style.paint("within \(b.description) before", "33")
        case .after: return style.paint("within \(b.description) after", "33")
        }
    }

    package func line(_ o: Occurrence, _ dates: DateText, note: String, faint: Bool = false) -> String {
        let bullet = style.unicode ? (faint ? "·" : "•") : (faint ? "-" : "*")
        let title = style.printable(o.summary.flatMap { $0.isEmpty ? nil : $0 } ?? "(no title)")
        let cal = style.paint(style.printable(o.calendarDisplayName), CalendarColor.sgr(o.calendarColor))
        var text = "  \(bullet) \(dates.range(start: o.start, end: o.end))  \(title)  [\(cal)]"
        if !note.isEmpty { text += "  " + note }
        if o.isTentative { text += "  " + style.paint("(tentative)", "33") }
        if let why = o.incomplete { text += "  " + style.paint("(incomplete: \(why))", "31") }
        return (faint ? style.dim(text) : text) + "\n"
    }
}
