/// The day view's cells: a glyph in the calendar's colour and the label wrapped into
/// the rows of the bar, cut with an ellipsis when it does not fit.
package struct DayViewPainter {
    package let style: TextStyle
    package let input: DayViewInput

    package typealias Line = (text: String, length: Int)

    /// The lines of a bar in the grid, one per row it covers.
    package func bar(_ bar: DayGrid.Bar, lines: Int, width: Int) -> [Line] {
        if let i = bar.item { return cell(input.items[i], lines: lines, width: width, joined: false) }
        let glyph = style.unicode ? "█" : "#"
        let title = clean(input.title)
        let text = fit(wrap(title, width), [], lines: lines, width: width)
        return text.map { (style.bold(glyph + $0), 1 + DisplayWidth.of($0)) }
    }

    /// The lines of one occurrence: its title, then `[calendar]` and why it is
    /// ignored or tentative where rows remain (`joined`: all on one line).
    package func cell(_ item: DayViewInput.Item, lines: Int, width: Int, joined: Bool) -> [Line] {
        let o = item.occurrence
        var notes = "[" + style.printable(o.calendarDisplayName) + "]"
        if let why = item.ignored { notes += " (" + why.rawValue + ")" }
        if o.isTentative { notes += " (tentative)" }
        let title = clean(o.summary ?? "")
        let text = joined ? fit(wrap(title + "  " + notes, width), [], lines: 1, width: width)
            : fit(wrap(title, width), wrap(notes, width), lines: lines, width: width)
        let glyph = item.busy ? (style.unicode ? "▌" : "|") : (style.unicode ? "┊" : ":")
        let colour = CalendarColor.sgr(o.calendarColor) ?? (item.busy ? "31" : nil)
        return text.map { line in
            let painted = style.paint(glyph, item.busy ? colour : "2") + (item.busy || line.isEmpty ? line : style.dim(line))
            return (painted, 1 + DisplayWidth.of(line))
        }
    }

    private func clean(_ title: String) -> String {
        let t = style.printable(title).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        return t.isEmpty ? "(no title)" : t
    }

    /// `lines` lines: the title's, then the notes' while rows remain; a title cut
    /// short fills its last row and ends in an ellipsis. Rows beyond the text are empty.
    package func fit(_ title: [String], _ notes: [String], lines: Int, width: Int) -> [String] {
        var out = Array(title.prefix(lines))
        if title.count > lines, !out.isEmpty {
            out.removeLast()
            let rest = title[(lines - 1)...].joined(separator: " ")
            var cut = DisplayWidth.prefix(rest, max(0, width - 1))
            while cut.last == " " { cut.removeLast() }
            out.append(cut + (style.unicode ? "…" : "~"))
        }
        out += notes.prefix(lines - out.count)
        return out + Array(repeating: "", count: lines - out.count)
    }

    /// Greedy word wrap at `width` columns; a longer word is cut with an ellipsis.
    package func wrap(_ text: String, _ width: Int) -> [String] {
        let width = max(1, width)
        let mark = style.unicode ? "…" : "~"
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            let word = DisplayWidth.of(word) > width ? DisplayWidth.prefix(word, width - 1) + mark : String(word)
            if !current.isEmpty && DisplayWidth.of(current) + 1 + DisplayWidth.of(word) <= width {
                current += " " + word
                continue
            }
            if !current.isEmpty { lines.append(current) }
            current = word
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
