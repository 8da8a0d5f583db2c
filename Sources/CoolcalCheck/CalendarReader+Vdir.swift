import Dispatch
import Foundation
import Synchronization
import CoolcalICal
import CoolcalModel
import CoolcalSupport

/// A vdir's files read on every core, with the answer of a sequential read: each file
/// is read on its own (its own pre-filter, its own libical parse, its own notes), and
/// the outcomes are taken in file order — its notes, then its calendar or its error —
/// so the first error in file order wins and everything after it is ignored, exactly
/// as when the files are read one after another. Nothing global (steps, occurrences)
/// is counted here: the expansion runs afterwards, on the merged files, in order.
extension CalendarReader {
    /// What reading one file of a vdir came to.
    package enum FileOutcome {
        case skipped(note: String)
        case read(ICalCalendar, notes: [String])
        case failed(any Error, notes: [String])
    }

    /// The calendars of `paths`, in order; throws the first error in file order.
    package func readFiles(_ paths: [String], window: TimeWindow?) throws -> [ICalCalendar] {
        let outcomes = Self.outcomes(paths, window: window, verbose: diagnostics.verbose,
                                     workers: Self.workers(for: paths.count))
        var files: [ICalCalendar] = []
        files.reserveCapacity(paths.count)
        for outcome in outcomes {
            switch outcome {
            case .skipped(let note):
                diagnostics.note(note)
            case .read(let file, let notes):
                notes.forEach { diagnostics.note($0) }
                files.append(file)
            case .failed(let error, let notes):
                notes.forEach { diagnostics.note($0) }
                throw error
            }
        }
        return files
    }

    /// One worker per core, none for a handful of files.
    package static func workers(for files: Int) -> Int {
        files < 8 ? 1 : max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
    }

    /// Every file's outcome up to the first that fails (in file order; later ones may be
    /// missing). `workers` threads take the next file in turn.
    package static func outcomes(_ paths: [String], window: TimeWindow?, verbose: Bool, workers: Int) -> [FileOutcome] {
        let count = paths.count
        let slots = UnsafeMutableBufferPointer<FileOutcome?>.allocate(capacity: count)
        slots.initialize(repeating: nil)
        defer {
            slots.deinitialize()
            slots.deallocate()
        }
        // The next file to take, and the first file that failed.
        let state = Mutex<(next: Int, failed: Int)>((0, Int.max))
        let shells = ParseCache()
        nonisolated(unsafe) let shared = slots
        let work = { @Sendable in
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: ICalReader.readBufferSize, alignment: 16)
            defer { buffer.deallocate() }
            while true {
                let i = state.withLock { s -> Int? in
                    guard s.next < count, s.next < s.failed else { return nil }
                    s.next += 1
                    return s.next - 1
                }
                guard let i else { return }
                let outcome = Self.outcome(paths[i], window: window, verbose: verbose, buffer: buffer, shells: shells)
                shared[i] = outcome
                if case .failed = outcome { state.withLock { $0.failed = min($0.failed, i) } }
            }
        }
        if workers <= 1 {
            work()
        } else {
            DispatchQueue.concurrentPerform(iterations: workers) { _ in work() }
        }
        var result: [FileOutcome] = []
        result.reserveCapacity(count)
        for slot in slots {
            guard let outcome = slot else { break }
            result.append(outcome)
            if case .failed = outcome { break }
        }
        return result
    }

    /// Reads one file of a vdir: only regular files (or links to them); a subdirectory,
    /// FIFO or device is skipped with a note.
    package static func outcome(_ file: String, window: TimeWindow?, verbose: Bool,
                        buffer: UnsafeMutableRawBufferPointer, shells: ParseCache) -> FileOutcome {
        if let status = FileStatus.of(file), status.kind != .regular {
            return .skipped(note: "\(file): skipped: not a regular file (\(status.kind.described))")
        }
        var notes: [String] = []
        let diagnostics = Diagnostics()
        if verbose { diagnostics.onNote = { notes.append($0) } }
        do {
            let calendar: ICalCalendar
            if let window {
                calendar = try ICalReader.read(contentsOf: file, window: window, diagnostics: diagnostics, buffer: buffer, shells: shells)
            } else {
                calendar = try ICalReader.read(ICalReader.wholeFile(file), file: file)
            }
            return .read(calendar, notes: notes)
        } catch {
            return .failed(error, notes: notes)
        }
    }
}
