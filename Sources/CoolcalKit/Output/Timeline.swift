/// A compact day view of the buffered window for terminals: the invitation and each
/// conflict as bars on one time axis.
struct Timeline {
    let style: TextStyle
    let dates: DateText
    let width = 48

    func render(_ report: ConflictReport) -> String {
        let w = report.window
        guard w.end > w.start else { return "" }
        let full = style.unicode ? "█" : "#"
        let empty = style.unicode ? "·" : "."
        let part = style.unicode ? "▒" : "="
        var out = "\n"
        let left = dates.time(w.start)
        let right = dates.time(w.end)
        let gap = max(1, width - left.count - right.count)
        out += "  " + String(repeating: " ", count: 12) + left + String(repeating: " ", count: gap) + right + "\n"
        out += row("invitation", bar(report.span, in: w, fill: full, empty: empty), nil)
        for c in report.conflicts.prefix(12) {
            let o = c.occurrence
            let span = TimeWindow(start: o.startInstant, end: max(o.endInstant, o.startInstant + 1))
            let title = style.printable(o.summary.flatMap { $0.isEmpty ? nil : $0 } ?? "(no title)")
            out += row(title, bar(span, in: w, fill: part, empty: " "), CalendarColor.sgr(o.calendarColor) ?? "31")
        }
        return out
    }

    private func row(_ label: String, _ bar: String, _ sgr: String?) -> String {
        var name = String(label.prefix(10))
        name += String(repeating: " ", count: max(0, 10 - name.count))
        return "  " + name + "  " + style.paint(bar, sgr) + "\n"
    }

    private func bar(_ span: TimeWindow, in w: TimeWindow, fill: String, empty: String) -> String {
        let total = Double(w.end - w.start)
        func column(_ t: Int64) -> Int {
            Int((Double(min(max(t, w.start), w.end) - w.start) / total * Double(width)).rounded())
        }
        let a = column(span.start)
        let b = max(a + 1, column(span.end))
        return (0..<width).map { $0 >= a && $0 < b ? fill : empty }.joined()
    }
}
