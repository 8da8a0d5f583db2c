import Foundation
import CoolcalICal
import CoolcalModel

/// The user's own data across an organizer's update (`UserData`): what is carried from
/// the stored copy, and what the state records of what the organizer sent.
extension ITIPChange {
    /// Each VEVENT the update writes with the user's own data of its stored copy, or, for
    /// an instance with none stored, the series'.
    func carried(_ bodies: [String], _ offered: [ICalEvent], _ stored: [EventBlock], _ text: CalendarText,
                 _ calendar: ICalCalendar) -> [String] {
        let newest = { (blocks: [EventBlock]) in blocks.max { ITIPChange.order($1.event, $0.event) == .newer } }
        let master = newest(stored.filter { $0.event.recurrenceID == nil })
        return zip(offered, bodies).map { version, body in
            let wanted = key(version.recurrenceID, message.zones)
            let own = newest(stored.filter { key($0.event.recurrenceID, calendar.zones) == wanted })
            guard let from = own ?? (version.recurrenceID != nil ? master : nil) else { return body }
            let record = organizerSent[Self.recordKey(key(from.event.recurrenceID, calendar.zones))]
            return UserData.carry(UserData.kept(in: String(decoding: text.bytes[from.range], as: UTF8.self), record: record), into: body)
        }
    }

    /// What this change writes of the organizer's, to be recorded once written: per
    /// `recordKey`, the hashes of each VEVENT as the update writes it (before the user's
    /// data goes in). Empty for a cancellation, and for changing your mind (only my
    /// PARTSTAT is edited then).
    package func organizerLines() -> [String: Set<String>] {
        guard !cancel, partstat != "DECLINED" || writesUpdate else { return [:] }
        let copy = message.storedCopy(me: me, partstat: partstat)
        var lines: [String: Set<String>] = [:]
        for (version, body) in zip(message.versions, copy.events) {
            lines[Self.recordKey(key(version.recurrenceID, message.zones))] = UserData.hashes(of: body)
        }
        return lines
    }

    /// A RECURRENCE-ID as the state keys it: "" for the series, else what it means (a
    /// date, or an instant), so that one instance written in two zones is one key.
    static func recordKey(_ key: InstanceKey?) -> String {
        switch key {
        case nil: return ""
        case .date(let day)?: return "date:" + day.basicDate
        case .instant(let seconds)?: return "at:\(seconds)"
        }
    }
}
