import Foundation

/// Locale-aware date ranges (`DateIntervalFormatter`) in the output zone.
struct DateText {
    let style: TextStyle
    private let timed: DateIntervalFormatter
    private let days: DateIntervalFormatter
    private let times: DateIntervalFormatter

    init(style: TextStyle) {
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
    }

    /// A range for an occurrence or invitation: dates for all-day spans.
    func range(start: OccurrenceTime, end: OccurrenceTime) -> String {
        switch (start, end) {
        case (.date(let s), .date(let e)):
            let last = e > s ? e.addingDays(-1) : s
            let utc = TimeZone(secondsFromGMT: 0) ?? style.zone
            let f = DateIntervalFormatter()
            f.locale = style.locale
            f.timeZone = utc
            f.dateStyle = .medium
            f.timeStyle = .none
            let text = f.string(from: date(s.secondsAsUTC), to: date(last.secondsAsUTC))
            return clean(text + " (" + allDayWord + ")")
        case (.instant(let s), .instant(let e)):
            return clean(timed.string(from: date(s), to: date(e)))
        default:
            return clean(timed.string(from: date(instant(start)), to: date(instant(end))))
        }
    }

    /// A short range for notifications: `8/20/22, 8:00 – 12:00 PM`.
    func short(start: OccurrenceTime, end: OccurrenceTime) -> String {
        let f = DateIntervalFormatter()
        f.locale = style.locale
        f.timeZone = style.zone
        f.dateStyle = .short
        switch (start, end) {
        case (.date(let s), .date(let e)):
            f.timeZone = TimeZone(secondsFromGMT: 0) ?? style.zone
            f.timeStyle = .none
            let last = e > s ? e.addingDays(-1) : s
            return clean(f.string(from: date(s.secondsAsUTC), to: date(last.secondsAsUTC)))
        default:
            f.timeStyle = .short
            return clean(f.string(from: date(instant(start)), to: date(instant(end))))
        }
    }

    /// Times only, for the window line.
    func timeRange(_ w: TimeWindow) -> String {
        let sameDay = SystemZone(style.zone).localFields(ofUTC: w.start).dateOnly
            == SystemZone(style.zone).localFields(ofUTC: max(w.start, w.end - 1)).dateOnly
        return clean((sameDay ? times : timed).string(from: date(w.start), to: date(w.end)))
    }

    /// A short time of day (`1:30 PM`), for timeline labels.
    func time(_ s: Int64) -> String {
        let f = DateFormatter()
        f.locale = style.locale
        f.timeZone = style.zone
        f.dateStyle = .none
        f.timeStyle = .short
        return clean(f.string(from: date(s)))
    }

    private var allDayWord: String { "all day" }

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
