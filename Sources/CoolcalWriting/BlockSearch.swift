import Foundation
import CoolcalModel

/// The top-level VEVENT blocks that can be the event of some identities (a `UID` line
/// containing the UID, or an `X-COOLCAL-INVITE-ID` line containing the marker, folds
/// undone; libical then decides), and the top-level VTIMEZONE blocks, found line by line:
/// fed the lines of a text in memory (`CalendarText.candidateBlocks`) or of a file read in
/// pieces (`StreamedCalendarRead`), so both find the same blocks.
struct BlockSearch {
    private let wanted: [Needles]
    /// Each distinct UID (and marker) looked for, with the identities that look for it:
    /// `merge` asks for each event by its UID with and without its marker, and a line
    /// is compared with each needle once.
    private let uids: [(bytes: [UInt8], identities: [Int])]
    private let markers: [(bytes: [UInt8], identities: [Int])]
    private(set) var candidates: [[Range<Int>]]
    private(set) var zones: [Range<Int>] = []
    private let findsZones: Bool
    private var walker = BlockWalker()
    private var zoneWalker = BlockWalker(begin: "BEGIN:VTIMEZONE", end: "END:VTIMEZONE")
    private var hits = Set<Int>()
    /// The logical line being gathered when it is a UID or marker line cut by folds.
    private var pending: [UInt8] = []
    private var gathering = false

    init(_ identities: [CalendarText.Identity], zones: Bool = false) {
        wanted = identities.map { Needles(uid: Array($0.uid.utf8), marker: $0.marker.map { Array($0.utf8) }) }
        func grouped(_ keys: [[UInt8]?]) -> [(bytes: [UInt8], identities: [Int])] {
            var groups: [(bytes: [UInt8], identities: [Int])] = []
            var at: [[UInt8]: Int] = [:]
            for (n, key) in keys.enumerated() {
                guard let key else { continue }
                if let i = at[key] { groups[i].identities.append(n) } else { at[key] = groups.count; groups.append((key, [n])) }
            }
            return groups
        }
        uids = grouped(wanted.map(\.uid))
        markers = grouped(wanted.map(\.marker))
        candidates = [[Range<Int>]](repeating: [], count: identities.count)
        findsZones = zones
    }

    /// The next physical line: its content (no line end) and its whole extent in the
    /// text. `nextIsFold`: whether the line after it continues it, when that is known
    /// (a text in memory); nil: not known yet (a piece's last line), so a UID or marker
    /// line is gathered until the next line says.
    mutating func see(_ content: UnsafeBufferPointer<UInt8>, _ full: Range<Int>, nextIsFold: Bool?) {
        // Most lines matter to neither walker nor the identities: told by their first
        // byte (BEGIN, END, UID, X-…), unless a UID or marker line is being gathered.
        guard let head = content.first else {
            if gathering { flush() }
            return
        }
        let first = ContentLines.upper(head)
        guard gathering || first == 0x42 || first == 0x45 || first == 0x55 || first == 0x58 else { return }
        // The walkers change only at a BEGIN or END line.
        let marker = first == 0x42 || first == 0x45
        if findsZones, marker, let zone = zoneWalker.see(content, full) { zones.append(zone) }
        guard !wanted.isEmpty else { return }
        if gathering, full.lowerBound > 0, !content.isEmpty, ContentLines.isFold(content[0]) {
            pending.append(contentsOf: UnsafeBufferPointer(rebasing: content[1...]))
            return
        }
        if gathering { flush() }
        let wasOpen = walker.open != nil
        if marker, let block = walker.see(content, full) {
            guard !hits.isEmpty else { return }
            for n in hits { candidates[n].append(block) }
            hits.removeAll(keepingCapacity: true)
            return
        }
        if !wasOpen && walker.open != nil && !hits.isEmpty { hits.removeAll(keepingCapacity: true) }
        guard walker.open != nil, !content.isEmpty, case let first = ContentLines.upper(content[0]),
              first == 0x55 || first == 0x58 else { return }
        // A line that the next one continues is gathered; one that stands alone is
        // looked at where it is.
        if nextIsFold == false {
            match(content)
        } else {
            pending.removeAll(keepingCapacity: true)
            pending.append(contentsOf: content)
            gathering = true
        }
    }

    /// Lines were left out here (`ScanLineObserver`): none of them was a BEGIN, END, UID
    /// or X- line, nor continued one; a line being gathered ended before them.
    mutating func interrupt() {
        if gathering { flush() }
    }

    /// The blocks found for each identity, in order.
    func found() -> [[Range<Int>]] {
        candidates.map { $0.sorted { $0.lowerBound < $1.lowerBound } }
    }

    /// Looks at the gathered line: no more folds continue it.
    private mutating func flush() {
        gathering = false
        let line = pending
        line.withUnsafeBufferPointer { match($0) }
    }

    private mutating func match(_ line: UnsafeBufferPointer<UInt8>) {
        // The line's name once, then each identity's bytes (merge asks for ten at once).
        guard let name = Needles.name(line) else { return }
        for group in name == .uid ? uids : markers where Needles.contains(line, group.bytes) {
            for n in group.identities { hits.insert(n) }
        }
    }
}

/// Follows top-level blocks of one kind (VEVENT unless told) line by line.
struct BlockWalker {
    var begin: StaticString = "BEGIN:VEVENT"
    var end: StaticString = "END:VEVENT"
    var open: Int?
    var depth = 0

    /// The block a line (its content, its whole extent) closes, if it closes one.
    mutating func see(_ content: UnsafeBufferPointer<UInt8>, _ full: Range<Int>) -> Range<Int>? {
        if Self.line(content, is: begin) {
            if open == nil { open = full.lowerBound; depth = 0 }
            depth += 1
        } else if open != nil && Self.line(content, is: end) {
            depth -= 1
            if depth == 0, let start = open {
                open = nil
                return start..<full.upperBound
            }
        }
        return nil
    }

    /// The line's content is `text` (in capitals), ignoring ASCII case and trailing blanks.
    @inline(__always)
    static func line(_ content: UnsafeBufferPointer<UInt8>, is text: StaticString) -> Bool {
        // Cheap refusals first: most lines shown are of another name or length; a longer
        // one can be `text` only with trailing blanks (rare: `ContentLines.line` decides).
        let count = text.utf8CodeUnitCount, wanted = text.utf8Start
        guard count > 0, content.count >= count, ContentLines.upper(content[0]) == wanted[0] else { return false }
        if content.count > count {
            let last = content[content.count - 1]
            return (last == 0x20 || last == 0x09) && ContentLines.line(content, is: text)
        }
        // Files write these lines in capitals: one compare of the bytes, then case folded.
        guard let base = content.baseAddress else { return false }
        if memcmp(base, wanted, count) == 0 { return true }
        for i in 1..<count where ContentLines.upper(content[i]) != wanted[i] { return false }
        return true
    }
}

/// What a `BlockSearch` looks for, by property.
private struct Needles {
    let uid: [UInt8]
    let marker: [UInt8]?

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
    static func contains(_ hay: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
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
