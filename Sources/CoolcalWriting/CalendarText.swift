import Foundation
import CoolcalModel

/// The raw bytes of a calendar file, for minimal edits: where its top-level VEVENT
/// blocks and its last `END:VCALENDAR` line are, and which line ending it uses.
/// Only locates; libical decides what a block means. Each question is one pass over
/// the bytes with `memchr` (a calendar `accept` edits may hold a million events).
package struct CalendarText {
    /// Indexed from 0.
    package let bytes: Data
    let memo: Memo

    package init(bytes: Data) {
        self.init(bytes: bytes, memo: Memo())
    }

    /// `bytes` with what is already known of them (`carriedMemo(into:)`).
    init(bytes: Data, memo: Memo) {
        self.bytes = bytes.startIndex == 0 ? bytes : Data(bytes)
        self.memo = memo
    }

    package init(bytes: [UInt8]) {
        self.init(bytes: Data(bytes))
    }

    /// `\r\n` unless the file's first line ends in a bare `\n`.
    package var lineEnding: String {
        let firstLine = bytes.firstIndex(of: 0x0A).map { bytes[..<($0 + 1)] } ?? bytes[...]
        return String(decoding: ContentLines.lineEnding(of: Array(firstLine)), as: UTF8.self)
    }

    /// Calls `body` with each physical line (`ContentLines`' rules), by offsets into
    /// `all` (the bytes): its content without the line end, and its whole extent; in order.
    package func forEachLine(_ body: (_ all: UnsafeBufferPointer<UInt8>, _ content: Range<Int>, _ full: Range<Int>) -> Void) {
        whole()
        bytes.withUnsafeBytes { raw in
            let buffer = raw.bindMemory(to: UInt8.self)
            guard let base = buffer.baseAddress else { return }
            let n = buffer.count
            var start = 0
            while start < n {
                let end = memchr(base + start, 0x0A, n - start).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? n
                let next = end < n ? end + 1 : end
                let contentEnd = end > start && base[end - 1] == 0x0D ? end - 1 : end
                body(buffer, start..<contentEnd, start..<next)
                start = next
            }
        }
    }

    /// Each top-level `BEGIN:VEVENT` … `END:VEVENT`, line endings included.
    package func veventBlocks() -> [Range<Int>] {
        memo.structure?.events ?? topLevelBlocks(begin: "BEGIN:VEVENT", end: "END:VEVENT")
    }

    /// Each top-level VTIMEZONE block, line endings included.
    package func timezoneBlocks() -> [Range<Int>] {
        memo.structure?.zones ?? memo.zones ?? topLevelBlocks(begin: "BEGIN:VTIMEZONE", end: "END:VTIMEZONE")
    }

    /// All the bytes in memory before a question that reads them all, when only some
    /// were read (`SparseFile`: a large file's edit reads the blocks it needs).
    func whole() {
        memo.backing?.fillAll()
    }

    func topLevelBlocks(begin: StaticString, end: StaticString) -> [Range<Int>] {
        var blocks: [Range<Int>] = []
        var walker = BlockWalker(begin: begin, end: end)
        memo.passes += 1
        forEachLine { all, content, full in
            if let block = walker.see(UnsafeBufferPointer(rebasing: all[content]), full) { blocks.append(block) }
        }
        return blocks
    }

    /// An event's identity as `blocks(uid:marker:)` looks for it.
    package struct Identity: Hashable, Sendable {
        package var uid: String
        package var marker: String?

        package init(uid: String, marker: String?) {
            self.uid = uid
            self.marker = marker
        }
    }

    /// The top-level VEVENT blocks with a `UID` line that contains `uid`, or an
    /// `X-COOLCAL-INVITE-ID` line that contains `marker` (folds undone): the only blocks
    /// that can be the event of that UID or marker (libical then decides). Answered from
    /// what `remember` took when it was searched for beforehand, or from a pass made
    /// for it before (kept: the bytes never change).
    package func candidateBlocks(uid: String, marker: String?) -> [Range<Int>] {
        let key = Identity(uid: uid, marker: marker)
        if let known = memo.candidates[key] { return known }
        let found = candidateBlocks(for: [key])[0]
        memo.candidates[key] = found
        return found
    }

    /// The candidate blocks of many identities found in one pass (`merge` asks for every
    /// invitation of its spool), as a function of the bytes alone: run on another thread
    /// while the file is parsed (`CalendarFileEdit`), its answer handed to the text by
    /// `remember`, from which later `candidateBlocks` calls for them are answered.
    package static func candidateBlocks(in bytes: Data, for identities: [Identity]) -> [[Range<Int>]] {
        identities.isEmpty ? [] : CalendarText(bytes: bytes).candidateBlocks(for: identities)
    }

    /// What `remember` holds for `identity`.
    package func remembered(_ identity: Identity) -> [Range<Int>]? { memo.candidates[identity] }

    /// Takes what `candidateBlocks(in:for:)` found in these same bytes.
    package func remember(_ found: [[Range<Int>]], for identities: [Identity]) {
        for (key, blocks) in zip(identities, found) where memo.candidates[key] == nil { memo.candidates[key] = blocks }
    }

    func candidateBlocks(for identities: [Identity]) -> [[Range<Int>]] {
        var search = BlockSearch(identities)
        memo.passes += 1
        forEachLine { all, content, full in
            // A line whose next one is in the text is known to be folded or not.
            let next = full.upperBound < all.count ? ContentLines.isFold(all[full.upperBound]) : false
            search.see(UnsafeBufferPointer(rebasing: all[content]), full, nextIsFold: next)
        }
        return search.found()
    }

    /// What `remember` took; shared by the copies of one text (its bytes never change).
    final class Memo {
        var candidates: [Identity: [Range<Int>]] = [:]
        /// Where the top-level VEVENT and VTIMEZONE blocks are (`carried(into:)`).
        var structure: Structure?
        /// Whole-text passes made looking for blocks.
        var passes = 0
        /// Where the top-level VTIMEZONE blocks are, when found before (a streamed read).
        var zones: [Range<Int>]?
        /// Where the last `END:VCALENDAR` line starts, when found before (a streamed read).
        var insertion: Int?
        /// The file behind bytes only partly read (a streamed read): filled whole before
        /// any question that reads every byte.
        var backing: SparseFile?
    }

    /// Where a new VEVENT goes: the start of the last `END:VCALENDAR` line.
    package func insertionPoint() -> Int? {
        if let known = memo.insertion { return known }
        whole()
        return bytes.withUnsafeBytes { ContentLines.lastLine(in: $0.bindMemory(to: UInt8.self), is: "END:VCALENDAR") }
    }

    /// The block's text with folded lines joined, for cheap substring checks.
    package func unfolded(_ r: Range<Int>) -> String {
        String(decoding: ContentLines.unfolded(Array(bytes[r])), as: UTF8.self)
    }
}
