import Foundation

/// When a time needs its offset beside it: the wall-clock time occurs twice (the
/// repeated hour of a fall-back night), or the span it belongs to crosses a change
/// of offset. `DateText` asks; nothing else decides.
package struct ZoneMarks {
    package let zone: TimeZone

    /// Seconds east of UTC at `s`.
    package func offset(_ s: Int64) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(s)))
    }

    /// True when another instant shows the same wall-clock time as `s`.
    package func ambiguous(_ s: Int64) -> Bool {
        let here = offset(s)
        for other in Set([offset(s - 86_400), offset(s + 86_400)]) where other != here {
            // The instant whose wall-clock time under `other` equals ours.
            let twin = s + Int64(here - other)
            if offset(twin) == other { return true }
        }
        return false
    }

    /// True when the offset at `start` differs from the offset just before `end`.
    package func crossesTransition(start: Int64, end: Int64) -> Bool {
        offset(start) != offset(max(start, end - 1))
    }

    /// `+02`, `-03`, `+0530`, `+00`: the numeric offset at `s`.
    package func offsetText(_ s: Int64) -> String {
        let o = offset(s)
        let sign = o < 0 ? "-" : "+"
        let minutes = abs(o) / 60
        let h = minutes / 60, m = minutes % 60
        let hh = h < 10 ? "0\(h)" : "\(h)"
        return sign + hh + (m == 0 ? "" : (m < 10 ? "0\(m)" : "\(m)"))
    }

    /// What text output says once: `times in Europe/Berlin` (Foundation calls UTC
    /// `GMT`; the reader asked for UTC).
    package var line: String { "times in " + name }

    /// The zone's name as the reader gave it: `Europe/Berlin`, `UTC`.
    package var name: String { zone.identifier == "GMT" ? "UTC" : zone.identifier }
}
