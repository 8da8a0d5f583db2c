import CoolcalModel

/// The day view of `conflicts` (and `review`): the buffered window as rows down the
/// page with hour ticks in the output zone and the date on each day change; the
/// invitation in the first lane and every occurrence seen in the window beside it,
/// coloured by calendar, labels wrapped into the space their bars have.
package enum DayView {
    /// The narrowest lane drawn (a glyph and three characters of label).
    package static let minimumCell = 4
    /// All-day events listed at most; the rest are counted with the lanes not shown.
    package static let maxAllDay = 8

    package static func render(_ input: DayViewInput, width: Int, style: TextStyle) -> String {
        guard input.window.end > input.window.start else { return "" }
        var style = style
        style.zone = input.zone
        let marks = ZoneMarks(zone: input.zone)
        let dates = DateText(style: style)
        let grid = DayGrid(input, marks: marks)
        let crossing = marks.crossesTransition(start: input.window.start, end: input.window.end)
        let allDayItems = input.items.filter { $0.occurrence.allDay }
        let allDay = Array(allDayItems.prefix(maxAllDay))
        let labels = grid.starts.enumerated().map { r, t -> String in
            let local = t + Int64(marks.offset(t))
            guard r == 0 || ((local % 3600) + 3600) % 3600 == 0 else { return "" }
            return dates.time(t) + (crossing || marks.ambiguous(t) ? " " + marks.offsetText(t) : "")
        }
        let allDayWord = "all day"
        let gutter = max(labels.map { DisplayWidth.of($0) }.max() ?? 0, allDay.isEmpty ? 0 : allDayWord.count)
        let avail = max(minimumCell, width - 2 - gutter - 1)
        let shown = max(1, min(grid.lanes, (avail + 1) / (minimumCell + 1)))
        let cell = max(minimumCell, (avail + 1) / shown - 1)
        let painter = DayViewPainter(style: style, input: input)

        var out = ""
        func pad(_ s: String) -> String { String(repeating: " ", count: max(0, gutter - DisplayWidth.of(s))) + s }
        for r in grid.starts.indices {
            if r == 0 || dates.day(grid.starts[r]) != dates.day(grid.starts[r - 1]) {
                out += "  " + style.bold(dates.day(max(grid.starts[r], input.window.start))) + "\n"
            }
            // All-day events above the first row of the day they begin (or the first row).
            let here = allDay.filter { item in
                (DayGrid.rows(TimeWindow(start: item.occurrence.startInstant, end: item.occurrence.startInstant),
                              grid.starts, grid.slot)?.first ?? 0) == r
            }
            for (n, item) in here.enumerated() {
                let text = painter.cell(item, lines: 1, width: avail - 1, joined: true)
                out += "  " + pad(n == 0 ? allDayWord : "") + " " + (text.first?.text ?? "") + "\n"
            }
            var cells: [(text: String, length: Int)?] = Array(repeating: nil, count: shown)
            for bar in grid.bars where bar.lane < shown && bar.first <= r && r <= bar.last {
                let lines = painter.bar(bar, lines: bar.last - bar.first + 1, width: cell - 1)
                cells[bar.lane] = lines[r - bar.first]
            }
            var line = "  " + pad(labels[r])
            if let lastUsed = cells.lastIndex(where: { $0 != nil }) {
                line += " "
                for lane in 0...lastUsed {
                    if lane > 0 { line += " " }
                    if let c = cells[lane] {
                        line += c.text + (lane == lastUsed ? "" : String(repeating: " ", count: max(0, cell - c.length)))
                    } else {
                        line += String(repeating: " ", count: cell)
                    }
                }
            }
            while line.last == " " { line.removeLast() }
            out += line + "\n"
        }
        let hidden = grid.bars.filter { $0.lane >= shown }.count + allDayItems.count - allDay.count
        if hidden > 0 {
            out += "  " + String(repeating: " ", count: gutter + 1) + "+\(hidden) more\n"
        }
        return out
    }
}
