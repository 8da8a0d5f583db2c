import Foundation
import CoolcalSupport

extension CalendarFileEdit {
    /// How many bytes of the file this edit holds in memory: all of them when it was read
    /// whole, only the blocks it looked at when streamed (tests bound it).
    package var heldBytes: Int {
        guard let sparse else { return original.count }
        return sparse.complete ? sparse.count : sparse.loaded
    }

    /// Whether the file was streamed (`StreamedCalendarRead`), not read whole.
    package var streamed: Bool { sparse != nil }

    /// Whether a new event with this UID (or marker) waits in `deferred`.
    func isDeferred(uid: String, marker: String?) -> Bool {
        deferred.contains { $0.uid == uid || (marker != nil && $0.marker == marker) }
    }

    /// Puts the deferred events in place before a question about one of them.
    func settle(_ change: CalendarChange) throws {
        if isDeferred(uid: change.uid, marker: change.marker) { try placeDeferred() }
    }

    /// In a streamed edit, a change that only puts an event in before the last
    /// `END:VCALENDAR` (a new invitation by mail: no stored copy, no VTIMEZONE with it)
    /// waits with the new events (`deferred`), in order, as `merge`'s push payloads do:
    /// the next change then needs no text with it in place, which would read the file
    /// whole. Its outcome; nil when it must be applied as usual.
    func postponeInsertion(_ change: CalendarChange) throws -> WriteOutcome? {
        guard let sparse, !sparse.complete, edited == nil, !zonesStale, !isDeferred(uid: change.uid, marker: change.marker) else { return nil }
        let current = text
        let (splice, outcome) = try change.splice(of: current, calendar: calendar, file: file)
        guard let splice else {
            diagnostics?.note("\(file): nothing to write (\(outcome.describe(file)))")
            return outcome
        }
        if insertionPoint == nil { insertionPoint = .some(current.insertionPoint()) }
        guard case .some(.some(let at)) = insertionPoint, splice.cuts.count == 1, let cut = splice.cuts.first,
              cut.range == at..<at,
              CalendarText(bytes: cut.bytes).timezoneBlocks().isEmpty else { return nil }
        deferred.append((change.uid, change.marker, cut.bytes))
        changedUIDs.append(change.uid)
        return outcome
    }

    /// `commit` of an edit of a streamed file, of which only the blocks it looked at are
    /// in memory (issue #48). Every range the edit keeps is copied from the file as
    /// opened for the scan, in the kernel; the read-back compares the temp file with those
    /// ranges, read again, and the edit's own bytes, and takes the file's checksum on the
    /// way (`SourceComparison`). The guarantee of a write of a file read whole is kept
    /// (SECURITY.md): the file's identity as read, then its bytes — the checksum equal to
    /// the scan's — then its identity again, right before the rename.
    func commitStreamed(_ edited: Splice, from backing: SparseFile) throws {
        // The replaced file is closed beside the work after the rename, as a file read whole
        // is: the last close frees its pages (647 MB of them at 1M events).
        defer { backing.input.closeBeside() }
        var bytesKept = false
        try AtomicFile.write(to: file, keeping: status, newMode: newFileMode,
                             readBack: { temp in
                                 let comparison = try SourceComparison(edited, source: backing.input, size: backing.count)
                                 do {
                                     try self.readBack(temp, of: edited, comparison: comparison)
                                 } catch where comparison.finish() != backing.scanned {
                                     // The ranges copied were not the bytes scanned: another program
                                     // rewrote the file in place meanwhile. Read it again.
                                     throw AtomicFile.Changed()
                                 }
                                 bytesKept = comparison.finish() == backing.scanned
                             },
                             unchanged: { bytesKept && self.sameVersion() },
                             streaming: { [file] output in
                                 try edited.forEachSegment(kept: { range in
                                     try output.copy(from: backing.input.fileDescriptor, sourcePath: file,
                                                     at: Int64(range.lowerBound), count: range.count)
                                 }, put: { try output.write($0) })
                             })
    }
}
