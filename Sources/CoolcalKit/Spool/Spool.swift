import Foundation

/// The directory where a push receiver drops invitations, with `done/` and
/// `failed/` beside the pending files. Moves are renames within one file system, so
/// an invitation is always in exactly one place.
public struct Spool {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    var done: String { directory + "/done" }
    var failed: String { directory + "/failed" }

    /// Pending invitation files, in byte order of their names. Hidden files, `*.tmp`
    /// (a receiver still writing) and anything but regular files (or links to them)
    /// are skipped; with `diagnostics`, a skipped FIFO, device or subdirectory (other
    /// than `done/` and `failed/`) is noted.
    public func pending(diagnostics: Diagnostics? = nil) throws -> [String] {
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

    /// Records `note` as `NAME.outcome` (or `.reason`) and then moves the invitation
    /// into `done/` or `failed/`; the note is written first, atomically, so a crash
    /// leaves the invitation pending (to be answered again, idempotently), never lost.
    public func finish(_ name: String, failed isFailure: Bool, note: String) throws {
        let target = isFailure ? failed : done
        do {
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        } catch {
            throw WriteError(kind: .cannotCreate, path: target, message: "cannot create the directory")
        }
        let final = freeName(name, in: target)
        let suffix = isFailure ? ".reason" : ".outcome"
        try AtomicFile.write(Data(note.utf8), to: target + "/" + final + suffix, keeping: nil)
        if rename(directory + "/" + name, target + "/" + final) != 0 {
            throw WriteError.errno(.current, path: directory + "/" + name, doing: "cannot move into \(target)")
        }
        AtomicFile.syncDirectory(target)
        AtomicFile.syncDirectory(directory)
    }

    /// `NAME`, or `NAME.2`… when an earlier invitation of that name is already there.
    private func freeName(_ name: String, in dir: String) -> String {
        var candidate = name
        var n = 1
        while FileManager.default.fileExists(atPath: dir + "/" + candidate) {
            n += 1
            candidate = "\(name).\(n)"
        }
        return candidate
    }
}
