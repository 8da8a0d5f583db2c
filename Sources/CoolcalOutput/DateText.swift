import Foundation
import CoolcalModel

/// Locale-aware date ranges (`DateIntervalFormatter`) in the output zone.
package struct DateText {
    package let style: TextStyle
    /// Offsets on every time, for times shown within a window that crosses a change
    /// of offset (`ZoneMarks`).
    package var offsetsAlways = false
    private let timed: DateIntervalFormatter
    private let days: DateIntervalFormatter
    private let times: DateIntervalFormatter
    private let clock: DateFormatter
    private let heading: DateFormatter
    /// The all-day ranges' formatter (dates in UTC), made when first asked for: making one
    /// costs a third of a millisecond, and `merge` names many all-day events.
    private let made = Made()

    private final class Made {
        var allDays: DateIntervalFormatter?
    }

    package init(style: TextStyle) {
        self.style = style
        func make(_ date: DateIntervalFormatter.Style, _ time: DateIntervalFormatter.Style) -> DateIntervalFormatter {
            let f = DateIntervalFormatter()
            f.locale = style.locale
            f.timeZone = style.zone
            f.dateStyle = date
            f.timeStyle = time
            return f
        }
        timed = make(.medium, .short)
        days = make(.medium, .none)
        times = make(.none, .short)
        clock = DateFormatter()
        clock.locale = style.locale
        clock.timeZone = style.zone
        clock.dateStyle = .none
        clock.timeStyle = .short
        heading = DateFormatter()
        heading.locale = style.locale
        heading.timeZone = style.zone
        heading.setLocalizedDateFormatFromTemplate("EEEMMMd")
    }

    /// A range for an occurrence or invitation: dates for all-day spans.
    package func range(start: OccurrenceTime, end: OccurrenceTime) -> String {
        switch (start, end) {
        case (.date(let s), .date(let e)):
            let last = e > s ? e.addingDays(-1) : s
            let text = Self.gregorian(allDays(), date(s.secondsAsUTC), date(last.secondsAsUTC))
            return clean(text + " (" + allDayWord + ")")
        case (.instant(let s), .instant(let e)):
            return withOffsets(s, e, timed) ?? clean(Self.gregorian(timed, date(s), date(e)))
        default:
            let (s, e) = (instant(start), instant(end))
            return withOffsets(s, e, timed) ?? clean(Self.gregorian(timed, date(s), date(e)))
        }
    }

    private func allDays() -> DateIntervalFormatter {
        if let f = made.allDays { return f }
        let f = DateIntervalFormatter()
        f.locale = style.locale
        f.timeZone = TimeZone(secondsFromGMT: 0) ?? style.zone
        f.dateStyle = .medium
        f.timeStyle = .none
        made.allDays = f
        return f
    }

    /// One time (a start, a moment) as `range` writes the start of a range:
    /// `Dec 10, 2026, 11:30 AM`, with its offset when the wall clock shows it twice
    /// (`Oct 25, 2026, 2:30 AM +02`); a date is the date and `(all day)`.
    package func at(_ t: OccurrenceTime) -> String {
        guard case .instant(let s) = t else { return range(start: t, end: t) }
        // The date and time joined as the range formatter joins them across days (a
        // single date would read `Mar 3, 2031 at 10:20 AM`).
        let marks = ZoneMarks(zone: style.zone)
        let text = Self.gregorian(days, date(s), date(s)) + ", " + clock.string(from: date(s))
        return clean(offsetsAlways || marks.ambiguous(s) ? text + " " + marks.offsetText(s) : text)
    }

    /// A short range for notifications: `8/20/22, 8:00 – 12:00 PM`.
    package func short(start: OccurrenceTime, end: OccurrenceTime) -> String {
        let f = DateIntervalFormatter()
        f.locale = style.locale
        f.timeZone = style.zone
        f.dateStyle = .short
        switch (start, end) {
        case (.date(let s), .date(let e)):
            f.timeZone = TimeZone(secondsFromGMT: 0) ?? style.zone
            f.timeStyle = .none
            let last = e > s ? e.addingDays(-1) : s
            return clean(Self.gregorian(f, date(s.secondsAsUTC), date(last.secondsAsUTC)))
        default:
            f.timeStyle = .short
            let (s, e) = (instant(start), instant(end))
            return withOffsets(s, e, f) ?? clean(Self.gregorian(f, date(s), date(e)))
        }
    }

    /// Times only, for the window line.
    package func timeRange(_ w: TimeWindow) -> String {
        let sameDay = SystemZone(style.zone).localFields(ofUTC: w.start).dateOnly
            == SystemZone(style.zone).localFields(ofUTC: max(w.start, w.end - 1)).dateOnly
        return withOffsets(w.start, w.end, sameDay ? times : timed)
            ?? clean(Self.gregorian(sameDay ? times : timed, date(w.start), date(w.end)))
    }

    /// A range whose ends need their offsets (`ZoneMarks`: an end in a repeated hour,
    /// or the span crosses a change of offset), or nil when neither does: each end
    /// alone with its offset, the end's date only when it is another day, as in
    /// `Oct 25, 2026, 2:30 AM +02 – 2:30 AM +01`.
    /// Each end is its date in `f`'s date style, a comma and its time (the form the
    /// range formatter writes across days); a same-day end is its time alone.
    private func withOffsets(_ s: Int64, _ e: Int64, _ f: DateIntervalFormatter) -> String? {
        let marks = ZoneMarks(zone: style.zone)
        guard offsetsAlways || marks.crossesTransition(start: s, end: e) || marks.ambiguous(s) || marks.ambiguous(e) else {
            return nil
        }
        let zone = SystemZone(style.zone)
        let sameDay = zone.localFields(ofUTC: s).dateOnly == zone.localFields(ofUTC: e).dateOnly
        let day = DateFormatter()
        day.locale = style.locale
        day.timeZone = style.zone
        day.dateStyle = DateFormatter.Style(rawValue: f.dateStyle.rawValue) ?? .medium
        day.timeStyle = .none
        func stamp(_ t: Int64, withDate: Bool) -> String {
            let time = clock.string(from: date(t)) + " " + marks.offsetText(t)
            return withDate && day.dateStyle != .none ? day.string(from: date(t)) + ", " + time : time
        }
        let left = stamp(s, withDate: true)
        let right = stamp(e, withDate: !sameDay)
        return clean(left + "\u{2009}\u{2013}\u{2009}" + right)
    }

    /// A short time of day (`1:30 PM`), for the day view's hour ticks.
    package func time(_ s: Int64) -> String {
        clean(clock.string(from: date(s)))
    }

    /// This formatter, with offsets on every time when `window` crosses a change of offset.
    package func within(_ window: TimeWindow) -> DateText {
        var copy = self
        copy.offsetsAlways = ZoneMarks(zone: style.zone).crossesTransition(start: window.start, end: window.end)
        return copy
    }

    /// What text output says once about its zone: `times in Europe/Berlin`.
    package var zoneLine: String { ZoneMarks(zone: style.zone).line }

    /// The zone's name alone, for a one-line message: `Europe/Berlin`.
    package var zoneName: String { ZoneMarks(zone: style.zone).name }

    /// The day view's heading on each day change: `Tue, Dec 1`.
    package func day(_ s: Int64) -> String {
        clean(heading.string(from: date(s)))
    }

    /// A window's end for people: its day (`Tue, Dec 8`), with the time when it is not
    /// local midnight (`Tue, Dec 8, 9:30 AM`).
    package func moment(_ s: Int64) -> String {
        let local = SystemZone(style.zone).localFields(ofUTC: s)
        return local == local.dateOnly ? day(s) : day(s) + ", " + time(s)
    }

    private var allDayWord: String { "all day" }

    /// 1583-01-01T00:00:00Z: Foundation's Gregorian calendar is Julian before
    /// 1582-10-15, coolcal's dates (and its JSON) are proleptic Gregorian.
    private static let firstSafeInstant: TimeInterval = -12_212_553_600
    /// 400 Gregorian years: the calendar repeats exactly, weekdays included.
    private static let cycle: TimeInterval = 146_097 * 86_400

    /// `f.string(from:to:)` in the proleptic Gregorian calendar: a range that starts
    /// before 1583 is formatted as many 400-year cycles later as it takes, and its
    /// years are written back.
    package static func gregorian(_ f: DateIntervalFormatter, _ a: Date, _ b: Date) -> String {
        let start = a.timeIntervalSince1970
        guard start < firstSafeInstant else { return f.string(from: a, to: b) }
        let cycles = ((firstSafeInstant - start) / cycle).rounded(.up) + 1
        let shift = cycles * cycle
        var text = f.string(from: a.addingTimeInterval(shift), to: b.addingTimeInterval(shift))
        let years = DateFormatter()
        years.locale = f.locale
        years.timeZone = f.timeZone
        years.dateFormat = "y"
        let zone = SystemZone(f.timeZone ?? TimeZone(secondsFromGMT: 0) ?? .current)
        for instant in [start, b.timeIntervalSince1970] {
            let year = zone.localFields(ofUTC: Int64(instant.rounded(.down))).year
            let shifted = years.string(from: Date(timeIntervalSince1970: instant + shift))
            // Replace only what the formatter wrote for the later year (same digits).
            guard shifted == String(year + 400 * Int(cycles)) else { continue }
            text = text.replacingOccurrences(of: shifted, with: String(year))
        }
        return text
    }

    private func instant(_ t: OccurrenceTime) -> Int64 {
        switch t {
        case .instant(let s): return s
        case .date(let d): return SystemZone(style.zone).utcSeconds(of: d)
        }
    }

    private func date(_ s: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(s)) }

    /// ICU puts U+202F and U+2009 in times and ranges; plain spaces where Unicode is off.
    private func clean(_ s: String) -> String {
        guard !style.unicode else { return s }
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x202F, 0x2009, 0x00A0: out += " "
            case 0x2013, 0x2014: out += "-"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
