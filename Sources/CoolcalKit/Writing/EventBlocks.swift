import Foundation

/// A top-level VEVENT block of a calendar file and what libical reads in it.
struct EventBlock {
    var range: Range<Int>
    var event: ICalEvent
}

extension CalendarText {
    /// The top-level VEVENT blocks of `uid` (or, when given, with the coolcal marker
    /// `X-COOLCAL-INVITE-ID:marker`), each read by libical. Only blocks whose UID or
    /// marker line contains them, folds undone, are parsed (`candidateBlocks`).
    func blocks(uid: String, marker: String? = nil) -> [EventBlock] {
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

    /// The bytes with `ranges` (sorted, disjoint) removed and `insert` placed where
    /// the first of them was, or before the last `END:VCALENDAR` when there is none.
    func replacing(_ ranges: [Range<Int>], with insert: String) -> Data? {
        replacing(ranges, withBytes: Array(insert.utf8))
    }

    /// `replacing(_:with:)` for bytes that need not be UTF-8 (a user's edited block).
    func replacing(_ ranges: [Range<Int>], withBytes insert: [UInt8]) -> Data? {
        let sorted = ranges.sorted { $0.lowerBound < $1.lowerBound }
        guard let at = sorted.first?.lowerBound ?? insertionPoint() else { return nil }
        // Built in place: one copy of the file, however large.
        var out = Data(capacity: bytes.count + insert.count)
        bytes.withUnsafeBytes { raw in
            let all = raw.bindMemory(to: UInt8.self)
            func keep(_ r: Range<Int>) { if !r.isEmpty { out.append(UnsafeBufferPointer(rebasing: all[r])) } }
            var from = 0
            var inserted = false
            for range in sorted {
                keep(from..<range.lowerBound)
                if !inserted && range.lowerBound == at { out.append(contentsOf: insert); inserted = true }
                from = range.upperBound
            }
            if !inserted {
                keep(from..<at)
                out.append(contentsOf: insert)
                from = at
            }
            keep(from..<all.count)
        }
        return out
    }

    /// A new calendar file's bytes around `body` (VTIMEZONEs and VEVENTs), keeping
    /// whatever blank text was there; nil when the file has content but no
    /// `END:VCALENDAR` to insert before.
    func wholeCalendar(_ body: String, hasEvents: Bool) -> Data? {
        let ending = lineEnding
        let blank = bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        guard blank || !hasEvents else { return nil }
        var prefix = blank ? [] : Array(bytes)
        if !prefix.isEmpty && prefix.last != 0x0A { prefix += Array(ending.utf8) }
        return Data(prefix + Array(ICalWriter.calendar(containing: body, lineEnding: ending).utf8))
    }
}
