import Foundation

/// The revisions of the events the pre-filter dropped (`ICalCalendar.skippedRevisions`),
/// kept compactly: in a large file nearly every event is dropped, and only the few UIDs
/// that a parsed event has are ever asked for (`Revisions.current`). The UIDs' bytes are
/// appended to one byte arena; each revision is an offset and a length into it, a hash of
/// the bytes (`ScanLine.nameHash`) and its SEQUENCE, DTSTAMP and LAST-MODIFIED as
/// integers. An `ICalRevision` (with its `String`) is built only for a UID asked for.
///
/// UIDs are matched as Swift matches `String`s (canonical equivalence), exactly as a set
/// of `ICalRevision`s would be: the hash only finds candidates, which are then compared
/// as strings; a UID with a byte ≥ 0x80 is kept aside and compared as a string always.
public struct ICalSkippedRevisions: Sendable, ExpressibleByArrayLiteral {
    /// The parts joined by `append(contentsOf:)`, in order; the pre-filter stages and
    /// commits into `current`. A split scan's two parts are joined without copying
    /// (each part was indexed on its own thread: `index()`).
    private var earlier: [Part] = []
    private var current = Part()

    /// No revisions.
    public init() {}

    /// These revisions, in order.
    public init(arrayLiteral elements: ICalRevision...) {
        for r in elements { append(r) }
    }

    /// Whether no revision is held.
    public var isEmpty: Bool { current.isEmpty && earlier.allSatisfy(\.isEmpty) }
    /// How many revisions are held.
    public var count: Int { earlier.reduce(current.count) { $0 + $1.count } }

    /// The bytes its storage takes (capacities): what the scan holds for the revisions.
    package var memoryFootprint: Int { earlier.reduce(current.memoryFootprint) { $0 + $1.memoryFootprint } }

    /// Every revision, in the order added (each one built: for tests and small files).
    public var all: [ICalRevision] { (earlier + [current]).flatMap(\.all) }

    /// Adds one revision (indexed at once: for tests and small files).
    public mutating func append(_ r: ICalRevision) {
        current.append(r)
    }

    /// Appends `other`'s revisions: its parts are taken as they are (no byte is copied).
    public mutating func append(contentsOf other: ICalSkippedRevisions) {
        guard !other.isEmpty else { return }
        current.unstage()
        if !current.isEmpty { earlier.append(current) }
        earlier += other.earlier.filter { !$0.isEmpty }
        current = other.current
        current.unstage()
    }

    /// `append(contentsOf:)`.
    public static func += (lhs: inout ICalSkippedRevisions, rhs: ICalSkippedRevisions) {
        lhs.append(contentsOf: rhs)
    }

    /// Both, `lhs`'s revisions first.
    public static func + (lhs: ICalSkippedRevisions, rhs: ICalSkippedRevisions) -> ICalSkippedRevisions {
        var joined = lhs
        joined.append(contentsOf: rhs)
        return joined
    }

    /// The revisions whose UID is one of `uids`. Costs in proportion to the smaller of
    /// `uids` and each part (plus the UIDs with non-ASCII bytes), not to all of `self`.
    public func revisions(of uids: UIDs) -> [ICalRevision] {
        earlier.flatMap { $0.revisions(of: uids) } + current.revisions(of: uids)
    }

    /// UIDs to look up: the strings, and the hashes of the ASCII forms they equal.
    public struct UIDs: Sendable {
        var strings: Set<String>
        var hashes: Set<UInt64> = []

        /// The UIDs to look up.
        public init(_ uids: Set<String>) {
            strings = uids
            for uid in uids {
                // A non-ASCII string may equal an ASCII one (U+212A KELVIN SIGN is K): look
                // for its composed form too.
                let ascii = uid.utf8.allSatisfy { $0 < 0x80 } ? uid : uid.precomposedStringWithCanonicalMapping
                guard ascii.utf8.allSatisfy({ $0 < 0x80 }) else { continue }
                var u = ascii
                hashes.insert(u.withUTF8 { ICalSkippedRevisions.hash($0) })
            }
        }
    }

    // MARK: For the pre-filter: the UID of the event being read is staged, then committed
    // when the event is dropped (else the next event's UID replaces it).

    /// Drops any staged bytes.
    package mutating func unstage() { current.unstage() }

    package mutating func stage(_ p: UnsafePointer<UInt8>?, _ n: Int) { current.stage(p, n) }

    /// Copies the staged UID's bytes if they were staged where they are: the text they are
    /// in is about to go (the pre-filter calls it at the end of each piece).
    package mutating func keepStaged() { current.keepStaged() }

    /// The staged UID as libical reads it, when that is plain: no backslash (an escape
    /// libical would undo), no control bytes, no white space at its end, valid UTF-8.
    package func stagedIsPlain() -> Bool { current.stagedIsPlain() }

    /// The staged UID as a string (when `stagedIsPlain`).
    package func stagedText() -> String { current.stagedText() }

    /// Whether the staged UID's bytes are all ASCII.
    package func stagedIsASCII() -> Bool { current.stagedIsASCII() }

    /// `ScanLine.nameHash` of the staged UID (unmarked).
    package func stagedHash() -> UInt64 { current.stagedHash() }

    /// Keeps the staged UID with its revision; `hash`, when known, is `hash` of the bytes.
    package mutating func commitStaged(hash known: UInt64?, sequence: Int, stamp: Int64?, lastModified: Int64?) {
        current.commitStaged(hash: known, sequence: sequence, stamp: stamp, lastModified: lastModified)
    }

    /// Makes every revision findable by its hash: the pre-filter calls it once at the end
    /// of a scan (or of each part of a split scan, on its thread).
    package mutating func index() {
        for i in earlier.indices { earlier[i].index() }
        current.index()
    }

    /// `ScanLine.nameHash`, with its lowest bit marking an ASCII UID.
    package static func hash(_ b: UnsafeBufferPointer<UInt8>) -> UInt64 {
        ScanLine.nameHash(b).asASCIIMark
    }
}

/// One part of `ICalSkippedRevisions`: a byte arena of UIDs and the entries into it.
private struct Part: Sendable {
    private struct Entry {
        var start: Int
        var length: Int32
        /// Index into `recurrenceIDs`, or -1: none.
        var recurrenceID: Int32
        var hash: UInt64
        var sequence: Int
        var stamp: Int64?
        var lastModified: Int64?
        /// The next entry (+1) in the same bucket; 0: none.
        var next: Int32
    }

    /// Every UID, one after the other; past `committed`, the bytes of a UID being read.
    private var arena: [UInt8] = []
    private var committed = 0
    /// The staged UID's bytes where they are in the text being scanned (its first line, in
    /// the piece the pre-filter reads), when nothing else is staged: copied into `arena`
    /// only when more is staged, it is committed, or the piece ends (`keepStaged`). Most
    /// dropped events' UIDs are never copied.
    private var outside: (address: UInt, count: Int)?
    /// `UIDBytes.survey` of the bytes staged `outside` (asked twice of each dropped event).
    private var outsideSurvey = (special: false, high: false)
    private var entries: [Entry] = []
    /// For an ASCII UID: its bucket (`hash >> 1`, masked: the lowest bit is the mark), the
    /// first entry (+1).
    /// Covers the first `indexed` entries (`index()`); the lookups walk all without it.
    private var buckets: [Int32] = []
    private var indexed = 0
    /// The entries whose UID has a byte ≥ 0x80: compared as strings.
    private var nonASCII: [Int32] = []
    /// RECURRENCE-IDs (of dropped overrides: few).
    private var recurrenceIDs: [ICalTime] = []

    init() {}

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    var all: [ICalRevision] { entries.indices.map { revision(at: $0) } }

    var memoryFootprint: Int {
        arena.capacity + entries.capacity * MemoryLayout<Entry>.stride + (buckets.capacity + nonASCII.capacity) * 4
            + recurrenceIDs.capacity * MemoryLayout<ICalTime>.stride
    }

    mutating func append(_ r: ICalRevision) {
        unstage()
        var uid = r.uid
        uid.withUTF8 {
            stage($0.baseAddress, $0.count)
            keepStaged()
        }
        var rid: Int32 = -1
        if let t = r.recurrenceID {
            rid = Int32(truncatingIfNeeded: recurrenceIDs.count)
            recurrenceIDs.append(t)
        }
        commitStaged(hash: nil, recurrenceID: rid, sequence: r.sequence, stamp: r.stamp, lastModified: r.lastModified)
        index()
    }

    /// `uids` and `self` (plus the UIDs with non-ASCII bytes), not to all of `self`.
    func revisions(of uids: ICalSkippedRevisions.UIDs) -> [ICalRevision] {
        var found: [ICalRevision] = []
        func consider(_ i: Int) {
            if uids.strings.contains(text(at: i)) { found.append(revision(at: i)) }
        }
        if entries.count <= uids.strings.count || indexed < entries.count {
            for i in entries.indices where entries[i].hash.isASCIIMark && uids.hashes.contains(entries[i].hash) { consider(i) }
        } else if !buckets.isEmpty {
            for hash in uids.hashes {
                var e = buckets[Int(truncatingIfNeeded: hash >> 1) & (buckets.count - 1)]
                while e != 0 {
                    let i = Int(e) - 1
                    if entries[i].hash == hash { consider(i) }
                    e = entries[i].next
                }
            }
        }
        for i in nonASCII { consider(Int(i)) }
        return found
    }

    // MARK: For the pre-filter: the UID of the event being read is staged, then committed

    mutating func unstage() {
        outside = nil
        // Only when something is staged: the call alone would copy an arena shared with
        // the part it was taken from (a split scan's join).
        if arena.count > committed { arena.removeSubrange(committed...) }
    }

    /// `n` bytes at `p`, valid until the piece being scanned ends (`keepStaged`).
    mutating func stage(_ p: UnsafePointer<UInt8>?, _ n: Int) {
        guard let p, n > 0 else { return }
        if outside == nil && arena.count == committed {
            outside = (UInt(bitPattern: p), n)
            outsideSurvey = UIDBytes.survey(UnsafeBufferPointer(start: p, count: n))
            return
        }
        keepStaged()
        arena.append(contentsOf: UnsafeBufferPointer(start: p, count: n))
    }

    mutating func keepStaged() {
        guard let staged = outside else { return }
        outside = nil
        guard let p = UnsafePointer<UInt8>(bitPattern: staged.address) else { return }
        arena.append(contentsOf: UnsafeBufferPointer(start: p, count: staged.count))
    }

    /// The staged bytes, where they are.
    private func withStaged<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        if let staged = outside, let p = UnsafePointer<UInt8>(bitPattern: staged.address) {
            return body(UnsafeBufferPointer(start: p, count: staged.count))
        }
        return arena[committed...].withUnsafeBufferPointer(body)
    }

    /// `UIDBytes.survey` of the staged bytes.
    private func stagedSurvey(_ b: UnsafeBufferPointer<UInt8>) -> (special: Bool, high: Bool) {
        outside != nil ? outsideSurvey : UIDBytes.survey(b)
    }

    func stagedIsPlain() -> Bool {
        withStaged { b in
            guard b.count > 0, b.count <= Int(Int32.max), b[b.count - 1] != 0x20 else { return false }
            let found = stagedSurvey(b)
            return !found.special && (!found.high || String(validating: b, as: UTF8.self) != nil)
        }
    }

    func stagedIsASCII() -> Bool {
        withStaged { !stagedSurvey($0).high }
    }

    func stagedHash() -> UInt64 {
        withStaged { ScanLine.nameHash($0) }
    }

    func stagedText() -> String {
        withStaged { String(decoding: $0, as: UTF8.self) }
    }

    mutating func commitStaged(hash known: UInt64?, recurrenceID: Int32 = -1, sequence: Int, stamp: Int64?,
                               lastModified: Int64?) {
        keepStaged()
        let start = committed, length = arena.count - committed
        var ascii = true
        var hash = known ?? 0
        arena[start...].withUnsafeBufferPointer { b in
            if known == nil { hash = ICalSkippedRevisions.hash(b) }
            ascii = !b.contains { $0 >= 0x80 }
        }
        let at = Int32(truncatingIfNeeded: entries.count)
        entries.append(Entry(start: start, length: Int32(truncatingIfNeeded: length), recurrenceID: recurrenceID,
                             hash: ascii ? hash.asASCIIMark : hash.asNonASCIIMark, sequence: sequence, stamp: stamp,
                             lastModified: lastModified, next: 0))
        committed = arena.count
        if !ascii { nonASCII.append(at) }
    }

    /// Makes every revision findable by its hash: the pre-filter's `finish` calls it once
    /// (in one pass, sized for all, after the scan), the appends above after each.
    mutating func index() {
        guard indexed < entries.count else { return }
        if entries.count > buckets.count / 2 {
            var size = 16
            while size < entries.count * 2 { size <<= 1 }
            buckets = [Int32](repeating: 0, count: size)
            indexed = 0
        }
        for i in indexed..<entries.count where entries[i].hash.isASCIIMark { link(i) }
        indexed = entries.count
    }

    private mutating func link(_ i: Int) {
        let b = Int(truncatingIfNeeded: entries[i].hash >> 1) & (buckets.count - 1)
        entries[i].next = buckets[b]
        buckets[b] = Int32(truncatingIfNeeded: i + 1)
    }

    private func text(at i: Int) -> String {
        let e = entries[i]
        return arena[e.start..<(e.start + Int(e.length))].withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }

    private func revision(at i: Int) -> ICalRevision {
        let e = entries[i]
        return ICalRevision(uid: text(at: i), recurrenceID: e.recurrenceID < 0 ? nil : recurrenceIDs[Int(e.recurrenceID)],
                            sequence: e.sequence, stamp: e.stamp, lastModified: e.lastModified)
    }
}

private extension UInt64 {
    /// A hash's lowest bit: set for an ASCII UID (hashed into buckets), clear for another.
    var asASCIIMark: UInt64 { self | 1 }
    var asNonASCIIMark: UInt64 { self & ~1 }
    var isASCIIMark: Bool { self & 1 == 1 }
}
