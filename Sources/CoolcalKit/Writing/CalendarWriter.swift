import Foundation

/// What `accept` did to the calendar.
public enum WriteOutcome: Equatable, Sendable {
    case added, updated, unchanged
}

/// Writes one event into a calendar file or vdir without losing a byte of anything
/// else: under an exclusive lock, as a text edit (insert before the last
/// `END:VCALENDAR`, or replace the event's own block), checked by libical before it
/// is written, refused if the file changed under us, replaced atomically.
public struct CalendarWriter {
    public var lockTimeout: TimeInterval
    public var attempts = 3

    public init(lockTimeout: TimeInterval) {
        self.lockTimeout = lockTimeout
    }

    /// Adds or updates `event` in `path`. `check` sees the calendar as read under the
    /// lock and may throw to stop before anything is written (`--if-free`).
    public func write(_ event: NewEvent, to path: String,
                      check: (ICalCalendar) throws -> Void = { _ in }) throws -> WriteOutcome {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists && isDirectory.boolValue {
            let dir = AtomicFile.resolve(path)
            let lock = try FileLock(path: dir + "/.coolcal-lock", timeout: lockTimeout)
            defer { lock.unlock() }
            return try edit(event, file: try VdirNaming.file(for: event.uid, in: dir), check: check)
        }
        let real = AtomicFile.resolve(path)
        let parent = URL(fileURLWithPath: real).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: parent) else {
            throw WriteError(kind: .cannotCreate, path: path, message: "its directory does not exist")
        }
        let lock = try FileLock(path: FileLock.path(guarding: real), timeout: lockTimeout)
        defer { lock.unlock() }
        return try edit(event, file: real, check: check)
    }

    private func edit(_ event: NewEvent, file: String, check: (ICalCalendar) throws -> Void) throws -> WriteOutcome {
        AtomicFile.removeStaleTemporaries(of: file)
        for _ in 0..<attempts {
            let before = AtomicFile.status(file)
            let original = before == nil ? Data() : try InputFile.read(file)
            let calendar = try ICalReader.read(original, file: file)
            try check(calendar)
            let text = CalendarText(bytes: [UInt8](original))
            guard let (updated, outcome) = try newContents(event, text, calendar, file: file) else { return .unchanged }
            try verify(updated, has: event.uid, file: file)
            let now = AtomicFile.status(file) == nil ? Data() : try InputFile.read(file)
            guard now == original else { continue }
            try AtomicFile.write(updated, to: file, keeping: before)
            return outcome
        }
        throw WriteError(kind: .busy, path: file, message: "changed by another program while coolcal was writing it; nothing written, try again")
    }

    /// The edited file, or nil when the event is already there as it should be.
    private func newContents(_ event: NewEvent, _ text: CalendarText, _ calendar: ICalCalendar,
                             file: String) throws -> (Data, WriteOutcome)? {
        let ending = text.lineEnding
        let present = calendar.events.contains { $0.uid == event.uid || $0.inviteID == event.inviteID }
        if present, let (range, existing) = try findBlock(event, text) {
            if existing.summary == event.summary && occurrenceTime(existing.start) == event.start
                && occurrenceTime(existing.end) == event.end {
                return nil
            }
            var replacement = event
            replacement.sequence = max(event.sequence, (existing.sequence ?? 0) + 1)
            let block = Array(ICalWriter.vevent(replacement, lineEnding: ending).utf8)
            return (Data(text.bytes[..<range.lowerBound] + block + text.bytes[range.upperBound...]), .updated)
        }
        let block = ICalWriter.vevent(event, lineEnding: ending)
        guard let at = text.insertionPoint() else {
            guard calendar.events.isEmpty else {
                throw ICalError(file: file, message: "has no END:VCALENDAR line to insert before; not modified")
            }
            var prefix = text.bytes
            if !prefix.isEmpty && prefix.last != 0x0A { prefix += Array(ending.utf8) }
            let whole = prefix.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) ? [] : prefix
            return (Data(whole + Array(ICalWriter.calendar(containing: block, lineEnding: ending).utf8)), .added)
        }
        return (Data(text.bytes[..<at] + Array(block.utf8) + text.bytes[at...]), .added)
    }

    /// The top-level VEVENT that holds this invitation (by UID or X-COOLCAL-INVITE-ID).
    /// Blocks where the UID or marker appears verbatim are tried first; folded ones
    /// (a long UID split over lines) only when none of those is it.
    private func findBlock(_ event: NewEvent, _ text: CalendarText) throws -> (Range<Int>, ICalEvent)? {
        let blocks = text.veventBlocks()
        let data = Data(text.bytes)
        var hits: [Int] = []
        for needle in [event.uid, "X-COOLCAL-INVITE-ID:\(event.inviteID)"] {
            var from = data.startIndex
            while let r = data.range(of: Data(needle.utf8), in: from..<data.endIndex) {
                hits.append(r.lowerBound)
                from = r.upperBound
            }
        }
        let verbatim = blocks.filter { block in hits.contains { block.contains($0) } }
        if let found = try match(event, text, verbatim) { return found }
        let marker = "X-COOLCAL-INVITE-ID:\(event.inviteID)"
        let folded = blocks.filter { block in
            !verbatim.contains(block) && { $0.contains(event.uid) || $0.contains(marker) }(text.unfolded(block))
        }
        return try match(event, text, folded)
    }

    private func match(_ event: NewEvent, _ text: CalendarText, _ blocks: [Range<Int>]) throws -> (Range<Int>, ICalEvent)? {
        for range in blocks {
            let wrapped = "BEGIN:VCALENDAR\r\n" + String(decoding: text.bytes[range], as: UTF8.self) + "END:VCALENDAR\r\n"
            guard let parsed = try? ICalReader.read(Data(wrapped.utf8), file: "block"),
                  let found = parsed.events.first(where: { $0.recurrenceID == nil }) else { continue }
            if found.uid == event.uid || found.inviteID == event.inviteID { return (range, found) }
        }
        return nil
    }

    private func occurrenceTime(_ t: ICalTime?) -> OccurrenceTime? {
        guard let t else { return nil }
        if t.isDate { return .date(t.fields) }
        return t.reference == .utc ? .instant(t.fields.secondsAsUTC) : nil
    }

    /// libical must read the result, with the event in it, before it replaces anything.
    private func verify(_ data: Data, has uid: String, file: String) throws {
        let parsed: ICalCalendar
        do {
            parsed = try ICalReader.read(data, file: file)
        } catch {
            throw WriteError(kind: .io, path: file, message: "the edited calendar would not parse; not modified")
        }
        guard parsed.events.contains(where: { $0.uid == uid }) else {
            throw WriteError(kind: .io, path: file, message: "the edited calendar lacks the new event; not modified")
        }
    }
}
