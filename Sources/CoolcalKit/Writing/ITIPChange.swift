import Foundation

/// An iTIP invitation (`REQUEST`, `PUBLISH`) or cancellation (`CANCEL`) applied to a
/// calendar by RFC 5546's ordering (§2.1.5): a version replaces the stored one only
/// when its SEQUENCE is higher, or equal with a later DTSTAMP. The invitation is
/// stored as the organizer sent it — UID, recurrence, zones — with the owner's
/// `PARTSTAT=ACCEPTED`; a cancellation marks the stored event `STATUS:CANCELLED`.
struct ITIPChange: CalendarChange {
    let message: ITIPMessage
    let cancel: Bool
    /// The owner's addresses (`--me`, config `me`).
    let me: [String]

    var uid: String { message.uid }

    func apply(to text: CalendarText, calendar: ICalCalendar, file: String) throws -> (Data?, WriteOutcome) {
        let stored = text.blocks(uid: uid)
        let offered = message.versions
        let ending = text.lineEnding
        if cancel {
            return (try cancelling(stored, offered, text, calendar, file: file)) ?? (nil, .absent)
        }
        let copy = message.storedCopy(me: me, partstat: "ACCEPTED")
        guard !stored.isEmpty else {
            return try insert(copy.events, copy.zones, text, calendar, file: file)
        }
        if let master = offered.first(where: { $0.recurrenceID == nil }) {
            // A whole-series version replaces every stored component of the UID.
            let reference = stored.first(where: { $0.event.recurrenceID == nil }) ?? stored[0]
            switch ITIPChange.order(master, reference.event) {
            case .older: return (nil, .stale(ITIPChange.staleReason(master, reference.event)))
            case .same: return (nil, .unchanged)
            case .newer:
                let body = zonesToAdd(copy.zones, calendar) + copy.events.joined()
                return (text.replacing(stored.map(\.range), with: normalized(body, ending)), .updated)
            }
        }
        // Instances only: each replaces its own stored override, or is added.
        var replaced: [Range<Int>] = []
        var fresh: [String] = []
        var staleReason: String?
        for (version, body) in zip(offered, copy.events) {
            guard let existing = stored.first(where: { $0.event.recurrenceID == version.recurrenceID }) else {
                fresh.append(body)
                continue
            }
            switch ITIPChange.order(version, existing.event) {
            case .older: staleReason = ITIPChange.staleReason(version, existing.event)
            case .same: break
            case .newer:
                replaced.append(existing.range)
                fresh.append(body)
            }
        }
        if fresh.isEmpty { return (nil, staleReason.map(WriteOutcome.stale) ?? .unchanged) }
        let body = zonesToAdd(copy.zones, calendar) + fresh.joined()
        return (text.replacing(replaced, with: normalized(body, ending)), .updated)
    }

    private func cancelling(_ stored: [EventBlock], _ offered: [ICalEvent], _ text: CalendarText,
                            _ calendar: ICalCalendar, file: String) throws -> (Data?, WriteOutcome)? {
        guard !stored.isEmpty else { return nil }
        let ending = text.lineEnding
        var targets: [(EventBlock, ICalEvent)] = []
        var overrides: [String] = []
        let extra = message.cancelledOverrides()
        if let master = offered.first(where: { $0.recurrenceID == nil }) {
            targets = stored.map { ($0, master) }
        } else {
            for (version, body) in zip(offered, extra.events) {
                if let existing = stored.first(where: { $0.event.recurrenceID == version.recurrenceID }) {
                    targets.append((existing, version))
                } else if stored.contains(where: { $0.event.recurrenceID == nil && $0.event.isRecurring }) {
                    overrides.append(body)
                }
            }
        }
        for (block, version) in targets where ITIPChange.order(version, block.event) == .older {
            return (nil, .stale(ITIPChange.staleReason(version, block.event)))
        }
        let pending = targets.filter { $0.0.event.status != "CANCELLED" }
        if pending.isEmpty && overrides.isEmpty { return targets.isEmpty ? nil : (nil, .unchanged) }
        var edits: [(Range<Int>, String)] = []
        for (block, version) in pending {
            let old = String(decoding: text.bytes[block.range], as: UTF8.self)
            guard let new = ITIPMessage.cancelling(block: old, sequence: version.sequence) else {
                throw ICalError(file: file, message: "cannot read the stored event \(uid) to cancel it; not modified")
            }
            edits.append((block.range, normalized(new, ending)))
        }
        var out = text
        // Later ranges first, so earlier offsets stay valid.
        for (range, new) in edits.sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) {
            guard let edited = out.replacing([range], with: new) else { return nil }
            out = CalendarText(bytes: [UInt8](edited))
        }
        if !overrides.isEmpty {
            let body = zonesToAdd(extra.zones, calendar) + overrides.joined()
            guard let edited = out.replacing([], with: normalized(body, ending)) else {
                throw ICalError(file: file, message: "has no END:VCALENDAR line to insert before; not modified")
            }
            return (edited, .cancelled)
        }
        return (Data(out.bytes), .cancelled)
    }

    private func insert(_ events: [String], _ zones: [String: String], _ text: CalendarText,
                        _ calendar: ICalCalendar, file: String) throws -> (Data?, WriteOutcome) {
        let body = normalized(zonesToAdd(zones, calendar) + events.joined(), text.lineEnding)
        if let edited = text.replacing([], with: body) { return (edited, .added) }
        guard let whole = text.wholeCalendar(body, hasEvents: !calendar.events.isEmpty) else {
            throw ICalError(file: file, message: "has no END:VCALENDAR line to insert before; not modified")
        }
        return (whole, .added)
    }

    func preview(lineEnding: String) -> String {
        if cancel { return normalized(message.cancelledOverrides().events.joined(), lineEnding) }
        let copy = message.storedCopy(me: me, partstat: "ACCEPTED")
        return normalized(copy.zones.keys.sorted().compactMap { copy.zones[$0] }.joined() + copy.events.joined(), lineEnding)
    }

    /// The invitation's VTIMEZONEs the calendar does not define yet.
    private func zonesToAdd(_ zones: [String: String], _ calendar: ICalCalendar) -> String {
        zones.keys.sorted().filter { !calendar.zones.definesInFile($0) }.compactMap { zones[$0] }.joined()
    }

    private func normalized(_ text: String, _ ending: String) -> String {
        ending == "\r\n" ? text : ICalWriter.normalizeLineEndings(text, to: ending)
    }

    enum Order { case older, same, newer }

    /// How `offered` compares with `stored` by SEQUENCE, then DTSTAMP.
    static func order(_ offered: ICalEvent, _ stored: ICalEvent) -> Order {
        let a = (offered.sequence ?? 0, stampSeconds(offered)), b = (stored.sequence ?? 0, stampSeconds(stored))
        if a == b { return .same }
        return a < b ? .older : .newer
    }

    private static func stampSeconds(_ event: ICalEvent) -> Int64 {
        event.stamp.map { $0.fields.secondsAsUTC } ?? Int64.min
    }

    static func staleReason(_ offered: ICalEvent, _ stored: ICalEvent) -> String {
        let a = offered.sequence ?? 0, b = stored.sequence ?? 0
        if a != b { return "the calendar has a newer version (SEQUENCE \(b); this is SEQUENCE \(a))" }
        return "the calendar has a newer version (same SEQUENCE \(a), later DTSTAMP)"
    }
}
