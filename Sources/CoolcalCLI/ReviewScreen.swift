import CoolcalOutput
import CoolcalSchedule
import CoolcalState

/// One screen of `review`, as text for a terminal of `width` × `height`: which
/// invitation of how many, its text (title, range, zone, sender), what is busy and the
/// day view, what the last answer said, and the keys (or the comment being typed) at
/// the bottom. Nothing wraps and nothing scrolls: each line is cut to the width with
/// `…`, and on a short terminal the day view is cut first, then the lines that matter
/// least, so the header, the title, its time and the keys always show (from 40×10 up).
package struct ReviewScreen {
    package var style: TextStyle
    package var width: Int
    package var height: Int

    package static let keys = "a accept  d decline  t tentative  s new time  c comment  x dismiss  n next  p previous  q quit"
    /// The keys on two lines, for a terminal too narrow for `keys`; closer still below 41 columns.
    static let narrowKeys = [["a accept  d decline  t tentative  x dismiss  q quit", "s new time  c comment  n next  p previous"],
                             ["a accept d decline t tent. x dismiss", "s new time c comment n/p move q quit"]]
    /// Clear the screen, cursor to its top left.
    package static let clear = "\u{1B}[H\u{1B}[2J"

    /// One line of the screen and how much it matters on a short terminal: rank 0 always
    /// shows; the highest ranks go first.
    struct Row {
        var text: String
        var rank: Int
        static let blank = Row(text: "", rank: 4)
    }

    package func render(entry: InboxEntry, position: (Int, Int), report: Result<ConflictReport, Error>, given: String?,
                message: [String], prompt: String?) -> String {
        let dates = DateText(style: style)
        let where_ = "(inbox \(entry.number), id \(entry.id))"
        let header = "coolcal review: invitation \(position.0) of \(position.1) \(where_)"
        let named = InboxTitleText.text(entry.title)
        var top = [
            Row(text: style.dim(fit(DisplayWidth.of(header) < width ? header : "\(position.0) of \(position.1) \(where_)")), rank: 0),
            Row(text: style.bold(fit(named.isEmpty ? "---" : named)), rank: 0),
            Row(text: "  " + fit(dates.range(start: entry.start, end: entry.end), indent: 2), rank: 0),
            Row(text: "  " + style.dim(fit(dates.zoneLine, indent: 2)), rank: 3),
        ]
        if let mail = entry.mail {
            if let from = mail.from { top.append(Row(text: "  " + fit("from: " + from, indent: 2), rank: 1)) }
            if let subject = mail.subject { top.append(Row(text: "  " + fit("subject: " + subject, indent: 2), rank: 3)) }
        }
        if let held = entry.held {
            top.append(Row(text: "  " + style.bold(fit("held for you: " + held.rawValue, indent: 2)), rank: 1))
        }
        var body: [String]
        var short: [String]?
        switch report {
        case .success(let report):
            let n = report.conflicts.count
            top.append(.blank)
            top.append(Row(text: n == 0 ? style.paint("Free:", "32;1") + fit(" nothing busy in the window", indent: 5)
                           : style.paint("Busy:", "31;1") + fit(" \(n) conflict\(n == 1 ? "" : "s")", indent: 5), rank: 1))
            var input = DayViewInput(report: report, zone: style.zone)
            body = dayView(input)
            // Too long for the screen: the invitation's own time, without the buffer around it.
            if body.count > height / 2 {
                input.window = input.span
                let narrow = dayView(input)
                if !narrow.isEmpty { short = narrow }
            }
        case .failure(let error):
            body = [fit("cannot show the day view: \(error)")]
        }
        top.append(.blank)
        var bottom = [Row.blank]
        if let given { bottom.append(Row(text: style.bold(fit("answered: \(given)")), rank: 1)) }
        bottom += message.map { Row(text: fit($0), rank: 2) }
        if let prompt {
            bottom.append(Row(text: fit(prompt), rank: 0))
        } else if DisplayWidth.of(Self.keys) < width {
            bottom.append(Row(text: style.dim(Self.keys), rank: 0))
        } else {
            let keys = Self.narrowKeys.first { $0.allSatisfy { DisplayWidth.of($0) < width } } ?? Self.narrowKeys[1]
            bottom += keys.map { Row(text: style.dim(fit($0)), rank: 0) }
        }
        return Self.clear + layout(top: top, body: body, short: short, bottom: bottom).joined(separator: "\n")
    }

    /// The day view's lines for `input`.
    private func dayView(_ input: DayViewInput) -> [String] {
        var lines = DayView.render(input, width: width, style: style)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The rows that fit `height`. The body (the day view) matters less than the rows of
    /// rank 0 to 2 and more than the others: rows of rank 3 and 4 are dropped until it has
    /// three lines (or all of it); when even that leaves it no room it is left out, and
    /// the most rows that fit are shown. A body too long for its room is `short` instead
    /// (when there is one), cut where it still does not fit, ending with `…`.
    func layout(top: [Row], body: [String], short: [String]? = nil, bottom: [Row]) -> [String] {
        let fixed = { (rank: Int) in (top + bottom).filter { $0.rank <= rank }.count }
        let least = min(body.count, 3)
        var rank = 4
        while rank > 2 && fixed(rank) + least > height { rank -= 1 }
        let bodyFits = fixed(rank) + least <= height
        if !bodyFits {
            rank = 4
            while rank > 0 && fixed(rank) > height { rank -= 1 }
        }
        let room = bodyFits ? height - fixed(rank) : 0
        var shown = body.count > room ? short ?? body : body
        if shown.count > room { shown = room >= 2 ? Array(shown.prefix(room - 1)) + ["  " + ellipsis] : room == 1 ? ["  " + ellipsis] : [] }
        var lines = top.filter { $0.rank <= rank }.map(\.text) + shown + bottom.filter { $0.rank <= rank }.map(\.text)
        // Below 40×10 even the essential rows may not fit: the top ones and the keys stay.
        if lines.count > height, height > 0 {
            let keys = bottom.last.map { [$0.text] } ?? []
            lines = Array(lines.prefix(max(0, height - keys.count))) + keys
        }
        return lines
    }

    /// When every invitation has been passed; `unanswered`: how many of them still are.
    package func end(count: Int, answered: Int, unanswered: Int, message: [String]) -> String {
        let heading = unanswered == 0 ? "No more unanswered invitations"
            : "\(unanswered) still unanswered (coolcal review shows \(unanswered == 1 ? "it" : "them") again)"
        let top = [Row(text: style.bold(fit(heading)), rank: 0),
                   Row(text: "  " + fit("\(answered) of \(count) answered in this review", indent: 2), rank: 0), .blank]
        let bottom = [Row.blank, Row(text: style.dim(fit("p previous  q quit")), rank: 0)]
        return Self.clear + layout(top: top, body: message.map { fit($0) }, bottom: bottom).joined(separator: "\n")
    }

    /// `…`, or `...` where the terminal is not UTF-8 (`LC_ALL=C`).
    private var ellipsis: String { style.unicode ? "…" : "..." }

    /// One line that cannot wrap or carry control characters: cut, with `…`, to the
    /// columns left after `indent` (wide characters take two; the last column stays
    /// free, as a terminal may wrap on it).
    private func fit(_ text: String, indent: Int = 0) -> String {
        let clean = style.printable(text)
        let room = width - indent
        guard DisplayWidth.of(clean) >= room else { return clean }
        return DisplayWidth.prefix(clean, max(1, room - 1 - DisplayWidth.of(ellipsis))) + ellipsis
    }
}
