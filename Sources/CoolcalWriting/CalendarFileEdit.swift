import Foundation
import CoolcalICal
import CoolcalModel
import CoolcalScan
import CoolcalSupport

/// One read-modify-write of a calendar file, under its lock: the file read once, its
/// structure checked by the pre-filter's scan (which refuses exactly what libical's
/// full parse refuses, and parses only what may reach the windows it is read for), any number of
/// changes applied to the text in memory in order, then the result written once (temp
/// file, fsync, rename), read back from the temp file and checked the same way, if
/// nobody changed the file meanwhile. The result is a splice of the text as read
/// (`Splice`): the file is in memory once, unless a second change must see the first.
/// What costs in proportion to the file is a few passes over its bytes, never a
/// whole-file libical parse — unless the scan cannot judge the file, and then `-v` says so.
package final class CalendarFileEdit {
    package let file: String
    /// What it is read for: the events that may reach one of these are parsed.
    package let windows: [TimeWindow]
    let status: FileStatus?
    let original: Data
    /// The file as read, open: a write copies the ranges an edit keeps from it.
    private let source: OpenInput?
    /// From this many bytes on, a range the edit keeps is copied from the file in the
    /// kernel (`AtomicFile.Output.copy`), not written from memory.
    package static let copiedFrom = 64 << 10
    /// The calendar as read: its zones, and the events that may reach `window`.
    package private(set) var calendar: ICalCalendar
    /// From this size on, the passes that need no scan run beside the read (`init`).
    package static let searchBeside = 1 << 20
    /// The text the last change left, when `edited` is not a splice of it yet.
    private var current: CalendarText
    var changedUIDs: [String] = []
    /// What the changes so far made of the file: a splice of `current`'s bytes.
    var edited: Splice? {
        didSet { pending = true }
    }
    /// Whether `edited` is a splice that `current` does not hold yet.
    private var pending = false
    /// An iTIP change may have added VTIMEZONEs that the next change must see.
    var zonesStale = false
    package let diagnostics: Diagnostics?
    /// The scan of the text as read, stopped at its last `END:VCALENDAR` line: the
    /// read-back of an edit that changed nothing before it scans from there.
    package let checkpoint: ScanCheckpoint?
    /// The file behind a streamed read (nil: the file was read whole).
    let sparse: SparseFile?
    /// From this size on, a file is streamed, not read whole.
    package static let streamFrom = TestHook.streamFrom ?? 8 << 20

    /// Reads `file` (resolved, locked by the caller) for editing. A bare CR is looked for
    /// as the file is read (`readAllNotingBareCR`), else, in a file of `searchBeside`
    /// bytes or more, beside libical's parse; there the stored copies of `expecting`
    /// (the events the changes to come are about) are looked for on another thread too,
    /// until the text is first asked for (`merge` expands its windows meanwhile). Both
    /// start when the scan is done: its two threads have both cores until then.
    /// A file of `streamFrom` bytes or more is streamed (`StreamedCalendarRead`): only the
    /// blocks the changes look at are held in memory.
    package init(file: String, windows: [TimeWindow], diagnostics: Diagnostics?, expecting: [CalendarText.Identity] = [],
                 streamFrom: Int = CalendarFileEdit.streamFrom) throws {
        self.file = file
        self.windows = windows
        self.diagnostics = diagnostics
        AtomicFile.removeStaleTemporaries(of: file)
        // What is read is what is compared before the rename: the descriptor's status.
        let input = try AtomicFile.replaceable(file).map { _ in try InputFile.open(file, accepting: .regularFiles) }
        status = input?.status
        source = input
        if let status { try AtomicFile.check(status, path: file) }
        if let input, input.status.size >= Int64(streamFrom),
           let streamed = try StreamedCalendarRead.read(input, file: file, windows: windows, expecting: expecting, diagnostics: diagnostics) {
            (original, calendar, checkpoint, current, sparse) = (streamed.text.bytes, streamed.calendar, streamed.checkpoint, streamed.text, streamed.backing)
            if streamed.bareCR { throw Self.bareCRError(file) }
            return
        }
        sparse = nil
        // No 64 MiB limit here: libical only ever sees what may reach the window.
        // A file read in halves has been looked at for a bare CR by the threads that read it.
        let (bytes, bareCRRead) = try input?.readAllNotingBareCR(limit: 1 << 40) ?? (Data(), nil)
        original = bytes
        var bareCR: BackgroundTask<Bool>?
        var search: BackgroundTask<[[Range<Int>]]>?
        var started = false
        let startBeside = {
            guard bytes.count >= Self.searchBeside, !started else { return }
            started = true
            if bareCRRead == nil { bareCR = BackgroundTask { Self.hasBareCR(bytes) } }
            if !expecting.isEmpty { search = BackgroundTask { CalendarText.candidateBlocks(in: bytes, for: expecting) } }
        }
        var checkpoint: ScanCheckpoint?
        calendar = try ICalReader.read(bytes, file: file, windows: windows, standalone: true, diagnostics: diagnostics,
                                       checkpoint: { checkpoint = $0; startBeside() })
        // (No checkpoint: no END:VCALENDAR line, or no window.)
        startBeside()
        self.checkpoint = checkpoint
        // CalendarText finds lines by LF; libical also ends a line at a bare CR (old Mac
        // files), which an edit would not see. (After the read: a binary or UTF-16 file
        // is refused as such first.)
        if bareCRRead ?? bareCR?.wait() ?? Self.hasBareCR(bytes) { throw Self.bareCRError(file) }
        current = CalendarText(bytes: bytes)
        self.search = search.map { ($0, expecting) }
    }

    /// The search for the stored copies of the events expected, until its answer is
    /// taken into the text as read (`takeSearch`).
    private var search: (task: BackgroundTask<[[Range<Int>]]>, identities: [CalendarText.Identity])?

    /// Waits for the search beside the read, if it ran, and hands its answer to the text.
    private func takeSearch() {
        guard let search else { return }
        self.search = nil
        if let found = search.task.wait() { current.remember(found, for: search.identities) }
    }

    /// What the search beside the read found for `identity` (nil: it did not run).
    package func foundBeside(_ identity: CalendarText.Identity) -> [Range<Int>]? {
        takeSearch()
        return current.remembered(identity)
    }

    /// The text as the changes so far left it: the splice put in one buffer when
    /// there is one (a second change to the same file sees the first).
    var text: CalendarText {
        takeSearch()
        if pending, var taken = edited {
            current.whole()
            // What the text knew of its blocks goes with it where the edit allows, and the
            // bytes are edited in place once nothing else holds them (issue #48).
            let memo = current.carriedMemo(into: taken) ?? CalendarText.Memo()
            earlierPasses += current.passes
            current = CalendarText(bytes: Data())
            self.edited = nil
            current = CalendarText(bytes: Splice.placed(&taken), memo: memo)
            self.edited = Splice(whole: current.bytes)
            pending = false
        }
        return current
    }

    /// The whole-text passes made looking for blocks in the texts before `current`.
    private var earlierPasses = 0
    /// The whole-text passes made looking for blocks, in every text of this edit (tests count them).
    package var passes: Int { earlierPasses + current.passes }

    /// New push-payload events not yet placed in `text`: they all go before the last
    /// `END:VCALENDAR`, in order, exactly as one insert after another would put them,
    /// so the file is copied once for all of them (`merge`).
    var deferred: [(uid: String, marker: String?, block: [UInt8])] = []
    var insertionPoint: Int??

    /// Organizer binding for `change` against the text as the changes so far left it,
    /// without applying it (`merge` asks before it declines or reports busy).
    package func held(_ change: ITIPChange) -> WriteOutcome? {
        try? settle(change)
        let current = text
        return change.binding(current.blocks(uid: change.uid), current)
    }

    /// What `change` would do to the text as the changes so far left it, and how it
    /// stands to the stored copy (nil: none stored), without applying it.
    package func preview(_ change: ITIPChange) throws -> (WriteOutcome, UpdateAssessment?) {
        let outcome = try self.outcome(of: change)
        return (outcome, change.assessment(text.blocks(uid: change.uid), calendar: calendar))
    }

    /// What `change` would do to the text as the changes so far left it, without applying it.
    package func outcome(of change: CalendarChange) throws -> WriteOutcome {
        try settle(change)
        if zonesStale { refreshZones() }
        return try change.splice(of: text, calendar: calendar, file: file).1
    }

    /// Whether the text holds an event with this UID.
    package func stores(uid: String) -> Bool {
        if isDeferred(uid: uid, marker: nil) { try? placeDeferred() }
        return !text.blocks(uid: uid).isEmpty
    }

    /// Forgets what the pre-filter kept of the events it dropped (their revisions,
    /// one per event of a large file): needed to decide, not to write.
    package func releaseRevisions() {
        calendar.skippedRevisions = []
    }

    /// Applies `change` to the text as it stands after the changes before it.
    package func apply(_ change: CalendarChange) throws -> WriteOutcome {
        if let event = change as? NewEvent, try postpone(event) { return .added }
        if let outcome = try postponeInsertion(change) { return outcome }
        try placeDeferred()
        if zonesStale { refreshZones() }
        let (splice, outcome) = try change.splice(of: text, calendar: calendar, file: file)
        guard let splice else {
            diagnostics?.note("\(file): nothing to write (\(outcome.describe(file)))")
            return outcome
        }
        edited = splice
        // A removed event (changing your mind) is the one UID the result must lack.
        if outcome != .removed { changedUIDs.append(change.uid) }
        if change is ITIPChange { zonesStale = true }
        return outcome
    }

    /// Keeps a new event for `placeDeferred` when it is new and the file has an
    /// `END:VCALENDAR` to insert before; false when it must be applied as usual.
    private func postpone(_ event: NewEvent) throws -> Bool {
        guard !isDeferred(uid: event.uid, marker: event.inviteID),
              text.blocks(uid: event.uid, marker: event.inviteID).isEmpty else { return false }
        if insertionPoint == nil { insertionPoint = .some(text.insertionPoint()) }
        guard case .some(.some) = insertionPoint else { return false }
        deferred.append((event.uid, event.inviteID, Array(ICalWriter.vevent(event, lineEnding: text.lineEnding).utf8)))
        changedUIDs.append(event.uid)
        return true
    }

    /// Puts the deferred events into the text, in one copy.
    func placeDeferred() throws {
        guard !deferred.isEmpty else { return }
        guard let splice = text.replacing([], withBytes: Array(deferred.map(\.block).joined())) else {
            throw ICalError(file: file, message: "has no END:VCALENDAR line to insert before; not modified")
        }
        deferred = []
        insertionPoint = nil
        edited = splice
    }

    /// A vdir's event file: when no VEVENT is left in it, it is removed, not kept empty.
    package var removeWhenEmpty = false
    /// The mode a new file is made with (a vdir's event file: its siblings'); nil: 0644.
    package var newFileMode: mode_t?

    /// What `commit` would write, as a splice of the text as read (the deferred new
    /// events placed): a test compares a streamed write with these bytes put together
    /// in memory (of a streamed file, read whole first: the splice's bytes are all there).
    package func placedEdit() throws -> Splice? {
        try placeDeferred()
        current.whole()
        return edited
    }

    /// Whether any change left something to write.
    package var hasChanges: Bool { edited != nil || !deferred.isEmpty }

    /// Checks the edited text and replaces the file with it; `AtomicFile.Changed` when
    /// another program changed the file since it was read (nothing is written then).
    package func commit() throws {
        try placeDeferred()
        guard let edited else { return }
        let empty = removeWhenEmpty && status != nil && text.veventBlocks().isEmpty
        // A question that read a streamed file whole (this one too) may have found it changed.
        if sparse?.changed == true { throw AtomicFile.Changed() }
        if empty {
            try AtomicFile.remove(file, unchanged: { self.unchanged() })
            diagnostics?.note("\(file): no event left in it; removed")
            return
        }
        if let sparse, !sparse.complete { return try commitStreamed(edited, from: sparse) }
        // The bytes as read are compared during the fsync, on another thread while the
        // temp file is read back; right before the rename, the file's status again (a
        // change meanwhile changes it).
        var bytesKept = false
        var replaced: OpenInput?
        defer {
            replaced?.closeBeside()
            source?.closeBeside()
        }
        // The ranges the edit keeps of the file as read are copied from it in the kernel;
        // the read-back compares every byte of the temp file with the edit in memory.
        let copyFrom = isSpliceOfRead(edited) ? source : nil
        try AtomicFile.write(to: file, keeping: status, newMode: newFileMode,
                             readBack: { [file, status, original] temp in
                                 let compared = BackgroundTask { Self.unchangedBytes(file: file, status: status, original: original) }
                                 do {
                                     try self.readBack(temp, of: edited)
                                 } catch where copyFrom != nil && compared.wait()?.same != true {
                                     // The ranges copied from the file are not what was read: another
                                     // program rewrote it in place meanwhile. Read it again.
                                     throw AtomicFile.Changed()
                                 }
                                 let kept = compared.wait()
                                 (bytesKept, replaced) = (kept?.same ?? false, kept?.input)
                             },
                             unchanged: { bytesKept && self.sameVersion() }, streaming: { [file] output in
                                 guard let copyFrom else { return try edited.forEachPiece { try output.write($0) } }
                                 try edited.base.withUnsafeBytes { all in
                                     try edited.forEachSegment(kept: { range in
                                         if range.count >= Self.copiedFrom {
                                             try output.copy(from: copyFrom.fileDescriptor, sourcePath: file,
                                                             at: Int64(range.lowerBound), count: range.count)
                                         } else {
                                             try output.write(UnsafeRawBufferPointer(rebasing: all[range]))
                                         }
                                     }, put: { try output.write($0) })
                                 }
                             })
    }

    /// Whether `edited` is a splice of the bytes as read (the same buffer: no second
    /// change has seen a first, no new file was made), of a file large enough to copy from.
    private func isSpliceOfRead(_ edited: Splice) -> Bool {
        guard let source, edited.base.count >= Self.copiedFrom, source.status.size == Int64(edited.base.count),
              original.count == edited.base.count else { return false }
        let theirs = edited.base.withUnsafeBytes { $0.baseAddress }
        return original.withUnsafeBytes { $0.baseAddress } == theirs
    }

    /// The file written reads (the scanner's structure check, the kept events parsed
    /// by libical in the file's context), is byte for byte the edit, and holds every
    /// changed UID.
    func readBack(_ temp: String, of edited: Splice, comparison: SourceComparison? = nil) throws {
        let parsed = try WrittenFile.read(temp, as: edited, for: self, comparison: comparison)
        let present = Set(parsed.events.compactMap(\.uid))
        for uid in changedUIDs where !present.contains(uid) {
            // Outside the window (a cancelled series, a moved event): its own block, read
            // alone, among the bytes the edit put in (else anywhere in the edited text).
            guard edited.cuts.contains(where: { !CalendarText(bytes: $0.bytes).blocks(uid: uid).isEmpty })
                    || !text.blocks(uid: uid).isEmpty else {
                throw WriteError(kind: .io, path: file, message: "the edited calendar lacks the new event; not modified")
            }
        }
    }

    /// The zones of the edited text: its top-level VTIMEZONEs read by libical.
    private func refreshZones() {
        zonesStale = false
        var wrapped = Array("BEGIN:VCALENDAR\r\n".utf8)
        for block in text.timezoneBlocks() { wrapped += text.bytes[block] }
        wrapped += Array("END:VCALENDAR\r\n".utf8)
        guard let zones = try? ICalReader.read(Data(wrapped), file: file).zones else { return }
        let floating = calendar.zones.floatingZoneID
        calendar.zones = zones
        calendar.zones.floatingZoneID = floating
    }

    /// Whether `file` is still what was read: the same inode, device, size and mtime
    /// (in ns) and the same bytes; checked last before the removal, so an editor's save
    /// (its own rename) in the meantime is not lost.
    private func unchanged() -> Bool {
        Self.unchangedBytes(file: file, status: status, original: original).same && sameVersion()
    }

    /// Whether `file` has the same inode, device, size and mtime (in ns) as when it
    /// was read (or still does not exist): asked right before the rename.
    func sameVersion() -> Bool {
        Self.sameVersion(file: file, status: status)
    }

    private static func sameVersion(file: String, status: FileStatus?) -> Bool {
        guard let status else { return FileStatus.of(file, followSymlinks: false) == nil }
        return FileStatus.of(file, followSymlinks: false)?.sameVersion(as: status) == true
    }

    /// What `unchangedBytes` found: whether the bytes are the ones read, and the file,
    /// open. Handed from the thread that compared them once it is done (`BackgroundTask`
    /// orders the writes before the wait returns); only the waiter uses the file then.
    private struct Compared: @unchecked Sendable {
        let same: Bool
        let input: OpenInput?
    }

    /// Whether `file` still has the bytes read (`original`, compared a piece at a time)
    /// with the `status` read, and the file open to compare them: held past the rename
    /// and closed beside the work after it, since its last close frees the replaced
    /// file's pages (tens of ms at 64 MB).
    private static func unchangedBytes(file: String, status: FileStatus?, original: Data) -> Compared {
        guard let status else { return Compared(same: FileStatus.of(file, followSymlinks: false) == nil, input: nil) }
        guard sameVersion(file: file, status: status), let input = try? InputFile.open(file, accepting: .regularFiles),
              input.status.sameVersion(as: status) else { return Compared(same: false, input: nil) }
        let size = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var at = 0
        let same: Bool = original.withUnsafeBytes { want in
            while true {
                guard let n = try? input.read(into: buffer) else { return false }
                if n == 0 { return at == want.count }
                guard at + n <= want.count, let mine = want.baseAddress, let got = buffer.baseAddress,
                      memcmp(mine + at, got, n) == 0 else { return false }
                at += n
            }
        }
        // The bytes took a moment to read: the name must still be that file.
        return Compared(same: same && sameVersion(file: file, status: status), input: input)
    }

    /// The refusal of a file with a CR that no LF follows.
    private static func bareCRError(_ file: String) -> ICalError {
        ICalError(file: file, message: "uses CR-only line endings; coolcal edits CRLF or LF files only; not modified")
    }

    /// Whether `bytes` have a CR that no LF follows (`BareCR`).
    private static func hasBareCR(_ bytes: Data) -> Bool {
        bytes.withUnsafeBytes { BareCR.present(in: $0) }
    }
}
