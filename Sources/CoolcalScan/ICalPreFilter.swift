import Foundation
import CoolcalModel

/// A byte-level pre-filter: drops the top-level VEVENTs of a VCALENDAR that provably
/// cannot reach a window, so libical parses only what may matter. It never parses
/// iCalendar itself: a block is dropped only when it is *simple* — balanced
/// BEGIN/END lines, no RDATE/EXRULE/RECURRENCE-ID, one unfolded DTSTART (and at most
/// one unfolded DTEND or DURATION) in the plain forms `20220820`, `20220820T080000`,
/// `20220820T080000Z` with no parameters but TZID and VALUE — and everything it can
/// produce, widened by a day either way for a time not in UTC (or, for a TZID naming
/// a system zone, by that zone's own offsets: `ScanZones`), ends before the
/// window or starts after it. A recurring event counts only when every RRULE has an end that is cheap to
/// bound (UNTIL; or COUNT on a rule that yields one instance per period) or when it
/// starts after the window, and never in a file with `RANGE=THISANDFUTURE`. An event
/// holding what `ICalReader`'s own text scan for VTIMEZONE offsets would read — a
/// VTIMEZONE, a TZ… line, a lone CR (which that scan takes for a line end) — is kept.
/// A file whose components libical might delimit otherwise than the filter — a BEGIN
/// or END line in any but the plain `BEGIN:NAME` form (libical's END closes whatever
/// is open, `END:` and `END;X=1:…` included), a folded one, bad nesting, no complete
/// top-level component (libical then returns nothing) — is passed whole. Anything
/// else is kept: when in doubt, parse. Each dropped event leaves its revision (UID,
/// RECURRENCE-ID, SEQUENCE, DTSTAMP, LAST-MODIFIED: `skippedRevisions`), so that a newer
/// revision outside the window still hides an older one inside it; one whose UID or
/// revision lines it cannot read as libical does is kept.
///
/// The contract, for the window filtered for: the filtered read gives the same
/// occurrences as the full parse (uid, recurrence id, start, end, summary, busy), and
/// throws exactly when the full parse throws, with the same message. Its warnings are
/// a subset of the full parse's (as sets: a warning is reported once): the full parse
/// may warn more — about the dropped events themselves, or because libical recovers
/// differently from a garbled event once a well-formed neighbour is gone — but a
/// warning only the filtered read gives is a bug. `PreFilterTests` checks it on
/// generated calendars (where the warnings are even equal) and the `FuzzPreFilter`
/// harness on any bytes. The one intended exception is size: a file larger than
/// `ICalReader.maxParseBytes` is refused whole but may be read through the filter.
public struct ICalPreFilter {
    /// Slack for wall-clock values read in some zone: every UTC offset is within a day
    /// (−12 h to +14 h), and unknown or floating zones are read in `--tz`, another zone.
    package static let margin: Int64 = 86_400

    /// The windows: an event is dropped only when it can reach none (`merge` reads for many).
    package var windows: [TimeWindow]
    /// What is kept so far, and the bytes of the VEVENT being read.
    package var kept = KeptBytes()
    /// The start of a line that the previous chunk cut.
    package var carry: [UInt8] = []
    private var inPiece = false
    package var stack: [UInt64] = []
    /// The VEVENT being read, when `blockOpen`: stored unwrapped, as the tag of a
    /// `ScanBlock?` was an out-of-line call at each use (three per line). `block` is the two
    /// as one optional, for code that is not per line.
    private var current = ScanBlock()
    private var blockOpen = false
    package var block: ScanBlock? {
        get { blockOpen ? current : nil }
        set {
            blockOpen = newValue != nil
            current = newValue ?? ScanBlock()
        }
    }
    package var previousWasTimeLine = false
    /// Set when the file has something the filter cannot bound — a `RANGE` on a
    /// RECURRENCE-ID (an override that moves a whole series by any amount), a property
    /// name cut by a fold, a VTIMEZONE offset beyond the margin: then nothing is
    /// dropped and the caller parses the whole file.
    package var giveUp = false
    /// Overrides that may be dropped, and the masters they are judged with at the end.
    package var overrides = HeldOverrides()
    /// The revisions of the events dropped (`ScanBlock.revision`), after `finish`; while a
    /// VEVENT is read, also its UID's bytes (staged where they are: `keepStaged`).
    public internal(set) var skippedRevisions = ICalSkippedRevisions()
    /// False: `skippedRevisions` stays empty (a read that only checks the text).
    package var keepsRevisions = true
    /// Shown the lines fed that may start or name a block, whole: an edit's streamed read
    /// finds its blocks in this pass over the lines (`StreamedCalendarRead`), not in a second one.
    package var lineObserver: ScanLineObserver?
    /// Whether a CR that no LF follows was fed (libical ends a line there; an edit would
    /// not): in a line, or ending all fed so far.
    package var bareCR: Bool { sawLoneCR || carry.last == 0x0D }
    var sawLoneCR = false

    /// True: a dropped event with an ASCII UID leaves no revision in `skippedRevisions`
    /// but a record of where it starts (`HeldOverrides.seen`), read again for the UIDs
    /// asked (`RevisionsByPlace`): for a file that is a calendar on its own.
    package var revisionsByPlace = false
    /// True in a filter reading one dropped event again, until its end (`RevisionsByPlace`).
    package var rereading = false
    /// True: an override held for `finish` keeps where it is in the text, not its bytes,
    /// which `finish(reading:)` reads again for the few put back.
    package var overridesByPlace = false
    /// The bytes fed so far; where the current piece starts, less its address; where the
    /// carried line starts. (A split scan's second part counts from the cut.)
    package var fed = 0
    var pieceBias = 0
    var carryAt = 0

    /// True when the physical line before a continuation ended inside a property name.
    package var previousNameOpen = false
    package var previousWasUID = false
    /// True after a BEGIN or END line: a fold would change the component libical sees.
    package var previousWasMarker = false
    /// Set when an END closed a top-level component. Without one libical's parse is
    /// empty and the error message is computed from the text itself: judge nothing.
    package var completedTopLevel = false
    /// The file's top-level VTIMEZONEs as read so far, and the zones that bounded events.
    package var zones = ScanZones()
    /// When set, what `ICalReader` checks of the file's shape, gathered from the lines as
    /// this scan finds them (one scan of the bytes for both).
    package var shape: InputShape?

    /// A filter for one window, gathering no shape.
    public init(window: TimeWindow) {
        windows = [window]
    }

    /// A filter for one window that gathers the text's `shape` as it scans.
    package init(window: TimeWindow, shape: InputShape) {
        self.init(window: window)
        self.shape = shape
    }

    /// Keeps what may reach any of `windows` (at least one).
    package init(windows: [TimeWindow], shape: InputShape) {
        self.init(window: windows.first ?? TimeWindow(start: 0, end: 1), shape: shape)
        if windows.count > 1 { self.windows = windows }
    }

    /// This scan as it stands, to go on with where the dropped events' revisions are not
    /// wanted (a read-back, `ScanCheckpoint`): those kept so far are let go.
    package func withoutRevisions() -> ICalPreFilter {
        var copy = self
        copy.keepsRevisions = false
        copy.skippedRevisions = []
        return copy
    }

    /// Takes the next piece of the file; lines may be cut anywhere.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        guard let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self), chunk.count > 0 else { return }
        shape?.seeChunk(UnsafeRawPointer(base), chunk)
        let start = fed
        fed += chunk.count
        pieceBias = start - Int(bitPattern: base)
        var pos = 0
        if !carry.isEmpty {
            guard let nl = memchr(base, 0x0A, chunk.count) else {
                shape?.segment(base, 0, chunk.count, endsLine: false)
                carry.append(contentsOf: UnsafeBufferPointer(start: base, count: chunk.count))
                return
            }
            let end = base.distance(to: nl.assumingMemoryBound(to: UInt8.self)) + 1
            shape?.segment(base, 0, end - 1, endsLine: true)
            carry.append(contentsOf: UnsafeBufferPointer(start: base, count: end))
            let line = carry
            carry.removeAll(keepingCapacity: true)
            handleCarried(line)
            pos = end
        }
        inPiece = true
        // The shape's count of lines is added up here, in `lines`, for the lines that can
        // change nothing else in it (`InputShape.wholeLine`): not BEGIN… or END…, not long.
        let shaped = shape != nil
        var lines = 0
        while pos < chunk.count {
            // One pass over the line's bytes finds its end and any lone CR in it.
            guard let (lf, loneCR) = ScanLine.lineEnd(base, from: pos, count: chunk.count) else {
                shape?.addLines(lines)
                lines = 0
                shape?.segment(base, pos, chunk.count, endsLine: false)
                carryAt = start + pos
                carry.append(contentsOf: UnsafeBufferPointer(start: base + pos, count: chunk.count - pos))
                break
            }
            if shaped {
                let first = base[pos] | 0x20
                if first == 0x62 || first == 0x65 || lf - pos > InputShape.maxLine {
                    shape?.addLines(lines)
                    lines = 0
                    shape?.wholeLine(base + pos, lf - pos)
                } else {
                    lines += 1
                }
            }
            let contentEnd = lf > pos && base[lf - 1] == 0x0D ? lf - 1 - pos : lf - pos
            lineObserver?.offer(base + pos, lf + 1 - pos, at: start + pos)
            handle(base + pos, lf + 1 - pos, contentEnd: contentEnd, loneCR: loneCR)
            pos = lf + 1
        }
        shape?.addLines(lines)
        inPiece = false
        kept.endPiece(at: base + pos)
        skippedRevisions.keepStaged()
    }

    /// Everything kept, in the original order; nil when the file must be parsed whole.
    public mutating func finish() -> Data? {
        (try? finish(reading: nil)) ?? nil
    }

    /// `finish()`, the held overrides put back read again through `read` (the scanned
    /// text's bytes from an offset; 0 at its end) where they were held by place
    /// (`overridesByPlace`); nil also when the text no longer holds them (it changed since).
    package mutating func finish(reading read: ((Int, UnsafeMutableRawBufferPointer) throws -> Int)?) throws -> Data? {
        if !carry.isEmpty {
            let line = carry
            carry = []
            handleCarried(line)
        }
        kept.out += kept.pending
        kept.pending = []
        // A VTIMEZONE the file never closed: not read.
        if stack.count >= 2 && stack[0] == ScanLine.vcalendar && stack[1] == ScanLine.vtimezone {
            zones.readable = false
            zones.end(giveUp: &giveUp)
        }
        if giveUp || !completedTopLevel { return nil }
        guard let merged = try overrides.merged(into: kept.out, windows: windows, skipped: &skippedRevisions,
                                                keepsRevisions: keepsRevisions, reading: read) else { return nil }
        skippedRevisions.index()
        // All that is kept is returned: its pieces are let go (libical parses it next).
        (kept.out, overrides.held) = ([], [])
        return Data(merged)
    }

    /// A line carried from one piece into the next (a UID staged in it copied before it goes).
    private mutating func handleCarried(_ line: [UInt8]) {
        line.withUnsafeBufferPointer { all in
            guard let first = all.baseAddress else { return }
            lineObserver?.offer(first, all.count, at: carryAt)
            handle(first, all.count)
            skippedRevisions.keepStaged()
        }
    }

    /// One line, with its line ending.
    ///
    /// This loop does not use `ContentLines`, on purpose: it sees every physical line of
    /// files of hundreds of MB, piece by piece as `feed` gets them (a line may span two
    /// pieces), and must not copy or allocate per line; and its fold rules are its own
    /// (a fold after a BEGIN/END line or inside a property name gives up the whole file;
    /// a lone CR is looked for because `ICalReader`'s zone scan ends lines there). Its
    /// line ends are the same: LF, a CR before it stripped. It upper-cases with
    /// `ContentLines.upper`, which inlines.
    private mutating func handle(_ p: UnsafePointer<UInt8>, _ full: Int) {
        var contentEnd = full
        if contentEnd > 0 && p[contentEnd - 1] == 0x0A { contentEnd -= 1 }
        if contentEnd > 0 && p[contentEnd - 1] == 0x0D { contentEnd -= 1 }
        // (A CR that ends the text is lone too.)
        handle(p, full, contentEnd: contentEnd, loneCR: memchr(p, 0x0D, contentEnd) != nil || (full == contentEnd + 1 && p[contentEnd] == 0x0D))
    }

    /// One line whose content (without its line end) ends at `contentEnd`; `loneCR`:
    /// whether there is a CR before that end (the line loop finds it with the line's end).
    private mutating func handle(_ p: UnsafePointer<UInt8>, _ full: Int, contentEnd: Int, loneCR: Bool) {
        let bytes = UnsafeBufferPointer(start: p, count: full)
        kept.lineEnd = p + full
        let first = full > 0 ? p[0] : 0
        // Whether a VEVENT is open (`current` is it). Only a BEGIN or END line changes it.
        let open = blockOpen
        if !open, stack.count >= 2, stack[1] == ScanLine.vtimezone, stack[0] == ScanLine.vcalendar { zones.see(p, contentEnd, depth: stack.count) }
        // `ICalReader` also reads the text itself for VTIMEZONE offsets, and ends lines at
        // a lone CR too: an event with one (or with TZ… lines, below) is kept, so that
        // what it reads is the same in the filtered text. (Asked only while the event may
        // still be dropped.)
        if loneCR {
            sawLoneCR = true
            if open { current.simple = false }
        }
        if first == 0x20 || first == 0x09 {
            // A folded continuation: of a time line, that block is not simple; after a
            // line that ended inside the property name, no line can be classified.
            if previousWasTimeLine, open { current.simple = false }
            if previousWasUID, open {
                current.uid = nil
                if contentEnd > 1 { skippedRevisions.stage(p + 1, contentEnd - 1) }
            }
            if previousNameOpen || previousWasMarker { giveUp = true }
            kept.emit(bytes, open: open)
            return
        }
        previousWasTimeLine = false
        previousWasUID = false
        previousWasMarker = false
        let nameEnd = ScanLine.nameEnd(p, contentEnd)
        previousNameOpen = nameEnd == contentEnd
        let upperFirst = ContentLines.upper(first)
        let marker = upperFirst == 0x42 || upperFirst == 0x45 ? ScanLine.marker(p, contentEnd) : nil
        if let marker {
            previousWasMarker = true
            if marker.name == nil {
                // libical's BEGIN or END in an odd form (`END:`, `END;X=1:VEVENT`,
                // `BEGIN :VEVENT`, `BEGIN:VEVENT,X`): it opens or closes *some*
                // component, whatever the name; judge nothing.
                giveUp = true
                kept.emit(bytes, open: open)
                return
            }
        }
        if let marker, marker.begin, let name = marker.name {
            if marker.calendar && !stack.isEmpty { giveUp = true }
            if stack.count == 1 && stack[0] == ScanLine.vcalendar && name == ScanLine.vevent && !open {
                current = ScanBlock()
                current.at = inPiece ? pieceBias + Int(bitPattern: p) : carryAt
                blockOpen = true
                if inPiece { kept.blockStart = p }
            } else if open {
                current.inner.append(name)
                if name == ScanLine.vtimezone { current.simple = false }
            }
            if !open && name == ScanLine.vtimezone && stack.count == 1 && stack[0] == ScanLine.vcalendar { zones.begin() }
            stack.append(name)
            kept.emit(bytes, open: blockOpen)
        } else if let marker, let name = marker.name {
            kept.emit(bytes, open: open)
            if open {
                if current.inner.isEmpty {
                    if name == ScanLine.vevent, stack.last == ScanLine.vevent {
                        var b = ScanBlock()
                        swap(&b, &current)
                        b.end = (inPiece ? pieceBias + Int(bitPattern: p) : carryAt) + full
                        close(b)
                    } else {
                        abandon()
                    }
                    blockOpen = false
                } else if current.inner.last == name {
                    current.inner.removeLast()
                } else {
                    abandon()
                }
            }
            if stack.last == name {
                if !open && name == ScanLine.vtimezone && stack.count == 2 && stack[0] == ScanLine.vcalendar { zones.end(giveUp: &giveUp) }
                stack.removeLast()
                if stack.isEmpty { completedTopLevel = true }
            } else {
                // Badly nested: libical recovers in its own way, which depends on the
                // neighbours too. Judge nothing in such a file.
                stack.removeAll()
                giveUp = true
            }
        } else {
            if upperFirst == 0x54 {
                if ScanLine.extremeOffset(p, contentEnd) { giveUp = true }
                // TZID, TZOFFSETFROM, TZOFFSETTO… in an event: see the lone CR above.
                if open, contentEnd > 1, ContentLines.upper(p[1]) == 0x5A { current.simple = false }
            }
            // A name that only Unicode upper-casing makes BEGIN (`BEGıN`), read that way
            // by the same text scan.
            if upperFirst == 0x42, open, contentEnd > 1, (1..<min(contentEnd, 8)).contains(where: { p[$0] >= 0x80 }) {
                current.simple = false
            }
            // An iTIP answer's VCALENDAR (METHOD:REPLY…) holds no versions of events: the
            // reader keeps its components apart, which only a whole parse sees.
            if !open, upperFirst == 0x4D, stack.count == 1, AnswerMethods.named(p, contentEnd) { giveUp = true }
            if open, current.inner.isEmpty {
                if upperFirst == 0x55, contentEnd > 4, ContentLines.upper(p[1]) == 0x49, ContentLines.upper(p[2]) == 0x44, p[3] == 0x3A {
                    current.uid = ScanLine.nameHash(p + 4, contentEnd - 4)
                    if current.uidLines == 0 { skippedRevisions.unstage() }
                    skippedRevisions.stage(p + 4, contentEnd - 4)
                    current.uidLines += 1
                    previousWasUID = true
                } else if ScanLine.PropertyKind.mayBe(upperFirst, length: nameEnd) {
                    previousWasTimeLine = ScanLine.property(p, contentEnd, nameEnd: nameEnd, into: &current, giveUp: &giveUp)
                }
            }
            kept.emit(bytes, open: open)
        }
    }
}
