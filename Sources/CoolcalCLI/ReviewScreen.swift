import CoolcalOutput
import CoolcalSchedule
import CoolcalState

/// One screen of `review`, as text for a terminal of `width` × `height`: which
/// invitation of how many, its text (title, range, zone, sender), what is busy and the
/// day view, what the last answer said, and the keys (or the comment being typed) on
/// the last line. The day view is cut to the rows there are; nothing scrolls.
package struct ReviewScreen {
    package var style: TextStyle
    package var width: Int
    package var height: Int

    package static let keys = "a accept  d decline  t tentative  s new time  c comment  n next  p previous  q quit"
    /// Clear the screen, cursor to its top left.
    package static let clear = "\u{1B}[H\u{1B}[2J"

    package func render(entry: InboxEntry, position: (Int, Int), report: Result<ConflictReport, Error>, given: String?,
                message: [String], prompt: String?) -> String {
        let dates = DateText(style: style)
        var head = [
            style.dim(fit("coolcal review: invitation \(position.0) of \(position.1) (inbox \(entry.number), id \(entry.id))")),
            style.bold(fit(entry.title.isEmpty ? "---" : entry.title)),
            "  " + dates.range(start: entry.start, end: entry.end),
            "  " + style.dim(dates.zoneLine),
        ]
        if let mail = entry.mail {
            if let from = mail.from { head.append("  " + fit("from: " + from)) }
            if let subject = mail.subject { head.append("  " + fit("subject: " + subject)) }
        }
        if let held = entry.held {
            head.append("  " + style.bold(fit("held for you: " + held.rawValue)))
        }
        var body: [String]
        switch report {
        case .success(let report):
            let n = report.conflicts.count
            head.append("")
            head.append(n == 0 ? style.paint("Free:", "32;1") + " nothing busy in the window"
                        : style.paint("Busy:", "31;1") + " \(n) conflict\(n == 1 ? "" : "s")")
            body = DayView.render(DayViewInput(report: report, zone: style.zone), width: width, style: style)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            while body.last == "" { body.removeLast() }
        case .failure(let error):
            body = [fit("cannot show the day view: \(error)")]
        }
        var foot: [String] = []
        if let given { foot.append(style.bold(fit("answered: \(given)"))) }
        foot += message.map(fit)
        foot.append(prompt.map(fit) ?? style.dim(fit(Self.keys)))
        let room = height - head.count - foot.count - 2
        if body.count > room { body = Array(body.prefix(max(0, room - 1))) + (room > 0 ? ["  " + ellipsis] : []) }
        return Self.clear + (head + [""] + body + [""] + foot).joined(separator: "\n")
    }

    /// When every invitation has been passed.
    package func end(count: Int, answered: Int, message: [String]) -> String {
        let lines = [style.bold("No more unanswered invitations"),
                     "  \(answered) of \(count) answered in this review", ""] + message.map(fit) + ["", style.dim("p previous  q quit")]
        return Self.clear + lines.joined(separator: "\n")
    }

    /// `…`, or `...` where the terminal is not UTF-8 (`LC_ALL=C`).
    private var ellipsis: String { style.unicode ? "…" : "..." }

    /// One line that cannot wrap or carry control characters.
    private func fit(_ text: String) -> String {
        let clean = style.printable(text)
        return clean.count < width ? clean : String(clean.prefix(max(1, width - 1 - ellipsis.count))) + ellipsis
    }
}
