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

    /// `commit` of an edit of a streamed file, of which only the blocks it looked at are
    /// in memory (issue #48). Every range the edit keeps is copied from the file as
    /// opened for the scan, in the kernel; the read-back compares the temp file with those
    /// ranges, read again, and the edit's own bytes, and takes the file's checksum on the
    /// way (`SourceComparison`). The guarantee of a write of a file read whole is kept
    /// (SECURITY.md): the file's identity as read, then its bytes — the checksum equal to
    /// the scan's — then its identity again, right before the rename.
    func commitStreamed(_ edited: Splice, from backing: SparseFile) throws {
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
