import Foundation

/// What a text knows of itself carried into the text a splice of it makes (issue #48):
/// `merge` applies each change to the text the changes before it left, and without this
/// every change of a run looked for its event's blocks, and for the VTIMEZONEs, in a
/// fresh pass over the whole file. A splice whose cuts all sit between top-level blocks
/// (each bound at a line start outside every top-level VEVENT and VTIMEZONE block, or at
/// one's edge) and put in whole blocks only (no block left open) keeps every block it does
/// not remove where it was, shifted; what it puts in is looked at alone. Any other splice
/// (an edit inside a block) is read again, as before.
extension CalendarText {
    /// The top-level blocks of a text, sorted and disjoint.
    struct Structure {
        var events: [Range<Int>]
        var zones: [Range<Int>]
    }

    /// How many whole-text passes looked for blocks in this text (tests count them).
    package var passes: Int { memo.passes }

    /// The text `splice` (a splice of these bytes) makes; its blocks and the candidate
    /// blocks remembered here carried over when the splice is clean, else found anew.
    package func carried(into splice: Splice) -> CalendarText {
        CalendarText(bytes: splice.data, memo: carriedMemo(into: splice) ?? Memo())
    }

    /// What the text `splice` makes knows of itself from this one: nil when the splice
    /// is not clean (or not of these bytes).
    func carriedMemo(into splice: Splice) -> Memo? {
        let sameBytes = splice.base.withUnsafeBytes { theirs in bytes.withUnsafeBytes { $0.baseAddress == theirs.baseAddress } }
        guard sameBytes, splice.base.count == bytes.count, !splice.cuts.isEmpty else { return nil }
        let structure = memo.structure ?? Structure(events: topLevelBlocks(begin: "BEGIN:VEVENT", end: "END:VEVENT"),
                                                    zones: topLevelBlocks(begin: "BEGIN:VTIMEZONE", end: "END:VTIMEZONE"))
        memo.structure = structure
        guard splice.cuts.allSatisfy({ clean($0, structure) }) else { return nil }
        var moved = Structure(events: [], zones: [])
        var candidates: [Identity: [Range<Int>]] = memo.candidates.mapValues { _ in [] }
        let identities = Array(memo.candidates.keys)
        // Old ranges no cut's range reaches into, shifted by what the cuts before them changed.
        func keep(_ ranges: [Range<Int>]) -> [Range<Int>] {
            ranges.compactMap { r in
                var delta = 0
                for cut in splice.cuts {
                    if cut.range.lowerBound < r.upperBound && r.lowerBound < cut.range.upperBound { return nil }
                    if cut.range.upperBound <= r.lowerBound { delta += cut.bytes.count - cut.range.count }
                }
                return (r.lowerBound + delta)..<(r.upperBound + delta)
            }
        }
        moved.events = keep(structure.events)
        moved.zones = keep(structure.zones)
        for identity in identities { candidates[identity] = keep(memo.candidates[identity] ?? []) }
        // What the cuts put in, each looked at alone, at its place in the new bytes.
        var shift = 0
        for cut in splice.cuts {
            let at = cut.range.lowerBound + shift
            shift += cut.bytes.count - cut.range.count
            guard !cut.bytes.isEmpty else { continue }
            let piece = CalendarText(bytes: cut.bytes)
            let placed = { (r: Range<Int>) in (r.lowerBound + at)..<(r.upperBound + at) }
            moved.events += piece.topLevelBlocks(begin: "BEGIN:VEVENT", end: "END:VEVENT").map(placed)
            moved.zones += piece.topLevelBlocks(begin: "BEGIN:VTIMEZONE", end: "END:VTIMEZONE").map(placed)
            if !identities.isEmpty {
                for (identity, found) in zip(identities, piece.candidateBlocks(for: identities)) {
                    candidates[identity, default: []] += found.map(placed)
                }
            }
        }
        let sorted = { (ranges: [Range<Int>]) in ranges.sorted { $0.lowerBound < $1.lowerBound } }
        let next = Memo()
        next.structure = Structure(events: sorted(moved.events), zones: sorted(moved.zones))
        next.candidates = candidates.mapValues(sorted)
        return next
    }

    /// Whether `cut` sits between top-level blocks and puts in whole blocks only.
    private func clean(_ cut: (range: Range<Int>, bytes: [UInt8]), _ structure: Structure) -> Bool {
        guard cut.bytes.isEmpty || cut.bytes.last == 0x0A else { return false }
        for bound in [cut.range.lowerBound, cut.range.upperBound] {
            // (At the very end too: a last line without its LF would run into what is put after it.)
            guard bound == 0 || bytes[bound - 1] == 0x0A else { return false }
            if Self.inside(bound, structure.events) || Self.inside(bound, structure.zones) { return false }
        }
        guard !cut.bytes.isEmpty else { return true }
        // Nothing left open, nothing closed that it did not open, no line continuing the one before.
        guard cut.bytes.first != 0x20, cut.bytes.first != 0x09 else { return false }
        let piece = CalendarText(bytes: cut.bytes)
        return piece.balanced(begin: "BEGIN:VEVENT", end: "END:VEVENT") && piece.balanced(begin: "BEGIN:VTIMEZONE", end: "END:VTIMEZONE")
    }

    /// Whether `offset` lies strictly inside one of `blocks` (sorted, disjoint).
    private static func inside(_ offset: Int, _ blocks: [Range<Int>]) -> Bool {
        var low = 0
        var high = blocks.count
        while low < high {
            let mid = (low + high) / 2
            if blocks[mid].lowerBound < offset { low = mid + 1 } else { high = mid }
        }
        // blocks[low - 1] is the last block starting before offset.
        return low > 0 && offset < blocks[low - 1].upperBound
    }

    /// Whether every BEGIN line of the kind is closed by its END and no END comes unopened.
    private func balanced(begin: StaticString, end: StaticString) -> Bool {
        var depth = 0
        var ok = true
        forEachLine { all, content, _ in
            if BlockWalker.line(UnsafeBufferPointer(rebasing: all[content]), is: begin) {
                depth += 1
            } else if BlockWalker.line(UnsafeBufferPointer(rebasing: all[content]), is: end) {
                depth -= 1
                if depth < 0 { ok = false }
            }
        }
        return ok && depth == 0
    }
}
