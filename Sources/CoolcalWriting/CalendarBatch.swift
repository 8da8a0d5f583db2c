import Foundation
import CoolcalCalendars
import CoolcalICal
import CoolcalModel
import CoolcalSupport

/// Many changes to one calendar, read and written once (`merge`): a calendar file is
/// locked and read when the batch opens, each change is applied to its text in memory
/// as it comes, and `commit` writes the result once. A vdir or CalDAV calendar has a
/// file or resource per event: there each change is written as it comes.
package final class CalendarBatch {
    private let writer: CalendarWriter
    private let location: CalendarLocation
    private let windows: [TimeWindow]
    private var lock: FileLock?
    private var edit: CalendarFileEdit?
    private var applied: [CalendarChange] = []

    /// The calendar file as read under the lock (its zones, and the events that may
    /// reach one of the windows); nil for a vdir or CalDAV calendar.
    package var calendar: ICalCalendar? { edit?.calendar }

    /// `expecting`: the changes to come, whose stored copies are looked for in one pass
    /// while the file is read.
    package init(writer: CalendarWriter, location: CalendarLocation, windows: [TimeWindow], expecting: [CalendarChange]) throws {
        self.writer = writer
        self.location = location
        self.windows = windows.isEmpty ? [TimeWindow(start: 0, end: 1)] : windows
        guard case .file(let path) = location else { return }
        let (real, lock) = try writer.lockFile(path)
        self.lock = lock
        do {
            edit = try CalendarFileEdit(file: real, windows: self.windows, diagnostics: writer.diagnostics,
                                        expecting: expecting.map(\.identity))
        } catch {
            lock.unlock()
            self.lock = nil
            throw error
        }
    }

    deinit { lock?.unlock() }

    /// The calendar as a loaded calendar named for its location, when it was read here.
    package var loaded: LoadedCalendar? {
        calendar.map { LoadedCalendar(name: location.name, color: $0.color, files: [$0]) }
    }

    /// The held outcome when `change` may not touch the event the calendar holds
    /// (organizer binding), asked before an answer that writes nothing is given; nil
    /// when it may, or for a vdir or CalDAV target (there it is checked when written).
    package func held(_ change: CalendarChange) -> WriteOutcome? {
        guard let itip = change as? ITIPChange, let edit else { return nil }
        return edit.held(itip)
    }

    /// Whether the calendar file holds an event with this UID; false for a vdir or CalDAV
    /// target (not read here: there binding is checked when the change is written).
    package func stores(uid: String) -> Bool {
        edit?.stores(uid: uid) ?? false
    }

    /// What `change` would do, and how it stands to the stored copy (nil: none stored),
    /// without writing: a file's text as the changes so far left it; a vdir's event file
    /// as it is now (written later under the vdir's lock, where the same rules decide);
    /// nil for CalDAV, or a file that cannot be read.
    package func preview(_ change: ITIPChange) -> (outcome: WriteOutcome, stored: UpdateAssessment?)? {
        if let edit { return try? edit.preview(change) }
        guard case .vdir(let dir) = location, let path = try? VdirNaming.file(for: change.uid, marker: change.marker, in: dir) else {
            return nil
        }
        // No file holds the UID: a new event (a cancellation of nothing says so itself).
        guard FileStatus.of(path, followSymlinks: false) != nil else { return (change.cancel ? .absent : .added, nil) }
        guard let data = try? ICalReader.wholeFile(path), let calendar = try? ICalReader.read(data, file: path) else { return nil }
        let text = CalendarText(bytes: data)
        guard let outcome = try? change.splice(of: text, calendar: calendar, file: path).1 else { return nil }
        return (outcome, change.assessment(text.blocks(uid: change.uid), calendar: calendar))
    }

    /// Applies `change`: in memory for a file (written by `commit`), else written now.
    package func apply(_ change: CalendarChange) throws -> WriteOutcome {
        guard let edit else { return try writer.write(change: change, to: location, window: windows[0]) }
        let outcome = try edit.apply(change)
        applied.append(change)
        return outcome
    }

    /// Writes what the changes made of a file, once. When another program changed the
    /// file meanwhile it is read again and the same changes applied again; what each
    /// did is then reported as `apply` first said (a `-v` note says it was read again).
    /// Releases the lock.
    package func commit() throws {
        defer { lock?.unlock(); lock = nil }
        guard var edit else { return }
        for attempt in 0..<writer.attempts {
            if attempt > 0 {
                edit = try CalendarFileEdit(file: edit.file, windows: windows, diagnostics: writer.diagnostics,
                                            expecting: applied.map(\.identity))
                for change in applied { _ = try edit.apply(change) }
            }
            guard edit.hasChanges else { return }
            do {
                try edit.commit()
                writer.diagnostics?.note("\(edit.file): \(applied.count) change\(applied.count == 1 ? "" : "s"), written once (temp file, fsync, rename)")
                return
            } catch is AtomicFile.Changed {
                writer.diagnostics?.note("\(edit.file): changed by another program while being edited; reading it again")
            }
        }
        throw WriteError(kind: .busy, path: edit.file, message: "changed by another program while coolcal was writing it; nothing written, try again")
    }
}
