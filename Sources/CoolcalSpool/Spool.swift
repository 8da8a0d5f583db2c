import Foundation
import CoolcalModel
import CoolcalSupport

/// The directory where a push receiver drops invitations, with `done/` and
/// `failed/` beside the pending files. Moves are renames within one file system, so
/// an invitation is always in exactly one place.
package struct Spool {
    package let directory: String

    package init(directory: String) {
        self.directory = directory
    }

    package var done: String { directory + "/done" }
    package var failed: String { directory + "/failed" }

    /// Pending invitation files, in byte order of their names. Hidden files, `*.tmp`
    /// (a receiver still writing) and anything but regular files (or links to them)
    /// are skipped; with `diagnostics`, a skipped FIFO, device or subdirectory (other
    /// than `done/` and `failed/`) is noted.
    package func pending(diagnostics: Diagnostics? = nil) throws -> [String] {
        guard FileStatus.of(directory)?.kind == .directory else {
            throw InputFileError(kind: .missing, path: directory, reason: "no such spool directory")
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            throw InputFileError(kind: .unreadable, path: directory, reason: "cannot list the spool directory")
        }
        return names.filter { name in
            guard !name.hasPrefix("."), !name.hasSuffix(".tmp"), let status = FileStatus.of(directory + "/" + name) else { return false }
            if status.kind != .regular && !(status.kind == .directory && (name == "done" || name == "failed")) {
                diagnostics?.note("\(directory)/\(name): skipped: not a regular file (\(status.kind.described))")
            }
            return status.kind == .regular
        }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// Records each invitation's `note` as `NAME.outcome` (or `.reason`) and then moves it
    /// into `done/` or `failed/`: every note written (each fsynced, atomically) and its
    /// directory synced once, then every invitation moved and the directories synced
    /// once. A crash before the moves leaves them all pending (to be answered again,
    /// idempotently), never lost; one during them, some (the note of a pending one is
    /// written again).
    package func finish(_ items: [(name: String, failed: Bool, note: String)]) throws {
        var targets: [String] = []
        // The names taken in done/ or failed/ by this batch, which are not there yet.
        var taken: [String: Set<String>] = [:]
        var moves: [(from: String, to: String, target: String)] = []
        for item in items {
            let target = item.failed ? failed : done
            if !targets.contains(target) {
                do {
                    try SystemCalls.makeDirectories(target, 0o777)
                } catch {
                    throw WriteError(kind: .cannotCreate, path: target, message: "cannot create the directory")
                }
                targets.append(target)
            }
            let final = freeName(item.name, in: target, taken: taken[target] ?? [])
            let suffix = item.failed ? ".reason" : ".outcome"
            taken[target, default: []].formUnion([final, final + suffix])
            try AtomicFile.write(Data(item.note.utf8), to: target + "/" + final + suffix, keeping: nil, syncingDirectory: false)
            moves.append((directory + "/" + item.name, target + "/" + final, target))
        }
        for target in targets { try AtomicFile.syncDirectory(target) }
        for move in moves {
            do throws(SystemCallError) { try SystemCalls.rename(move.from, move.to) } catch {
                throw WriteError.errno(error, path: move.from, doing: "cannot move into \(move.target)")
            }
        }
        for target in targets { try AtomicFile.syncDirectory(target) }
        if !moves.isEmpty { try AtomicFile.syncDirectory(directory) }
    }

    /// `NAME`, or `NAME.2`… when an earlier invitation of that name is already there, or
    /// this batch has taken it.
    private func freeName(_ name: String, in dir: String, taken: Set<String>) -> String {
        var candidate = name
        var n = 1
        while taken.contains(candidate) || taken.contains(candidate + ".outcome") || taken.contains(candidate + ".reason")
                || FileManager.default.fileExists(atPath: dir + "/" + candidate) {
            n += 1
            candidate = "\(name).\(n)"
        }
        return candidate
    }
}
