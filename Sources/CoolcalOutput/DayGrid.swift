import CoolcalModel
import CoolcalSupport

/// The day view's geometry: rows of equal length over the window (aligned to the
/// wall clock in the output zone) and lanes, the invitation in the first, each other
/// timed occurrence in the first lane free for all its rows.
package struct DayGrid {
    /// One bar in a lane: `item` indexes `DayViewInput.items`, nil for the invitation.
    package struct Bar {
        package var item: Int?
        package var first: Int
        package var last: Int
        package var lane: Int
    }

    package static let maxRows = 16
    /// More lanes than the widest view can draw (`TerminalSize.widest` over
    /// `DayView.minimumCell` and a space) are never opened: an event that finds none
    /// free goes to this lane, counted as not shown. Bounds the work per event.
    package static let maxLanes = TerminalSize.widest / (DayView.minimumCell + 1) + 1
    package static let slotMinutes: [Int64] = [15, 30, 60, 120, 180, 240, 360, 720, 1440]

    /// The UTC start of each row.
    package let starts: [Int64]
    package let slot: Int64
    package let bars: [Bar]
    package let lanes: Int

    package init(_ input: DayViewInput, marks: ZoneMarks) {
        let w = input.window
        let length = max(1, w.end - w.start)
        let rows = Int64(Self.maxRows)
        let minutes = Self.slotMinutes.first { $0 * 60 * rows >= length }
            ?? ((length + rows * 86_400 - 1) / (rows * 86_400)) * 1440
        slot = minutes * 60
        let offset = Int64(marks.offset(w.start))
        let local = w.start + offset
        let floorMod = ((local % slot) + slot) % slot
        var t = local - floorMod - offset
        var starts: [Int64] = []
        while t < w.end {
            starts.append(t)
            t += slot
        }
        self.starts = starts
        var bars: [Bar] = []
        var ends: [Int] = [Int.max]
        if let rows = Self.rows(input.span, starts, slot) {
            bars.append(Bar(item: nil, first: rows.first, last: rows.last, lane: 0))
        }
        for (i, item) in input.items.enumerated() where !item.occurrence.allDay {
            let o = item.occurrence
            guard let rows = Self.rows(TimeWindow(start: o.startInstant, end: o.endInstant), starts, slot) else { continue }
            let lane = ends.indices.dropFirst().first { ends[$0] < rows.first } ?? min(ends.count, Self.maxLanes)
            if lane < ends.count { ends[lane] = rows.last } else if lane < Self.maxLanes { ends.append(rows.last) }
            bars.append(Bar(item: i, first: rows.first, last: rows.last, lane: lane))
        }
        self.bars = bars
        lanes = ends.count
    }

    /// The first and last rows a span touches (a zero-length span: the row holding it).
    package static func rows(_ span: TimeWindow, _ starts: [Int64], _ slot: Int64) -> (first: Int, last: Int)? {
        guard let t0 = starts.first else { return nil }
        let end = max(span.end, span.start + 1)
        let limit = t0 + Int64(starts.count) * slot
        guard span.start < limit, end > t0 else { return nil }
        let first = Int((max(span.start, t0) - t0) / slot)
        let last = Int((min(end, limit) - t0 + slot - 1) / slot) - 1
        return (first, max(first, last))
    }
}
