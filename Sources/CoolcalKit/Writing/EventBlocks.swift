import Foundation

/// A top-level VEVENT block of a calendar file and what libical reads in it.
struct EventBlock {
    var range: Range<Int>
    var event: ICalEvent
}

extension CalendarText {
    /// The top-level VEVENT blocks holding `uid` (or, when given, the coolcal marker
    /// `X-COOLCAL-INVITE-ID:marker`), each read by libical. Only blocks where the UID
    /// or marker appears — verbatim, or once folded lines are joined — are parsed.
    func blocks(uid: String, marker: String? = nil) -> [EventBlock] {
        let needles = [uid] + (marker.map { ["X-COOLCAL-INVITE-ID:\($0)"] } ?? [])
        let data = Data(bytes)
        var hits: [Int] = []
        for needle in needles {
            var from = data.startIndex
            while let r = data.range(of: Data(needle.utf8), in: from..<data.endIndex) {
                hits.append(r.lowerBound)
                from = r.upperBound
            }
        }
        var found: [EventBlock] = []
        for range in veventBlocks() {
            let verbatim = hits.contains { range.contains($0) }
            guard verbatim || needles.contains(where: unfolded(range).contains) else { continue }
            let wrapped = "BEGIN:VCALENDAR\r\n" + String(decoding: bytes[range], as: UTF8.self) + "END:VCALENDAR\r\n"
            guard let parsed = try? ICalReader.read(Data(wrapped.utf8), file: "block"),
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
        let sorted = ranges.sorted { $0.lowerBound < $1.lowerBound }
        guard let at = sorted.first?.lowerBound ?? insertionPoint() else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + insert.utf8.count)
        var from = 0
        var inserted = false
        for range in sorted {
            out += bytes[from..<range.lowerBound]
            if !inserted && range.lowerBound == at { out += Array(insert.utf8); inserted = true }
            from = range.upperBound
        }
        if !inserted {
            out += bytes[from..<at]
            out += Array(insert.utf8)
            from = at
        }
        out += bytes[from...]
        return Data(out)
    }

    /// A new calendar file's bytes around `body` (VTIMEZONEs and VEVENTs), keeping
    /// whatever blank text was there; nil when the file has content but no
    /// `END:VCALENDAR` to insert before.
    func wholeCalendar(_ body: String, hasEvents: Bool) -> Data? {
        let ending = lineEnding
        let blank = bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        guard blank || !hasEvents else { return nil }
        var prefix = blank ? [] : bytes
        if !prefix.isEmpty && prefix.last != 0x0A { prefix += Array(ending.utf8) }
        return Data(prefix + Array(ICalWriter.calendar(containing: body, lineEnding: ending).utf8))
    }
}
