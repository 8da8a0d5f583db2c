import Foundation
import CoolcalModel
import CoolcalSupport

/// One large calendar scanned in two parts on two threads, with the answer of the
/// sequential scan.
///
/// The cut is the start of a line `BEGIN:VEVENT` (exactly, ended by CRLF or LF, after
/// an LF) at or after the middle of the file. The first part, `[0, cut)`, is scanned as
/// ever; the second, `[cut, end)`, by a filter of its own started in an *assumed* state
/// (`startedAtCut`): inside one top-level VCALENDAR, no VEVENT open, no partial line,
/// nothing pending, line flags clear, the shape past its head (no blank lines, BOM
/// done), at depth 1, no error yet.
///
/// Why that is exact. The scan is a function of its state and the bytes it is fed: what
/// it does with a line depends on the bytes of the line and on the state before it,
/// never on earlier bytes otherwise. Its state at `cut` is a value, the first part's
/// state at its end. What it accumulates — kept bytes, held overrides, masters, skipped
/// revisions, the flags `giveUp` and `completedTopLevel`, a NUL seen — is only appended
/// to or set, never read while scanning (the flags and NUL only by `finish` and `check`),
/// so it is left out of the state compared. Everything else is compared
/// (`isAtAssumedCut`): when it equals the assumed state, the second filter made, line by
/// line, the decisions the sequential scan makes from `cut` on. They differ only in
/// positions and line numbers, which start at 0 and 1 there: the merge (`append`) shifts
/// the held overrides' offsets by the bytes kept before the cut and the shape's line
/// numbers by the lines before it, and concatenates the rest in file order. The first
/// part's errors (a long line, deep nesting) make its state differ, so the first error
/// in file order is the one reported. `finish` then decides the held overrides against
/// the masters of both parts, exactly as after a sequential scan. When the states differ
/// (a cut inside a VTIMEZONE, an unclosed event, a second VCALENDAR open, an error
/// before the cut…), the first filter goes on over `[cut, end)` itself: today's
/// sequential answer, at the cost of the second part's work. Global limits (rule steps,
/// occurrences) are not the scan's: expansion applies them to the merged calendar.
extension ICalPreFilter {
    /// Files at least this large are scanned in two parts (a vdir's files are not).
    package static let splitThreshold = 8 << 20
    /// How far past the middle a `BEGIN:VEVENT` line is looked for.
    package static let cutSearch = 1 << 18

    /// How a text was scanned (a `-v` note tells).
    package enum Scan: Equatable {
        case sequential
        case split(at: Int)
        /// Split, but the state at the cut was not the assumed one: scanned on from there.
        case fellBack(at: Int)
    }

    /// The first `BEGIN:VEVENT` line starting at or after `from` in `window` (which
    /// starts at `windowStart` of the text); nil if none.
    package static func cut(in window: UnsafeRawBufferPointer, windowStart: Int, from: Int) -> Int? {
        let marker = Array("BEGIN:VEVENT".utf8)
        var i = max(from - windowStart, 1)
        while i + marker.count < window.count {
            guard let base = window.baseAddress, let hit = memchr(base + i - 1, 0x0A, window.count - i + 1) else { return nil }
            let lineStart = base.distance(to: UnsafeRawPointer(hit)) + 1
            i = lineStart + 1
            guard lineStart + marker.count < window.count,
                  (0..<marker.count).allSatisfy({ window[lineStart + $0] == marker[$0] }) else { continue }
            let after = lineStart + marker.count
            if window[after] == 0x0A || (window[after] == 0x0D && after + 1 < window.count && window[after + 1] == 0x0A) {
                return windowStart + lineStart
            }
        }
        return nil
    }

    /// Feeds all of `text`: in two parts on two threads when it is at least `threshold`
    /// long and has a cut.
    package mutating func feedAll(_ text: UnsafeRawBufferPointer, splitFrom threshold: Int = splitThreshold) -> Scan {
        guard text.count >= threshold, text.count >= 2,
              let cut = Self.cut(in: UnsafeRawBufferPointer(rebasing: text[(text.count / 2 - 1)...].prefix(Self.cutSearch)),
                                 windowStart: text.count / 2 - 1, from: text.count / 2) else {
            feed(text)
            return .sequential
        }
        return feedAll(text, cut: cut)
    }

    /// Feeds all of `text` in two parts cut at `cut` (any offset: tests cut at every line).
    package mutating func feedAll(_ text: UnsafeRawBufferPointer, cut: Int) -> Scan {
        let parts = (first: SplitPart(self), second: SplitPart(startedAtCut()))
        Self.both({ parts.first.filter.feed(UnsafeRawBufferPointer(rebasing: text[..<cut])) },
                  { parts.second.filter.feed(UnsafeRawBufferPointer(rebasing: text[cut...])) })
        self = parts.first.filter
        let folded = cut < text.count && (text[cut] == 0x20 || text[cut] == 0x09)
        guard isAtAssumedCut(folded: folded), zonesAllow(parts.second.filter) else {
            feed(UnsafeRawBufferPointer(rebasing: text[cut...]))
            return .fellBack(at: cut)
        }
        append(parts.second.filter)
        return .split(at: cut)
    }

    /// Feeds all of the regular file `input` (read from its start), reading into
    /// `buffer`: in two parts on two threads (each reading into its half of `buffer`)
    /// when the file is at least `threshold` long and has a cut.
    package mutating func feedAll(_ input: OpenInput, buffer: UnsafeMutableRawBufferPointer,
                       splitFrom threshold: Int = splitThreshold) throws -> Scan {
        let size = Int(input.status.size)
        if size >= threshold, size >= 2, buffer.count >= 2 {
            let from = size / 2
            let window = UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(buffer.count, Self.cutSearch)])
            let n = try input.read(into: window, at: Int64(from - 1))
            if let cut = Self.cut(in: UnsafeRawBufferPointer(rebasing: window[..<n]), windowStart: from - 1, from: from) {
                return try feedAll(input, cut: cut, buffer: buffer)
            }
        }
        while true {
            let n = try input.read(into: buffer)
            if n == 0 { return .sequential }
            feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
    }

    /// Feeds all of the regular file `input` in two parts cut at `cut`.
    package mutating func feedAll(_ input: OpenInput, cut: Int, buffer: UnsafeMutableRawBufferPointer) throws -> Scan {
        let half = buffer.count / 2
        let parts = (first: SplitPart(self), second: SplitPart(startedAtCut()))
        let halves = (UnsafeMutableRawBufferPointer(rebasing: buffer[..<half]), UnsafeMutableRawBufferPointer(rebasing: buffer[half...]))
        Self.both({ parts.first.read(input, from: 0, to: cut, into: halves.0) },
                  { parts.second.read(input, from: cut, to: nil, into: halves.1) })
        if let error = parts.first.error ?? parts.second.error { throw error }
        self = parts.first.filter
        // A file that shrank under the first part: it goes on from where it stopped.
        let reached = parts.first.end
        let folded = parts.second.firstByte == 0x20 || parts.second.firstByte == 0x09
        guard reached == cut, isAtAssumedCut(folded: folded), zonesAllow(parts.second.filter) else {
            var at = reached
            while true {
                let n = try input.read(into: buffer, at: Int64(at))
                if n == 0 { return .fellBack(at: cut) }
                feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                at += n
            }
        }
        append(parts.second.filter)
        return .split(at: cut)
    }

    /// Runs `first` on this thread and `second` on another; returns when both are done.
    private static func both(_ first: () -> Void, _ second: () -> Void) {
        withoutActuallyEscaping(first) { first in
            withoutActuallyEscaping(second) { second in
                let work = UncheckedPair(first: first, second: second)
                DispatchQueue.concurrentPerform(iterations: 2) { $0 == 0 ? work.first() : work.second() }
            }
        }
    }
}

/// The two closures of `both`: each runs on one thread only, and both have returned
/// when `concurrentPerform` does.
private struct UncheckedPair: @unchecked Sendable {
    let first: () -> Void
    let second: () -> Void
}

/// One part of a split scan: its own filter, fed on one thread only; read by the caller
/// after `concurrentPerform` returned (which orders the writes before the reads).
private final class SplitPart: @unchecked Sendable {
    var filter: ICalPreFilter
    var error: Error?
    /// Where reading stopped, and the first byte read (for `isAtAssumedCut`'s `folded`).
    var end = 0
    var firstByte: UInt8?

    init(_ filter: ICalPreFilter) {
        self.filter = filter
    }

    /// Reads `[from, to)` (`to` nil: to the end of the file) into `buffer`, feeding it.
    func read(_ input: OpenInput, from: Int, to: Int?, into buffer: UnsafeMutableRawBufferPointer) {
        end = from
        // The revisions dropped in this part are indexed here, on this part's thread.
        defer { filter.skippedRevisions.index() }
        do {
            while to.map({ end < $0 }) ?? true {
                let want = min(buffer.count, to.map { $0 - end } ?? buffer.count)
                let n = try input.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<want]), at: Int64(end))
                if n == 0 { return }
                if firstByte == nil { firstByte = buffer[0] }
                filter.feed(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
                end += n
            }
        } catch {
            self.error = error
        }
    }
}

extension ICalPreFilter {
    /// What the scan of `data` for `window` ends with — the kept text (nil: parse whole),
    /// the revisions dropped, the shape's refusal (or whether there is text) — scanned
    /// in one part (`cut` nil) or two cut at `cut`: for the `FuzzPreFilter` harness.
    public static func outcome(_ data: Data, window: TimeWindow, cut: Int?) -> (kept: Data?, skipped: [ICalRevision], shape: String) {
        var filter = ICalPreFilter(window: window, shape: InputShape())
        data.withUnsafeBytes { raw in
            if let cut { _ = filter.feedAll(raw, cut: min(max(cut, 0), raw.count)) } else { filter.feed(raw) }
        }
        // As `check(file: "fuzz.ics")` (CoolcalICal) returns or throws it.
        let checked = filter.shape ?? InputShape()
        let shape = checked.refusal.map { "refused: fuzz.ics: \($0)" } ?? "text: \(checked.sawText)"
        let kept = filter.finish()
        return (kept, filter.skippedRevisions.all, shape)
    }
}

/// The scan's state at a cut: how the second part starts, how the first part's end is
/// compared with that start, and how the two are joined. (The state these read and
/// write is internal to the module for this, not private to `ICalPreFilter.swift`.)
extension ICalPreFilter {
    /// A filter for the bytes from a cut on (`ICalPreFilter+Split`), in the state it
    /// assumes there: in one top-level VCALENDAR, no VEVENT open, nothing carried or
    /// pending, line flags clear, the shape past its head at depth 1.
    package func startedAtCut() -> ICalPreFilter {
        var later = self
        (later.out, later.heldOverrides, later.masters, later.skippedRevisions) = ([], [], [], [])
        (later.carry, later.pending, later.stack, later.block, later.giveUp, later.completedTopLevel) = ([], [], [Self.vcalendar], nil, false, false)
        (later.previousWasTimeLine, later.previousWasUID, later.previousWasMarker, later.previousNameOpen) = (false, false, false, false)
        later.shape = shape.map { _ in .assumedAtCut }
        later.zones = ZoneScan()
        return later
    }

    /// Whether this filter, having read all before a cut, is in the state `startedAtCut`
    /// assumes. The line flags are read only by a continuation line (any other sets them
    /// first): compared when `folded`, the cut's line starting with a space or tab.
    package func isAtAssumedCut(folded: Bool) -> Bool {
        carry.isEmpty && pending.isEmpty && blockStart == nil && block == nil && stack == [Self.vcalendar]
            && (!folded || !(previousWasTimeLine || previousWasUID || previousWasMarker || previousNameOpen))
            && (shape?.isAtAssumedCut ?? true)
    }

    /// Takes on what `later` (from `startedAtCut`) read from the cut on, as if read here:
    /// kept bytes, held overrides (shifted), masters and revisions after these; flags or-ed.
    package mutating func append(_ later: ICalPreFilter) {
        let shift = out.count
        joinZones(later)
        out += later.out
        keptEvents += later.keptEvents.map { $0.lowerBound + shift ..< $0.upperBound + shift }
        heldOverrides += later.heldOverrides.map { ($0.at + shift, $0.bytes, $0.uid, $0.rid, $0.slack, $0.revision) }
        masters += later.masters
        skippedRevisions += later.skippedRevisions
        var merged = later
        (merged.out, merged.keptEvents, merged.heldOverrides, merged.masters, merged.skippedRevisions) = (out, keptEvents, heldOverrides, masters, skippedRevisions)
        merged.zones = zones
        (merged.giveUp, merged.completedTopLevel) = (giveUp || later.giveUp, completedTopLevel || later.completedTopLevel)
        if var joined = shape, let laterShape = later.shape { joined.append(laterShape); merged.shape = joined }
        self = merged
    }
}
