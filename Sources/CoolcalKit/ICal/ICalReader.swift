import CLibical
import Foundation

/// Reads iCalendar text through libical into plain Swift values.
public enum ICalReader {
    /// Parses a whole calendar file. Empty (or blank) text is an empty calendar;
    /// anything libical cannot make a calendar of is an `ICalError` naming `file`.
    /// With a `window`, events that provably cannot reach it are dropped before
    /// libical sees them (`ICalPreFilter`); the answers for that window are the same.
    public static func read(_ input: Data, file: String, window: TimeWindow? = nil) throws -> ICalCalendar {
        var data = input
        if data.contains(0) {
            throw ICalError(file: file, message: "not an iCalendar file (it contains NUL bytes: binary or UTF-16?)")
        }
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            return ICalCalendar(zones: ZoneBook())
        }
        guard data.starts(with: Array("BEGIN:".utf8)) || data.starts(with: [0xEF, 0xBB, 0xBF])
                || firstLine(of: data).uppercased().hasPrefix("BEGIN:") else {
            throw ICalError(file: file, message: "not an iCalendar file (line 1 is not BEGIN:VCALENDAR)")
        }
        if let window { data = ICalPreFilter.filter(data, window: window) }
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        bytes.append(0)
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                OwnedComponent.parse($0)
            }
        }
        guard let root = parsed else {
            throw ICalError(file: file, message: unreadableReason(data))
        }
        return try calendar(from: root, file: file)
    }

    private static func firstLine(of data: Data) -> String {
        let line = data.prefix(while: { $0 != 0x0A && $0 != 0x0D }).prefix(64)
        return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }

    private static func unreadableReason(_ data: Data) -> String {
        var open: [String] = []
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let upper = line.uppercased()
            if upper.hasPrefix("BEGIN:") { open.append(String(upper.dropFirst(6))) }
            else if upper.hasPrefix("END:"), !open.isEmpty { open.removeLast() }
        }
        if let last = open.first {
            return "not a readable iCalendar file: truncated (BEGIN:\(last) has no END:\(last))"
        }
        return "not a readable iCalendar file (libical could not parse it)"
    }

    private static func calendar(from root: OwnedComponent, file: String) throws -> ICalCalendar {
        let vcalendars: [OpaquePointer]
        var looseEvents: [OpaquePointer] = []
        switch icalcomponent_isa(root.pointer) {
        case ICAL_VCALENDAR_COMPONENT:
            vcalendars = [root.pointer]
        case ICAL_XROOT_COMPONENT:
            vcalendars = ICalWalk.children(of: root.pointer, kind: ICAL_VCALENDAR_COMPONENT)
            looseEvents = ICalWalk.children(of: root.pointer, kind: ICAL_VEVENT_COMPONENT)
        case ICAL_VEVENT_COMPONENT:
            vcalendars = []
            looseEvents = [root.pointer]
        default:
            throw ICalError(file: file, message: "not an iCalendar file (no VCALENDAR)")
        }
        if vcalendars.isEmpty && looseEvents.isEmpty {
            throw ICalError(file: file, message: "not an iCalendar file (no VCALENDAR)")
        }
        var zones: [String: ZoneRules] = [:]
        for vcal in vcalendars {
            for vtz in ICalWalk.children(of: vcal, kind: ICAL_VTIMEZONE_COMPONENT) {
                if let rules = VTimezoneRules(vtimezone: vtz), zones[rules.identifier] == nil {
                    zones[rules.identifier] = rules
                }
            }
        }
        var result = ICalCalendar(zones: ZoneBook(fileZones: zones))
        for vcal in vcalendars {
            readCalendarProperties(vcal, into: &result)
            for vevent in ICalWalk.children(of: vcal, kind: ICAL_VEVENT_COMPONENT) {
                result.events.append(ICalEventReader.event(from: vevent))
            }
        }
        result.events += looseEvents.map(ICalEventReader.event(from:))
        return result
    }

    private static func readCalendarProperties(_ vcal: OpaquePointer, into calendar: inout ICalCalendar) {
        for prop in ICalWalk.properties(of: vcal) {
            guard let name = ICalWalk.copy(icalproperty_get_property_name(prop))?.uppercased() else { continue }
            let value = ICalWalk.copy(icalproperty_get_value_as_string(prop))
            switch name {
            case "X-WR-CALNAME", "NAME":
                if calendar.name == nil { calendar.name = value }
            case "COLOR", "X-APPLE-CALENDAR-COLOR":
                if calendar.color == nil { calendar.color = value }
            default:
                break
            }
        }
    }
}
