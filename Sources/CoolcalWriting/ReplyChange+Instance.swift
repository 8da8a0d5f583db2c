import Foundation
import CoolcalCalendars
import CoolcalICal
import CoolcalModel
import CoolcalScan
import CoolcalZones

/// A reply for one instance of a series the organizer's calendar holds no override of
/// (RFC 5546 §3.2.3): the instance's answer is kept in a new override, placed after the
/// series — the series' block (with that attendee's answer already set) without its
/// recurrence (RRULE, RDATE, EXDATE, EXRULE), with RECURRENCE-ID and DTSTART the
/// instance's original start and the series' length as DURATION. The series itself is
/// not changed.
extension ReplyChange {
    static func override(of series: EventBlock, at instance: ICalTime, answered: [UInt8], zones: ZoneBook) -> [UInt8] {
        let value = timeValue(inSeriesZone(instance, series.event.start, zones))
        var lines = ["RECURRENCE-ID" + value, "DTSTART" + value]
        if let length = length(series.event) { lines.append("DURATION:" + length) }
        return PropertyEdit.replacing(["RRULE", "RDATE", "EXDATE", "EXRULE", "DTSTART", "DTEND", "DURATION", "RECURRENCE-ID"],
                                      with: lines, in: answered)
    }

    /// The instance as the series writes its DTSTART (a UTC RECURRENCE-ID of a zoned
    /// series in that zone), when both zones are known; else as the reply wrote it.
    private static func inSeriesZone(_ instance: ICalTime, _ start: ICalTime?, _ zones: ZoneBook) -> ICalTime {
        guard let start, !start.isDate, !instance.isDate, start.reference != instance.reference,
              case .zoned(let id) = start.reference, let zone = zones.zone(for: id),
              let seconds = CalendarText.instant(instance, zones) else { return instance }
        var moved = instance
        moved.fields = zone.localFields(ofUTC: seconds)
        moved.reference = start.reference
        return moved
    }

    /// Whether the series has an instance whose original start is `instance`: a reply
    /// may name only an instance the organizer made, never add a time to the calendar.
    static func isInstance(_ instance: ICalTime, of series: ICalEvent, zones: ZoneBook) -> Bool {
        let utc = TimeZone(secondsFromGMT: 0) ?? .current
        let at = instance.isDate ? instance.fields.secondsAsUTC : CalendarText.instant(instance, zones) ?? instance.fields.secondsAsUTC
        var file = ICalCalendar(zones: zones)
        file.events = [series]
        let expander = OccurrenceExpander(options: ExpansionOptions(floatingZone: utc), diagnostics: Diagnostics())
        let found = expander.occurrences(in: TimeWindow(start: at - 2 * 86_400, end: at + 2 * 86_400),
                                         calendars: [LoadedCalendar(name: "series", color: nil, files: [file])])
        return found.contains { o in
            switch (o.recurrenceID ?? o.start, instance.isDate) {
            case (.date(let day), true): return day == instance.fields.dateOnly
            case (.instant(let s), false): return s == at
            default: return false
            }
        }
    }

    /// `;TZID=…:20140725T000000`, `:20140725T000000Z`, `;VALUE=DATE:20140725`.
    private static func timeValue(_ time: ICalTime) -> String {
        if time.isDate { return ";VALUE=DATE:" + time.fields.basicDate }
        switch time.reference {
        case .utc: return ":" + time.fields.basicDateTime + "Z"
        case .floating: return ":" + time.fields.basicDateTime
        case .zoned(let id):
            let quoted = id.contains(where: { ";:,".contains($0) }) ? "\"\(id)\"" : id
            return ";TZID=\(quoted):" + time.fields.basicDateTime
        }
    }

    /// The series' length as a DURATION value; nil when it has none that can be told
    /// without its zones (DTSTART and DTEND read in different zones).
    private static func length(_ event: ICalEvent) -> String? {
        if let d = event.duration {
            return (d.negative ? "-" : "") + "P" + (d.days > 0 ? "\(d.days)D" : "") + (d.seconds > 0 || d.days == 0 ? "T\(d.seconds)S" : "")
        }
        guard let start = event.start, let end = event.end, start.reference == end.reference, start.isDate == end.isDate else { return nil }
        if start.isDate { return "P\(max(0, end.fields.days(since: start.fields)))D" }
        return "PT\(max(0, end.fields.secondsAsUTC - start.fields.secondsAsUTC))S"
    }
}
