import Foundation
import CoolcalCalDAV
import CoolcalICal
import CoolcalModel
import CoolcalSupport

/// Writes events into a calendar file, vdir or CalDAV collection without losing a byte
/// of anything else: a file or a vdir's event file through `CalendarFileEdit` (under
/// its lock, text edits of the bytes as read, read back from the fsynced temp file,
/// refused if the file changed under us, renamed over it); a CalDAV resource with
/// `PUT` and its etag (`CalDAVWriter`).
public struct CalendarWriter {
    public var lockTimeout: TimeInterval
    public var attempts = 3
    /// For CalDAV targets: `NETRC`, `HOME`, `COOLCAL_SERVER_TIMEOUT`.
    public var environment: [String: String] = [:]
    public var diagnostics: Diagnostics?

    public init(lockTimeout: TimeInterval) {
        self.lockTimeout = lockTimeout
    }

    /// Applies `change` to the calendar file, vdir or CalDAV collection at `location`.
    /// The file is read through the pre-filter for `window` (what `check` sees of it).
    package func write(change: CalendarChange, to location: CalendarLocation, window: TimeWindow,
               check: (ICalCalendar) throws -> Void = { _ in }) throws -> WriteOutcome {
        try self.write(changes: [change], to: location, window: window, check: check)[0]
    }

    /// Applies `changes` in order, reading and writing the calendar once for all of
    /// them (a vdir: once per event file; CalDAV: once per resource); one outcome each.
    package func write(changes: [CalendarChange], to location: CalendarLocation, window: TimeWindow,
               check: (ICalCalendar) throws -> Void = { _ in }) throws -> [WriteOutcome] {
        switch location {
        case .remote(let url):
            // The server has no lock to hold: `--if-free` is checked before (see
            // Acceptance.run), the etag guards the event's own resource.
            let client = try CalDAVClient(calendar: url, environment: environment, diagnostics: diagnostics)
            let writer = CalDAVWriter(client: client, attempts: attempts)
            return try changes.map { try writer.write($0) }
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
            // A new event file is as private as the collection's others (0600 in an empty one).
            let mode = VdirNaming.fileMode(in: dir)
            return try changes.map { change in
                let file = try VdirNaming.file(for: change.uid, marker: change.marker, in: dir)
                return try edit([change], file: file, window: window, removeWhenEmpty: true, newFileMode: mode, check: check)[0]
            }
        case .file(let path):
            let (real, lock) = try lockFile(path)
            defer { lock.unlock() }
            return try edit(changes, file: real, window: window, check: check)
        }
    }

    /// The calendar file `path` resolved, and its lock, taken.
    package func lockFile(_ path: String) throws -> (String, FileLock) {
        let real = try AtomicFile.resolve(path)
        let parent = URL(fileURLWithPath: real).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: parent) else {
            throw WriteError(kind: .cannotCreate, path: path, message: "its directory does not exist")
        }
        // Before the lock: no lock file beside a device, FIFO or file not ours to replace.
        _ = try AtomicFile.replaceable(real)
        let lock = try FileLock(path: FileLock.path(guarding: real), timeout: lockTimeout)
        diagnostics?.note("\(path): locked")
        return (real, lock)
    }

    /// A batch of changes to the calendar at `location`, read once for `windows`, the
    /// stored copies of `expecting` looked for in the same read (see `CalendarBatch`).
    package func batch(for location: CalendarLocation, windows: [TimeWindow], expecting: [CalendarChange]) throws -> CalendarBatch {
        try CalendarBatch(writer: self, location: location, windows: windows, expecting: expecting)
    }

    private func edit(_ changes: [CalendarChange], file: String, window: TimeWindow, removeWhenEmpty: Bool = false,
                      newFileMode: mode_t? = nil, check: (ICalCalendar) throws -> Void) throws -> [WriteOutcome] {
        for _ in 0..<attempts {
            let edit = try CalendarFileEdit(file: file, windows: [window], diagnostics: diagnostics,
                                            expecting: changes.map(\.identity))
            edit.removeWhenEmpty = removeWhenEmpty
            edit.newFileMode = newFileMode
            // What writes nothing (the same version again) is not checked: it is already
            // in the calendar, never busy with anything (`accept --if-free`).
            if try !changes.allSatisfy({ try edit.outcome(of: $0) == .unchanged }) { try check(edit.calendar) }
            edit.releaseRevisions()
            let outcomes = try changes.map { try edit.apply($0) }
            guard edit.hasChanges else { return outcomes }
            do {
                try edit.commit()
            } catch is AtomicFile.Changed {
                diagnostics?.note("\(file): changed by another program while being edited; reading it again")
                continue
            }
            for (change, outcome) in zip(changes, outcomes) {
                diagnostics?.note("\(file): \(change.uid): \(outcome.describe(file))")
            }
            diagnostics?.note("\(file): written once (temp file, fsync, rename)")
            return outcomes
        }
        throw WriteError(kind: .busy, path: file, message: "changed by another program while coolcal was writing it; nothing written, try again")
    }

    /// libical must read the result, with the event in it, before it replaces anything.
    package static func verify(_ data: Data, has uid: String, file: String) throws {
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
