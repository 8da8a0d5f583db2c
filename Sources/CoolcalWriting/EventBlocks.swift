import Foundation
import CoolcalICal
import CoolcalModel
import CoolcalScan
import CoolcalZones

/// A top-level VEVENT block of a calendar file and what libical reads in it.
package struct EventBlock {
    package var range: Range<Int>
    package var event: ICalEvent
}

extension CalendarText {
    /// The top-level VEVENT blocks of `uid` (or, when given, with the coolcal marker
    /// `X-COOLCAL-INVITE-ID:marker`), each read by libical. Only blocks whose UID or
    /// marker line contains them, folds undone, are parsed (`candidateBlocks`).
    package func blocks(uid: String, marker: String? = nil) -> [EventBlock] {
        var found: [EventBlock] = []
        for range in candidateBlocks(uid: uid, marker: marker) {
            var wrapped = Array("BEGIN:VCALENDAR\r\n".utf8)
            wrapped += bytes[range]
            wrapped += Array("END:VCALENDAR\r\n".utf8)
            guard let parsed = try? ICalReader.read(Data(wrapped), file: "block"),
                  let event = parsed.events.first else { continue }
            if event.uid == uid || (marker != nil && event.inviteID == marker) {
                found.append(EventBlock(range: range, event: event))
            }
        }
        return found
    }

    /// The bytes with `ranges` (disjoint) removed and `insert` placed where the first
    /// of them was, or before the last `END:VCALENDAR` when there is none: a splice of
    /// these bytes, not a copy of them.
    package func replacing(_ ranges: [Range<Int>], with insert: String) -> Splice? {
        replacing(ranges, withBytes: Array(insert.utf8))
    }

    /// `replacing(_:with:)` for bytes that need not be UTF-8 (a user's edited block).
    package func replacing(_ ranges: [Range<Int>], withBytes insert: [UInt8]) -> Splice? {
        let sorted = ranges.sorted { $0.lowerBound < $1.lowerBound }
        guard let first = sorted.first else {
            return insertionPoint().flatMap { Splice(base: bytes, cuts: [($0..<$0, insert)]) }
        }
        return Splice(base: bytes, cuts: [(first, insert)] + sorted.dropFirst().map { ($0, []) })
    }

    /// A new calendar file's bytes around `body` (VTIMEZONEs and VEVENTs), keeping
    /// whatever blank text was there; nil when the file has content but no
    /// `END:VCALENDAR` to insert before.
    package func wholeCalendar(_ body: String, hasEvents: Bool) -> Splice? {
        let ending = lineEnding
        whole()
        let blank = bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        guard blank || !hasEvents else { return nil }
        var prefix = blank ? [] : Array(bytes)
        if !prefix.isEmpty && prefix.last != 0x0A { prefix += Array(ending.utf8) }
        return Splice(whole: Data(prefix + Array(ICalWriter.calendar(containing: body, lineEnding: ending).utf8)))
    }
}

extension CalendarText {
    /// The stored blocks of `uid` that the owner (`me`) organises, and of them those a
    /// message about `instance` (its RECURRENCE-ID; nil: the series) speaks of: the same
    /// instant, whatever zone each writes it in (`zones`: the calendar's and the system's).
    package func organizedBlocks(uid: String, me: [String], instance: ICalTime?, zones: ZoneBook) -> (stored: [EventBlock], targets: [EventBlock]) {
        let mine = Set(me.map(CalendarAddress.normalized))
        let stored = blocks(uid: uid).filter { $0.event.organizer.map { mine.contains(CalendarAddress.normalized($0)) } ?? false }
        let targets = stored.filter { block in
            guard let instance else { return block.event.recurrenceID == nil }
            return block.event.recurrenceID.map { Self.sameInstant($0, instance, zones) } ?? false
        }
        return (stored, targets)
    }

    /// Whether two times name one instant: each in its own zone (a UTC RECURRENCE-ID
    /// names the instance a zoned one does); the same fields when a zone is unknown.
    package static func sameInstant(_ a: ICalTime, _ b: ICalTime, _ zones: ZoneBook) -> Bool {
        guard a.reference != b.reference, let x = instant(a, zones), let y = instant(b, zones) else { return a.fields == b.fields }
        return x == y
    }

    /// The UTC instant of a time; nil for a floating one, or one in an unknown zone.
    package static func instant(_ t: ICalTime, _ zones: ZoneBook) -> Int64? {
        switch t.reference {
        case .utc: return t.fields.secondsAsUTC
        case .floating: return nil
        case .zoned(let id): return zones.zone(for: id)?.utcSeconds(of: t.fields)
        }
    }
}
