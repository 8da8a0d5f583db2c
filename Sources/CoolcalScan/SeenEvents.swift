import Foundation

/// What a scan keeps of the top-level VEVENTs it has seen, a few bytes each however large
/// the file (issue #48): for a master, the hash of its UID and the longest its first
/// instance can be (`HeldOverrides` judges the overrides it holds with them at the end);
/// for a dropped event, where it starts in the text and the hash of its UID, so that its
/// revision can be read there again for the few UIDs that are asked for
/// (`RevisionsByPlace`). A dropped master is one record with both.
///
/// The records are a byte stream: a flags byte, the hash (8 bytes), then as LEB128
/// varints the start's distance from the previous dropped event's start and the length
/// (in quarter hours, else zigzag seconds), about 13 bytes an event. The stream is kept in chunks of `chunkSize` bytes,
/// so that it never grows by copying all of it, and a split scan's parts are joined by
/// taking the second part's chunks as they are (`append(_:shift:)`).
package struct SeenEvents: Sendable {
    /// One event's record.
    package struct Record: Equatable {
        /// The hash of the UID (`ScanBlock.uid`; for a folded UID, that of its joined bytes;
        /// after `keepOnlyDropped`, its low 32 bits).
        package var hash: UInt64
        /// Whether it is a master (no RECURRENCE-ID, one unfolded UID line): `length` is
        /// the longest its first instance can be, nil when that cannot be judged.
        package var isMaster: Bool
        package var length: Int64?
        /// Where a dropped event (with one plain UID line) starts in the text; nil for
        /// an event kept.
        package var droppedAt: Int?

        package init(hash: UInt64, isMaster: Bool, length: Int64?, droppedAt: Int?) {
            self.hash = hash
            self.isMaster = isMaster
            self.length = length
            self.droppedAt = droppedAt
        }
    }

    /// The bytes of a full chunk.
    package static let chunkSize = 4 << 20
    /// The most bytes one record takes: flags, hash, two varints of 64 bits.
    private static let maxRecord = 1 + 8 + 10 + 10

    private enum Flag {
        static let master: UInt8 = 1
        static let unbounded: UInt8 = 2
        static let dropped: UInt8 = 4
        /// Not an event: the next dropped event's distance is from this varint's value (a join).
        static let rebase: UInt8 = 8
        /// The length is in quarter hours (most are: an hour and the days around it), one
        /// byte less than in seconds.
        static let quarters: UInt8 = 16
    }

    /// After `keepOnlyDropped`: each record is the hash's low 32 bits and the distance.
    private var dropsOnly = false
    private var chunks: [[UInt8]] = []
    private var last: [UInt8] = []
    /// The start of the last dropped event written (after a join: in the joined text).
    private var previousStart = 0
    /// How many records are held.
    package private(set) var count = 0

    package init() {}

    /// The bytes the chunks take (their capacities: a chunk's unwritten end is not touched).
    package var bytesHeld: Int { chunks.reduce(last.capacity) { $0 + $1.capacity } }
    /// The bytes the records take.
    package var bytesUsed: Int { chunks.reduce(last.count) { $0 + $1.count } }

    /// Adds a record; a dropped event's start is never before the previous one's.
    package mutating func append(_ r: Record) {
        room()
        var flags: UInt8 = 0
        if r.isMaster { flags |= r.length == nil ? Flag.master | Flag.unbounded : Flag.master }
        if r.droppedAt != nil { flags |= Flag.dropped }
        // Written into a local buffer, then appended once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maxRecord) { buffer in
            guard let p = buffer.baseAddress else { return }
            p[0] = flags
            var n = 1
            withUnsafeBytes(of: r.hash.littleEndian) { for b in $0 { p[n] = b; n += 1 } }
            if let at = r.droppedAt {
                n += Self.writeVarint(UInt64(truncatingIfNeeded: at - previousStart), p + n)
                previousStart = at
            }
            if r.isMaster, let length = r.length {
                if length >= 0 && length % 900 == 0 {
                    p[0] |= Flag.quarters
                    n += Self.writeVarint(UInt64(length / 900), p + n)
                } else {
                    n += Self.writeVarint(UInt64(bitPattern: (length << 1) ^ (length >> 63)), p + n)
                }
            }
            last.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<n]))
        }
        count += 1
    }

    /// Takes on `later`'s records (a split scan's second part), whose starts are counted
    /// from `shift` in the text: its chunks are taken as they are.
    package mutating func append(_ later: SeenEvents, shift: Int) {
        guard later.count > 0 else { return }
        // The rebase record in a chunk of its own: `last` may be shared with the part this
        // scan was copied from (`SplitPart`), and appending to it would copy it.
        let rebase = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maxRecord) { buffer -> [UInt8] in
            guard let p = buffer.baseAddress else { return [] }
            p[0] = Flag.rebase
            return Array(UnsafeBufferPointer(rebasing: buffer[..<(1 + Self.writeVarint(UInt64(shift), p + 1))]))
        }
        chunks += [last, rebase]
        chunks += later.chunks
        last = later.last
        previousStart = shift + later.previousStart
        count += later.count
    }

    /// Every record, in the order added.
    package func forEach(_ body: (Record) throws -> Void) rethrows {
        var start = 0
        for chunk in chunks { try dropsOnly ? Self.decodeDrops(chunk, &start, body) : Self.decode(chunk, &start, body) }
        try dropsOnly ? Self.decodeDrops(last, &start, body) : Self.decode(last, &start, body)
    }

    /// Keeps only where the dropped events start, with their hashes' low 32 bits (the
    /// masters were for the end of the scan): some 6 bytes an event while libical parses
    /// what was kept. Converted chunk by chunk, each freed once read.
    package mutating func keepOnlyDropped() {
        guard !dropsOnly else { return }
        var old = chunks + [last]
        self = SeenEvents()
        dropsOnly = true
        var start = 0
        for i in old.indices {
            Self.decode(old[i], &start) { r in
                guard let at = r.droppedAt else { return }
                room()
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maxRecord) { buffer in
                    guard let p = buffer.baseAddress else { return }
                    withUnsafeBytes(of: UInt32(truncatingIfNeeded: r.hash).littleEndian) { for k in 0..<4 { p[k] = $0[k] } }
                    let n = 4 + Self.writeVarint(UInt64(truncatingIfNeeded: at - previousStart), p + 4)
                    previousStart = at
                    last.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<n]))
                }
                count += 1
            }
            old[i] = []
        }
    }

    /// Every record (for tests and small texts).
    package var all: [Record] {
        var found: [Record] = []
        forEach { found.append($0) }
        return found
    }

    /// Room for one more record in `last`: grown by doubling up to a chunk, then a new chunk.
    private mutating func room() {
        guard last.count + Self.maxRecord > last.capacity else { return }
        if last.capacity >= Self.chunkSize {
            chunks.append(last)
            last = []
            last.reserveCapacity(Self.chunkSize)
        } else {
            last.reserveCapacity(min(max(last.capacity * 2, 256), Self.chunkSize))
        }
    }

    private static func writeVarint(_ value: UInt64, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        var v = value, n = 0
        while v >= 0x80 {
            p[n] = UInt8(truncatingIfNeeded: v) | 0x80
            v >>= 7
            n += 1
        }
        p[n] = UInt8(v)
        return n + 1
    }

    /// The unsigned LEB128 number at `b[i...]` (seven bits a byte, low first); `i` past it.
    private static func varint(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> UInt64 {
        var v: UInt64 = 0, shift: UInt64 = 0
        while i < b.count {
            let byte = b[i]
            i += 1
            v |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return v
    }

    private static func decodeDrops(_ chunk: [UInt8], _ start: inout Int, _ body: (Record) throws -> Void) rethrows {
        try chunk.withUnsafeBufferPointer { b in
            var i = 0
            while i + 4 < b.count {
                let hash = UInt64(b[i]) | UInt64(b[i + 1]) << 8 | UInt64(b[i + 2]) << 16 | UInt64(b[i + 3]) << 24
                i += 4
                start += Int(truncatingIfNeeded: varint(b, &i))
                try body(Record(hash: hash, isMaster: false, length: nil, droppedAt: start))
            }
        }
    }

    private static func decode(_ chunk: [UInt8], _ start: inout Int, _ body: (Record) throws -> Void) rethrows {
        try chunk.withUnsafeBufferPointer { b in
            var i = 0
            func varint() -> UInt64 { Self.varint(b, &i) }
            while i < b.count {
                let flags = b[i]
                i += 1
                if flags & Flag.rebase != 0 {
                    start = Int(truncatingIfNeeded: varint())
                    continue
                }
                var hash: UInt64 = 0
                for k in 0..<8 { hash |= UInt64(b[i + k]) << UInt64(8 * k) }
                i += 8
                var r = Record(hash: hash, isMaster: flags & Flag.master != 0, length: nil, droppedAt: nil)
                if flags & Flag.dropped != 0 {
                    start += Int(truncatingIfNeeded: varint())
                    r.droppedAt = start
                }
                if r.isMaster && flags & Flag.unbounded == 0 {
                    let z = varint()
                    r.length = flags & Flag.quarters != 0 ? Int64(bitPattern: z) * 900 : Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1)))
                }
                try body(r)
            }
        }
    }
}
