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

    /// The line's content is `text`, ignoring ASCII case and trailing blanks.
    static func line(_ all: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, is text: StaticString) -> Bool {
        // Cheap refusal first: most lines are neither BEGIN nor END.
        guard r.count >= text.utf8CodeUnitCount, ContentLines.upper(all[r.lowerBound]) == text.utf8Start[0] else { return false }
        return ContentLines.line(UnsafeBufferPointer(rebasing: all[r]), is: text)
    }

    /// Each top-level `BEGIN:VEVENT` … `END:VEVENT`, line endings included.
    package func veventBlocks() -> [Range<Int>] {
        memo.structure?.events ?? topLevelBlocks(begin: "BEGIN:VEVENT", end: "END:VEVENT")
    }

    /// Each top-level VTIMEZONE block, line endings included.
    package func timezoneBlocks() -> [Range<Int>] {
        memo.structure?.zones ?? topLevelBlocks(begin: "BEGIN:VTIMEZONE", end: "END:VTIMEZONE")
    }

    func topLevelBlocks(begin: StaticString, end: StaticString) -> [Range<Int>] {
        var blocks: [Range<Int>] = []
        var walker = BlockWalker(begin: begin, end: end)
        memo.passes += 1
        forEachLine { all, content, full in
            if let block = walker.see(all, content, full) { blocks.append(block) }
        }
        return blocks
    }

    /// Follows top-level VEVENT blocks line by line.
    struct BlockWalker {
        var begin: StaticString = "BEGIN:VEVENT"
        var end: StaticString = "END:VEVENT"
        var open: Int?
        var depth = 0

        /// The block a line closes, if it closes one.
        mutating func see(_ all: UnsafeBufferPointer<UInt8>, _ content: Range<Int>, _ full: Range<Int>) -> Range<Int>? {
            if CalendarText.line(all, content, is: begin) {
                if open == nil { open = full.lowerBound; depth = 0 }
                depth += 1
            } else if open != nil && CalendarText.line(all, content, is: end) {
                depth -= 1
                if depth == 0, let start = open {
                    open = nil
                    return start..<full.upperBound
                }
            }
            return nil
        }
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
        let wanted = identities.map { Needles(uid: Array($0.uid.utf8), marker: $0.marker.map { Array($0.utf8) }) }
        var blocks = [[Range<Int>]](repeating: [], count: wanted.count)
        memo.passes += 1
        var walker = BlockWalker()
        var hits = Set<Int>()
        func see(_ line: UnsafeBufferPointer<UInt8>) {
            // The line's name once, then each identity's bytes (merge asks for ten at once).
            guard let name = Needles.name(line) else { return }
            for (n, needles) in wanted.enumerated() where needles.match(line, name) { hits.insert(n) }
        }
        // The logical line being gathered when it is a UID or marker line cut by folds.
        var pending: [UInt8]?
        forEachLine { all, content, full in
            if pending != nil, full.lowerBound > 0, !content.isEmpty, ContentLines.isFold(all[full.lowerBound]) {
                pending?.append(contentsOf: all[(content.lowerBound + 1)..<content.upperBound])
                return
            }
            if let line = pending {
                line.withUnsafeBufferPointer { see($0) }
                pending = nil
            }
            let wasOpen = walker.open != nil
            if let block = walker.see(all, content, full) {
                for n in hits { blocks[n].append(block) }
                hits.removeAll(keepingCapacity: true)
                return
            }
            if !wasOpen && walker.open != nil { hits.removeAll(keepingCapacity: true) }
            guard walker.open != nil, !content.isEmpty, case let first = ContentLines.upper(all[content.lowerBound]),
                  first == 0x55 || first == 0x58 else { return }
            // A line that the next one continues is gathered; one that stands alone is
            // looked at where it is.
            if full.upperBound < all.count && ContentLines.isFold(all[full.upperBound]) {
                pending = Array(all[content])
            } else {
                see(UnsafeBufferPointer(rebasing: all[content]))
            }
        }
        return blocks.map { $0.sorted { $0.lowerBound < $1.lowerBound } }
    }

    /// What `remember` took; shared by the copies of one text (its bytes never change).
    final class Memo {
        var candidates: [Identity: [Range<Int>]] = [:]
        /// Where the top-level VEVENT and VTIMEZONE blocks are (`carried(into:)`).
        var structure: Structure?
        /// Whole-text passes made looking for blocks.
        var passes = 0
    }

    /// What `candidateBlocks` looks for, by property.
    private struct Needles {
        let uid: [UInt8]
        let marker: [UInt8]?

        /// The content line, named `name`, is a UID line containing `uid` or a marker line
        /// containing `marker`.
        func match(_ line: UnsafeBufferPointer<UInt8>, _ name: Name) -> Bool {
            switch name {
            case .uid: return Self.contains(line, uid)
            case .marker: return marker.map { Self.contains(line, $0) } ?? false
            }
        }

        enum Name { case uid, marker }

        /// The line's property name when it is UID or X-COOLCAL-INVITE-ID: `UID:`/`UID;`
        /// told from the bytes in place (a UID line per event), anything else by
        /// `ContentLines.propertyName`.
        static func name(_ line: UnsafeBufferPointer<UInt8>) -> Name? {
            if line.count > 3, ContentLines.upper(line[0]) == 0x55, ContentLines.upper(line[1]) == 0x49,
               ContentLines.upper(line[2]) == 0x44, line[3] == 0x3A || line[3] == 0x3B {
                return .uid
            }
            guard line.count > 3, ContentLines.upper(line[0]) == 0x55 || ContentLines.upper(line[0]) == 0x58 else { return nil }
            let name = ContentLines.propertyName(line)
            if name.elementsEqual("UID".utf8) { return .uid }
            if name.elementsEqual("X-COOLCAL-INVITE-ID".utf8) { return .marker }
            return nil
        }

        /// Whether `needle` (not empty) occurs in `line`: `memchr` for its first byte, then `memcmp`.
        private static func contains(_ hay: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
            needle.withUnsafeBufferPointer { n in
                guard let h = hay.baseAddress, let nb = n.baseAddress, let first = n.first, n.count <= hay.count else { return false }
                var at = 0
                let last = hay.count - n.count
                while at <= last, let hit = memchr(h + at, Int32(first), last - at + 1) {
                    let i = h.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(h + i, nb, n.count) == 0 { return true }
                    at = i + 1
                }
                return false
            }
        }
    }

    /// Where a new VEVENT goes: the start of the last `END:VCALENDAR` line.
    package func insertionPoint() -> Int? {
        bytes.withUnsafeBytes { ContentLines.lastLine(in: $0.bindMemory(to: UInt8.self), is: "END:VCALENDAR") }
    }

    /// The block's text with folded lines joined, for cheap substring checks.
    package func unfolded(_ r: Range<Int>) -> String {
        String(decoding: ContentLines.unfolded(Array(bytes[r])), as: UTF8.self)
    }
}
