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
    /// Feeds all of `text`: in two parts on two threads when it is at least `threshold`
    /// long and has a cut.
    package mutating func feedAll(_ text: UnsafeRawBufferPointer, splitFrom threshold: Int = SplitScan.threshold) -> SplitScan {
        guard text.count >= threshold, text.count >= 2,
              let cut = SplitScan.cut(in: UnsafeRawBufferPointer(rebasing: text[(text.count / 2 - 1)...].prefix(SplitScan.cutSearch)),
                                 windowStart: text.count / 2 - 1, from: text.count / 2) else {
            feed(text)
            return .sequential
        }
        return feedAll(text, cut: cut)
    }

    /// Feeds all of `text` in two parts cut at `cut` (any offset: tests cut at every line).
    package mutating func feedAll(_ text: UnsafeRawBufferPointer, cut: Int) -> SplitScan {
        let parts = (first: SplitPart(self), second: SplitPart(startedAtCut()))
        SplitScan.both({ parts.first.filter.feed(UnsafeRawBufferPointer(rebasing: text[..<cut])) },
                  { parts.second.filter.feed(UnsafeRawBufferPointer(rebasing: text[cut...])) })
        swap(&self, &parts.first.filter) // (not a copy: the part would share, and a write copy, what it holds)
        let folded = cut < text.count && (text[cut] == 0x20 || text[cut] == 0x09)
        guard isAtAssumedCut(folded: folded), zones.allow(parts.second.filter.zones) else {
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
                       splitFrom threshold: Int = SplitScan.threshold) throws -> SplitScan {
        let size = Int(input.status.size)
        if size >= threshold, size >= 2, buffer.count >= 2 {
            let from = size / 2
            let window = UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(buffer.count, SplitScan.cutSearch)])
            let n = try input.read(into: window, at: Int64(from - 1))
            if let cut = SplitScan.cut(in: UnsafeRawBufferPointer(rebasing: window[..<n]), windowStart: from - 1, from: from) {
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
    package mutating func feedAll(_ input: OpenInput, cut: Int, buffer: UnsafeMutableRawBufferPointer) throws -> SplitScan {
        let half = buffer.count / 2
        let parts = (first: SplitPart(self), second: SplitPart(startedAtCut()))
        let halves = (UnsafeMutableRawBufferPointer(rebasing: buffer[..<half]), UnsafeMutableRawBufferPointer(rebasing: buffer[half...]))
        SplitScan.both({ parts.first.read(input, from: 0, to: cut, into: halves.0) },
                  { parts.second.read(input, from: cut, to: nil, into: halves.1) })
        if let error = parts.first.error ?? parts.second.error { throw error }
        swap(&self, &parts.first.filter) // (not a copy: the part would share, and a write copy, what it holds)
        // A file that shrank under the first part: it goes on from where it stopped.
        let reached = parts.first.end
        let folded = parts.second.firstByte == 0x20 || parts.second.firstByte == 0x09
        guard reached == cut, isAtAssumedCut(folded: folded), zones.allow(parts.second.filter.zones) else {
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
        (later.kept.out, later.overrides, later.skippedRevisions) = ([], HeldOverrides(), [])
        (later.carry, later.kept.pending, later.stack, later.block, later.giveUp, later.completedTopLevel) = ([], [], [ScanLine.vcalendar], nil, false, false)
        (later.previousWasTimeLine, later.previousWasUID, later.previousWasMarker, later.previousNameOpen) = (false, false, false, false)
        later.shape = shape.map { _ in .assumedAtCut }
        later.zones = ScanZones()
        later.fed = 0
        return later
    }

    /// Whether this filter, having read all before a cut, is in the state `startedAtCut`
    /// assumes. The line flags are read only by a continuation line (any other sets them
    /// first): compared when `folded`, the cut's line starting with a space or tab.
    package func isAtAssumedCut(folded: Bool) -> Bool {
        carry.isEmpty && kept.holdsNoBlock && block == nil && stack == [ScanLine.vcalendar]
            && (!folded || !(previousWasTimeLine || previousWasUID || previousWasMarker || previousNameOpen))
            && (shape?.isAtAssumedCut ?? true)
    }

    /// Takes on what `later` (from `startedAtCut`) read from the cut on, as if read here:
    /// kept bytes, held overrides (shifted), masters and revisions after these; flags or-ed.
    /// (`later` counted the bytes it was fed from 0: they come after the `fed` here.)
    package mutating func append(_ later: ICalPreFilter) {
        let shift = kept.out.count
        zones.join(later.zones, giveUp: &giveUp)
        kept.append(later.kept)
        overrides.append(later.overrides, shift: shift, textShift: fed)
        skippedRevisions += later.skippedRevisions
        var merged = later
        (merged.kept.out, merged.kept.keptEvents, merged.overrides, merged.skippedRevisions) = (kept.out, kept.keptEvents, overrides, skippedRevisions)
        merged.zones = zones
        (merged.fed, merged.carryAt) = (fed + later.fed, fed + later.carryAt)
        (merged.giveUp, merged.completedTopLevel) = (giveUp || later.giveUp, completedTopLevel || later.completedTopLevel)
        merged.sawLoneCR = sawLoneCR || later.sawLoneCR
        if var joined = shape, let laterShape = later.shape { joined.append(laterShape); merged.shape = joined }
        self = merged
    }
}
