import Foundation
import CoolcalICal
import CoolcalModel
import CoolcalScan
import CoolcalZones

/// An iTIP invitation (`REQUEST`, `PUBLISH`) or cancellation (`CANCEL`) applied to a
/// calendar by RFC 5546's ordering (§2.1.5): a version replaces the stored one only
/// when its SEQUENCE is higher, or equal with a later DTSTAMP. The invitation is
/// stored as the organizer sent it — UID, recurrence, zones — with the owner's
/// `PARTSTAT=ACCEPTED`; a cancellation marks the stored event `STATUS:CANCELLED` by
/// editing two lines of it. Instances are matched by RECURRENCE-ID as instants, so
/// `…T100000` in New York and `…T150000Z` are the same instance.
package struct ITIPChange: CalendarChange {
    package let message: ITIPMessage
    package let cancel: Bool
    /// The owner's addresses (`--me`, config `me`).
    package let me: [String]
    /// The owner's answer written into the stored copy: `ACCEPTED`, `TENTATIVE`, or
    /// `DECLINED` (changing your mind: only a stored copy is edited, none is added).
    package var partstat = "ACCEPTED"
    /// The address the message was mailed from (its `From`), normalized; nil when it
    /// did not come by mail. A stored event changes only when it is the organizer's
    /// (or the stored copy's SENT-BY): `binding(_:_:)`.
    package var sender: String?
    /// `accept --new-organizer`: a person lets this message's ORGANIZER replace the stored
    /// one (`organizer changed` is then not held).
    package var newOrganizer = false
    /// `merge`'s and `process`'s answer to an organizer's update: the new version is
    /// written with `partstat`, `DECLINED` too (without it `DECLINED` is changing your
    /// mind: only my PARTSTAT is edited, in every stored block).
    package var writesUpdate = false
    /// What the organizer last sent of this UID, by `recordKey` (the state's
    /// `OrganizerLines`): what tells the user's lines of a stored copy (`UserData`).
    package var organizerSent: [String: Set<String>] = [:]

    package init(message: ITIPMessage, cancel: Bool, me: [String], sender: String? = nil) {
        self.message = message
        self.cancel = cancel
        self.me = me
        self.sender = sender
    }

    package var uid: String { message.uid }

    /// The edit RFC 5546's ordering asks for — unless it would change a stored event this
    /// message may not change (`binding`): then nothing, held. A message that changes
    /// nothing (the same version again, an older one) is said as such, not held.
    package func splice(of text: CalendarText, calendar: ICalCalendar, file: String) throws -> (Splice?, WriteOutcome) {
        let stored = text.blocks(uid: uid)
        let edit = try ordered(stored, text, calendar, file: file)
        if edit.0 != nil, partstat != "DECLINED" || writesUpdate, let held = binding(stored, text) { return (nil, held) }
        if cancel, edit.0 != nil, let others = cancelledAttendees(stored) { return (nil, .othersCancelled(others)) }
        return edit
    }

    private func ordered(_ stored: [EventBlock], _ text: CalendarText, _ calendar: ICalCalendar,
                         file: String) throws -> (Splice?, WriteOutcome) {
        let offered = message.versions
        if cancel {
            return try cancelling(stored, offered, text, calendar, file: file) ?? (nil, .absent)
        }
        var copy = message.storedCopy(me: me, partstat: partstat, renaming: zoneRenaming(calendar))
        copy.events = carried(copy.events, offered, stored, text, calendar)
        let zones = zonesToAdd(copy.zones, calendar)
        let ending = text.lineEnding
        if partstat == "DECLINED" && !writesUpdate { return try declining(stored, text, file: file) }
        guard !stored.isEmpty else {
            return try insert(zones + copy.events.joined(), text, calendar, file: file)
        }
        // Several stored revisions of the series (an edited, re-exported file): the current
        // one is compared, and every one of them is replaced (none is left that could win).
        let storedMasters = stored.filter { $0.event.recurrenceID == nil }
        let storedMaster = storedMasters.max { ITIPChange.order($1.event, $0.event) == .newer }
        if let master = offered.first(where: { $0.recurrenceID == nil }) {
            if let storedMaster {
                switch ITIPChange.order(master, storedMaster.event) {
                case .older:
                    return (nil, .stale(ITIPChange.staleReason(master, storedMaster.event)))
                case .same where !needsMyAnswer(storedMaster.event, copy.owner):
                    return (nil, .unchanged)
                case .same:
                    // The same version, now with my acceptance: only the series block changes.
                    guard let index = offered.firstIndex(where: { $0.recurrenceID == nil }), copy.events.indices.contains(index) else {
                        return (nil, .unchanged)
                    }
                    return (text.replacing(storedMasters.map(\.range), with: normalized(zones + copy.events[index], ending)), .updated)
                case .newer:
                    // A whole-series version replaces the stored series and each stored
                    // instance that is not newer than it (RFC 5546 §2.1.5 orders each
                    // instance by its own SEQUENCE): a newer override stays, and wins over
                    // the message's own copy of that instance if that one is older.
                    return (try seriesUpdate(master, stored, offered, copy.events, zones, text, calendar), .updated)
                }
            }
            // Only instances were stored (they came first): the series goes in, and a
            // stored instance newer than it stays unless the message has that instance too.
            let sent = Set(offered.compactMap { key($0.recurrenceID, message.zones) })
            let replaced = stored.filter { block in
                key(block.event.recurrenceID, calendar.zones).map(sent.contains) == true
                    || ITIPChange.order(block.event, master) != .newer
            }
            let body = normalized(zones + copy.events.joined(), ending)
            guard !replaced.isEmpty else { return try insert(zones + copy.events.joined(), text, calendar, file: file) }
            return (text.replacing(replaced.map(\.range), with: body), .updated)
        }
        // Instances only: each replaces its own stored override, or is added — unless
        // the stored series (or override) is newer.
        var replaced: [Range<Int>] = []
        var fresh: [String] = []
        var staleReason: String?
        for (version, body) in zip(offered, copy.events) {
            let wanted = key(version.recurrenceID, message.zones)
            let copies = stored.filter { key($0.event.recurrenceID, calendar.zones) == wanted }
            if let existing = copies.max(by: { ITIPChange.order($1.event, $0.event) == .newer }) {
                switch ITIPChange.order(version, existing.event) {
                case .older: staleReason = ITIPChange.staleReason(version, existing.event)
                case .same: break
                case .newer:
                    replaced += copies.map(\.range)
                    fresh.append(body)
                }
            } else if let storedMaster, ITIPChange.order(version, storedMaster.event) == .older {
                staleReason = ITIPChange.staleReason(version, storedMaster.event)
            } else {
                fresh.append(body)
            }
        }
        if fresh.isEmpty { return (nil, staleReason.map(WriteOutcome.stale) ?? .unchanged) }
        return (text.replacing(replaced, with: normalized(zones + fresh.joined(), ending)), .updated)
    }

    /// The attendees a cancellation names when it names some, none of them me, while my
    /// stored copy names me: the organizer removes those people (RFC 5546 §3.2.5), and
    /// my copy is not theirs to cancel. Nil when it is mine.
    private func cancelledAttendees(_ stored: [EventBlock]) -> String? {
        let named = message.versions.flatMap(\.attendees).map { CalendarAddress.normalized($0.address) }
        let mine = Set(me.map(CalendarAddress.normalized))
        guard !named.isEmpty, !named.contains(where: mine.contains),
              stored.contains(where: { $0.event.attendees.contains { mine.contains(CalendarAddress.normalized($0.address)) } })
        else { return nil }
        var unique: [String] = []
        for address in named where !unique.contains(address) { unique.append(address) }
        return unique.joined(separator: ", ")
    }

    /// A newer series over the stored components: the stored series and every stored
    /// instance not newer than what the message says of it (its own copy of that
    /// instance, else its series) are replaced by the message's components, minus its
    /// copies of instances the calendar holds newer.
    private func seriesUpdate(_ master: ICalEvent, _ stored: [EventBlock], _ offered: [ICalEvent], _ bodies: [String],
                              _ zones: String, _ text: CalendarText, _ calendar: ICalCalendar) throws -> Splice? {
        var newestStored: [InstanceKey: EventBlock] = [:]
        for block in stored {
            guard block.event.recurrenceID != nil, let k = key(block.event.recurrenceID, calendar.zones) else { continue }
            if let other = newestStored[k], ITIPChange.order(block.event, other.event) != .newer { continue }
            newestStored[k] = block
        }
        var sent: [InstanceKey: ICalEvent] = [:]
        var body: [String] = []
        for (version, text) in zip(offered, bodies) {
            if let k = key(version.recurrenceID, message.zones) {
                if let held = newestStored[k], ITIPChange.order(held.event, version) == .newer { continue }
                sent[k] = version
            }
            body.append(text)
        }
        let replaced = stored.filter { block in
            guard block.event.recurrenceID != nil, let k = key(block.event.recurrenceID, calendar.zones) else { return true }
            if let newest = newestStored[k], newest.range != block.range { return true }
            return ITIPChange.order(block.event, sent[k] ?? master) != .newer
        }
        return text.replacing(replaced.map(\.range), with: normalized(zones + body.joined(), text.lineEnding))
    }

    /// Changing your mind: the owner's `PARTSTAT=DECLINED` set in every stored block of
    /// the UID, whatever their version (the organizer's later updates still match), by
    /// editing that one line of each (`AttendeeEdit`).
    private func declining(_ stored: [EventBlock], _ text: CalendarText, file: String) throws -> (Splice?, WriteOutcome) {
        guard !stored.isEmpty else { return (nil, .absent) }
        let (edits, owner) = AttendeeEdit.setting(partstat: partstat, for: me, in: stored, of: text)
        guard owner else {
            throw ICalError(file: file, message: "the stored event \(uid) does not list \(me.joined(separator: ", ")) among its attendees; not modified")
        }
        guard !edits.isEmpty else { return (nil, .unchanged) }
        guard let edited = Splice(base: text.bytes, cuts: edits) else {
            throw ICalError(file: file, message: "the stored blocks of \(uid) overlap; not modified")
        }
        return (edited, .updated)
    }

    /// Whether the stored copy lacks the owner's acceptance that this one carries
    /// (accepted before without `--me`, or synced from a server).
    private func needsMyAnswer(_ stored: ICalEvent, _ ownerInCopy: Bool) -> Bool {
        guard ownerInCopy else { return false }
        return stored.attendees.contains { a in
            me.contains { ITIPMessage.sameAddress($0, a.address) } && a.partstat?.uppercased() != partstat
        }
    }

    private func cancelling(_ stored: [EventBlock], _ offered: [ICalEvent], _ text: CalendarText,
                            _ calendar: ICalCalendar, file: String) throws -> (Splice?, WriteOutcome)? {
        guard !stored.isEmpty else { return nil }
        let ending = text.lineEnding
        // Several stored revisions of the series (an edited, re-exported file): the current
        // one is compared, and every one of them is replaced (none is left that could win).
        let storedMasters = stored.filter { $0.event.recurrenceID == nil }
        let storedMaster = storedMasters.max { ITIPChange.order($1.event, $0.event) == .newer }
        var targets: [(EventBlock, ICalEvent)] = []
        var overrides: [String] = []
        let extra = message.cancelledOverrides(renaming: zoneRenaming(calendar))
        if let master = offered.first(where: { $0.recurrenceID == nil }) {
            // The series is ordered against the stored series, not its overrides; with
            // no series stored, against each stored instance.
            if let storedMaster, ITIPChange.order(master, storedMaster.event) == .older {
                return (nil, .stale(ITIPChange.staleReason(master, storedMaster.event)))
            }
            if storedMaster == nil, let newer = stored.first(where: { ITIPChange.order(master, $0.event) == .older }) {
                return (nil, .stale(ITIPChange.staleReason(master, newer.event)))
            }
            targets = stored.map { ($0, master) }
        } else {
            for (version, body) in zip(offered, extra.events) {
                let wanted = key(version.recurrenceID, message.zones)
                if let existing = stored.first(where: { key($0.event.recurrenceID, calendar.zones) == wanted }) {
                    if ITIPChange.order(version, existing.event) == .older {
                        return (nil, .stale(ITIPChange.staleReason(version, existing.event)))
                    }
                    targets.append((existing, version))
                } else if let storedMaster, storedMaster.event.isRecurring {
                    if ITIPChange.order(version, storedMaster.event) == .older {
                        return (nil, .stale(ITIPChange.staleReason(version, storedMaster.event)))
                    }
                    overrides.append(body)
                }
            }
        }
        let pending = targets.filter { $0.0.event.status != "CANCELLED" }
        if pending.isEmpty && overrides.isEmpty { return targets.isEmpty ? nil : (nil, .unchanged) }
        var edits: [(Range<Int>, [UInt8])] = []
        for (block, version) in pending {
            let sequence = max(block.event.sequence ?? 0, version.sequence ?? 0)
            guard let new = BlockEdit.cancel(block: Array(text.bytes[block.range]), sequence: sequence),
                  ITIPChange.isCancelled(new) else {
                throw ICalError(file: file, message: "cannot mark the stored event \(uid) cancelled; not modified")
            }
            edits.append((block.range, new))
        }
        var cuts = edits.map { (range: $0.0, bytes: $0.1) }
        if !overrides.isEmpty {
            // The edited blocks end before the last END:VCALENDAR line: its offset is the same after them.
            guard let at = text.insertionPoint() else {
                throw ICalError(file: file, message: "has no END:VCALENDAR line to insert before; not modified")
            }
            let body = zonesToAdd(extra.zones, calendar) + overrides.joined()
            cuts.append((at..<at, Array(normalized(body, ending).utf8)))
        }
        guard let edited = Splice(base: text.bytes, cuts: cuts) else {
            throw ICalError(file: file, message: "the stored blocks of \(uid) overlap its END:VCALENDAR line; not modified")
        }
        return (edited, .cancelled)
    }

    /// libical reads the edited block as one cancelled VEVENT.
    private static func isCancelled(_ block: [UInt8]) -> Bool {
        let wrapped = Array("BEGIN:VCALENDAR\r\n".utf8) + block + Array("END:VCALENDAR\r\n".utf8)
        return (try? ICalReader.read(Data(wrapped), file: "block"))?.events.first?.status == "CANCELLED"
    }

    private func insert(_ body: String, _ text: CalendarText, _ calendar: ICalCalendar,
                        file: String) throws -> (Splice?, WriteOutcome) {
        let normalizedBody = normalized(body, text.lineEnding)
        if let edited = text.replacing([], with: normalizedBody) { return (edited, .added) }
        guard let whole = text.wholeCalendar(normalizedBody, hasEvents: !calendar.events.isEmpty || !text.veventBlocks().isEmpty) else {
            throw ICalError(file: file, message: "has no END:VCALENDAR line to insert before; not modified")
        }
        return (whole, .added)
    }

    package func preview(lineEnding: String) -> String {
        if cancel { return normalized(message.cancelledOverrides().events.joined(), lineEnding) }
        let copy = message.storedCopy(me: me, partstat: partstat)
        return normalized(copy.zones.keys.sorted().compactMap { copy.zones[$0] }.joined() + copy.events.joined(), lineEnding)
    }

    /// The invitation's VTIMEZONEs the calendar does not define yet.
    private func zonesToAdd(_ zones: [String: String], _ calendar: ICalCalendar) -> String {
        zones.keys.sorted().filter { !calendar.zones.definesInFile($0) }.compactMap { zones[$0] }.joined()
    }

    /// New names for the invitation's TZIDs that the calendar defines with other
    /// rules (two Outlook invitations both say `Customized Time Zone`): compared by
    /// UTC offset weekly over three years around the event, and at its own times.
    private func zoneRenaming(_ calendar: ICalCalendar) -> [String: String] {
        var renaming: [String: String] = [:]
        let versions = message.versions
        let taken = message.tzids
        let anchor = versions.compactMap { $0.start?.fields.secondsAsUTC }.first ?? 0
        // Only a zone the message defines itself can be carried under a new name.
        for tzid in taken.sorted() where calendar.zones.definesInFile(tzid) && message.definesZone(tzid) {
            guard let theirs = message.zones.zone(for: tzid), let ours = calendar.zones.zone(for: tzid) else { continue }
            let times = versions.flatMap { [$0.start, $0.end, $0.recurrenceID] }.compactMap { $0 }.filter { $0.tzid == tzid }
            guard !ITIPChange.sameRules(theirs, ours, around: anchor, times: times) else { continue }
            // An earlier update may have stored this zone as `NAME 2` already: reuse it.
            var n = 2
            while true {
                let name = "\(tzid) \(n)"
                if !taken.contains(name) {
                    guard calendar.zones.definesInFile(name) else { break }
                    if let existing = calendar.zones.zone(for: name),
                       ITIPChange.sameRules(theirs, existing, around: anchor, times: times) { break }
                }
                n += 1
            }
            renaming[tzid] = "\(tzid) \(n)"
        }
        return renaming
    }

    /// Whether two zones give the same UTC offsets, week by week over three years
    /// around `anchor`, and the same instants for the event's own times.
    private static func sameRules(_ a: ZoneRules, _ b: ZoneRules, around anchor: Int64, times: [ICalTime]) -> Bool {
        let weekly = (-52...104).allSatisfy { week in
            let t = anchor + Int64(week) * 7 * 86_400
            return a.offset(atUTC: t) == b.offset(atUTC: t)
        }
        return weekly && times.allSatisfy { a.utcSeconds(of: $0.fields) == b.utcSeconds(of: $0.fields) }
    }

    private func normalized(_ text: String, _ ending: String) -> String {
        ending == "\r\n" ? text : ICalWriter.normalizeLineEndings(text, to: ending)
    }

    /// A RECURRENCE-ID as what it means: a date, or an instant (zones resolved).
    package enum InstanceKey: Hashable { case date(CivilDateTime), instant(Int64) }

    func key(_ t: ICalTime?, _ zones: ZoneBook) -> InstanceKey? {
        guard let t else { return nil }
        if t.isDate { return .date(t.fields) }
        switch t.reference {
        case .utc, .floating: return .instant(t.fields.secondsAsUTC)
        case .zoned(let id): return .instant(zones.zone(for: id)?.utcSeconds(of: t.fields) ?? t.fields.secondsAsUTC)
        }
    }

    package enum Order { case older, same, newer }

    /// How `offered` compares with `stored` by SEQUENCE, then DTSTAMP.
    package static func order(_ offered: ICalEvent, _ stored: ICalEvent) -> Order {
        let a = (offered.sequence ?? 0, stampSeconds(offered)), b = (stored.sequence ?? 0, stampSeconds(stored))
        if a == b { return .same }
        return a < b ? .older : .newer
    }

    private static func stampSeconds(_ event: ICalEvent) -> Int64 {
        event.stamp.map { $0.fields.secondsAsUTC } ?? Int64.min
    }

    package static func staleReason(_ offered: ICalEvent, _ stored: ICalEvent) -> String {
        let a = offered.sequence ?? 0, b = stored.sequence ?? 0
        if a != b { return "the calendar has a newer version (SEQUENCE \(b); this is SEQUENCE \(a))" }
        return "the calendar has a newer version (same SEQUENCE \(a), later DTSTAMP)"
    }
}
