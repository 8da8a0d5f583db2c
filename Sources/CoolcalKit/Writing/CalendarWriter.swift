import Foundation

/// Writes one event into a calendar file or vdir without losing a byte of anything
/// else: under an exclusive lock, as a text edit (insert before the last
/// `END:VCALENDAR`, or replace the event's own block), checked by libical before it
/// is written, refused if the file changed under us, replaced atomically.
public struct CalendarWriter {
    public var lockTimeout: TimeInterval
    public var attempts = 3
    /// For CalDAV targets: `NETRC`, `HOME`, `COOLCAL_SERVER_TIMEOUT`.
    public var environment: [String: String] = [:]
    public var diagnostics: Diagnostics?

    public init(lockTimeout: TimeInterval) {
        self.lockTimeout = lockTimeout
    }

    /// Adds or updates `event` in `path`. `check` sees the calendar as read under the
    /// lock and may throw to stop before anything is written (`--if-free`).
    public func write(_ event: NewEvent, to path: String,
                      check: (ICalCalendar) throws -> Void = { _ in }) throws -> WriteOutcome {
        try write(change: event, to: CalendarLocation(path), check: check)
    }

    /// Applies `change` to the calendar file, vdir or CalDAV collection at `location`.
    func write(change: CalendarChange, to location: CalendarLocation,
               check: (ICalCalendar) throws -> Void = { _ in }) throws -> WriteOutcome {
        switch location {
        case .remote(let url):
            // The server has no lock to hold: `--if-free` is checked before (see
            // AcceptCommand), the etag guards the event's own resource.
            let client = try CalDAVClient(calendar: url, environment: environment, diagnostics: diagnostics)
            return try CalDAVWriter(client: client, attempts: attempts).write(change)
        case .vdir(let path):
            // Into one vdir only: never an `.ics` beside a tree's subfolders (it would turn
            // the tree into one vdir) or into a directory of other things (`~`).
            switch CalendarDirectory.probe(path) {
            case .tree?: throw WriteError(kind: .cannotCreate, path: path, message: "its calendars are its subfolders; name one of them")
            case .noCalendars?: throw WriteError(kind: .cannotCreate, path: path, message: "no calendars here (no .ics files, no vdir subfolders)")
            default: break
            }
            let dir = try AtomicFile.resolve(path)
            let lock = try FileLock(path: dir + "/.coolcal-lock", timeout: lockTimeout)
            defer { lock.unlock() }
            diagnostics?.note("\(path): locked")
            return try edit(change, file: try VdirNaming.file(for: change.uid, marker: change.marker, in: dir), check: check)
        case .file(let path):
            let real = try AtomicFile.resolve(path)
            let parent = URL(fileURLWithPath: real).deletingLastPathComponent().path
            guard FileManager.default.fileExists(atPath: parent) else {
                throw WriteError(kind: .cannotCreate, path: path, message: "its directory does not exist")
            }
            // Before the lock: no lock file beside a device, FIFO or file not ours to replace.
            _ = try AtomicFile.replaceable(real)
            let lock = try FileLock(path: FileLock.path(guarding: real), timeout: lockTimeout)
            defer { lock.unlock() }
            diagnostics?.note("\(path): locked")
            return try edit(change, file: real, check: check)
        }
    }

    private func edit(_ change: CalendarChange, file: String, check: (ICalCalendar) throws -> Void) throws -> WriteOutcome {
        AtomicFile.removeStaleTemporaries(of: file)
        for _ in 0..<attempts {
            // What is read is what is compared before the rename: the descriptor's status.
            let input = try AtomicFile.replaceable(file).map { _ in try InputFile.open(file, accepting: .regularFiles) }
            let before = input?.status
            if let before { try AtomicFile.check(before, path: file) }
            let original = try input.map(ICalReader.wholeFile) ?? Data()
            let calendar = try ICalReader.read(original, file: file)
            // CalendarText finds lines by LF; libical also ends a line at a bare CR
            // (old Mac files), which an edit would not see. (After the read: a binary or
            // UTF-16 file is refused as such first.)
            if Self.hasBareCR(original) {
                throw ICalError(file: file, message: "uses CR-only line endings; coolcal edits CRLF or LF files only; not modified")
            }
            try check(calendar)
            let text = CalendarText(bytes: [UInt8](original))
            let (edited, outcome) = try change.apply(to: text, calendar: calendar, file: file)
            guard let updated = edited else {
                diagnostics?.note("\(file): nothing to write (\(outcome.describe(file)))")
                return outcome
            }
            try CalendarWriter.verify(updated, has: change.uid, file: file)
            do {
                try AtomicFile.write(updated, to: file, keeping: before,
                                     unchanged: { Self.unchanged(file, since: before, original: original) })
            } catch is AtomicFile.Changed {
                diagnostics?.note("\(file): changed by another program while being edited; reading it again")
                continue
            }
            diagnostics?.note("\(file): \(outcome.describe(file)) (temp file, fsync, rename)")
            return outcome
        }
        throw WriteError(kind: .busy, path: file, message: "changed by another program while coolcal was writing it; nothing written, try again")
    }

    /// Whether `file` is still what was read: the same inode, device, size and mtime
    /// (in ns) as `status` and the same bytes as `original`; checked last before the
    /// rename, so an editor's save (its own rename) in the meantime is not lost.
    static func unchanged(_ file: String, since status: FileStatus?, original: Data) -> Bool {
        guard let status else { return FileStatus.of(file, followSymlinks: false) == nil }
        guard FileStatus.of(file, followSymlinks: false)?.sameVersion(as: status) == true,
              let input = try? InputFile.open(file, accepting: .regularFiles), input.status.sameVersion(as: status),
              let now = try? input.readAll(limit: original.count), now == original else { return false }
        // The bytes took a moment to read: the name must still be that file.
        return FileStatus.of(file, followSymlinks: false)?.sameVersion(as: status) == true
    }

    /// Whether `data` has a CR that no LF follows.
    private static func hasBareCR(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return false }
            var at = 0
            while at < raw.count, let found = memchr(base + at, 0x0D, raw.count - at) {
                let cr = base.distance(to: UnsafeRawPointer(found))
                if cr + 1 == raw.count || raw[cr + 1] != 0x0A { return true }
                at = cr + 2
            }
            return false
        }
    }

    /// libical must read the result, with the event in it, before it replaces anything.
    static func verify(_ data: Data, has uid: String, file: String) throws {
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
