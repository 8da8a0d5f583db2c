internal import CLibical
import Foundation
import CoolcalModel
import CoolcalScan
import CoolcalSupport
import CoolcalZones

/// Reads iCalendar text through libical into plain Swift values.
public enum ICalReader {
    /// Parses a whole calendar file. Empty (or blank) text is an empty calendar;
    /// anything libical cannot make a calendar of is an `ICalError` naming `file`.
    /// With a `window`, events that provably cannot reach it are dropped before
    /// libical sees them (`ICalPreFilter`); the answers for that window are the same.
    /// Without `revisions`, the dropped events' revisions are not kept (`skippedRevisions`
    /// stays empty): for a read that only checks the text (the read-back of a write).
    /// `standalone`: the file is a calendar on its own (not one of a vdir's or a CalDAV
    /// collection's files, whose events may be revisions of another file's): only the
    /// revisions of the UIDs its parsed events have are kept, the only ones
    /// `Revisions.current` asks for, and the scan holds a few bytes per dropped event
    /// (`ICalPreFilter.revisionsByPlace`), not its UID.
    public static func read(_ input: Data, file: String, window: TimeWindow? = nil, revisions: Bool = true,
                            standalone: Bool = false) throws -> ICalCalendar {
        try read(input, file: file, windows: window.map { [$0] } ?? [], revisions: revisions, standalone: standalone,
                 checkpoint: nil)
    }

    /// `read(_:file:window:revisions:)` keeping what may reach any of `windows` (none:
    /// the whole text is parsed); the answers for each of them are the same.
    /// `diagnostics` takes a `-v` note when the pre-filter cannot judge the text and it
    /// is parsed whole.
    public static func read(_ input: Data, file: String, windows: [TimeWindow], revisions: Bool = true,
                            diagnostics: Diagnostics? = nil) throws -> ICalCalendar {
        try read(input, file: file, windows: windows, revisions: revisions, diagnostics: diagnostics, checkpoint: nil)
    }

    /// `checkpoint` takes the scanner as it stood at the start of the text's last
    /// `END:VCALENDAR` line, for a read-back that scans only from there (`ScanCheckpoint`);
    /// it is not called without windows or without such a line.
    package static func read(_ input: Data, file: String, windows: [TimeWindow], revisions: Bool = true, standalone: Bool = false,
                     diagnostics: Diagnostics? = nil, checkpoint: ((ScanCheckpoint) -> Void)?) throws -> ICalCalendar {
        guard !windows.isEmpty else {
            var shape = InputShape()
            input.withUnsafeBytes { shape.see($0) }
            guard try shape.check(file: file) else { return ICalCalendar(zones: ZoneBook()) }
            return try parse(input, file: file)
        }
        // One scan: the pre-filter's line loop also gathers the text's shape.
        var filter = ICalPreFilter(windows: windows, shape: InputShape())
        filter.keepsRevisions = revisions
        filter.revisionsByPlace = revisions && standalone
        filter.overridesByPlace = standalone
        let reading: (Int, UnsafeMutableRawBufferPointer) throws -> Int = { at, buffer in
            guard at < input.count else { return 0 }
            let n = min(buffer.count, input.count - at)
            input.copyBytes(to: UnsafeMutableRawBufferPointer(rebasing: buffer[..<n]), from: input.startIndex + at ..< input.startIndex + at + n)
            return n
        }
        let scan = input.withUnsafeBytes { raw in
            guard let checkpoint, let at = ScanCheckpoint.offset(in: raw) else { return filter.feedAll(raw) }
            // The scan split (or not) up to the checkpoint is the sequential one there.
            let scan = filter.feedAll(UnsafeRawBufferPointer(rebasing: raw[..<at]))
            checkpoint(ScanCheckpoint(offset: at, of: &filter))
            filter.feed(UnsafeRawBufferPointer(rebasing: raw[at...]))
            return scan
        }
        note(scan, file, diagnostics)
        guard try (filter.shape ?? InputShape()).check(file: file) else { return ICalCalendar(zones: ZoneBook()) }
        guard let kept = try filter.finish(reading: reading) else {
            diagnostics?.note("\(file): full parse (the pre-filter cannot bound what reaches the window)")
            return try parse(input, file: file)
        }
        var result = try parse(kept, file: file, whole: { input })
        result.skippedRevisions = try skipped(filter, result, read: reading)
        return result
    }

    /// Streams a calendar file through the pre-filter in pieces, so that a large file
    /// is never whole in memory; only what may reach `window` is kept and parsed.
    /// `diagnostics` takes a `-v` note of what the pre-filter did.
    /// `standalone`: as for `read(_:file:window:revisions:standalone:)`.
    public static func read(contentsOf path: String, window: TimeWindow, diagnostics: Diagnostics? = nil,
                            standalone: Bool = false) throws -> ICalCalendar {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readBufferSize, alignment: 16)
        defer { buffer.deallocate() }
        return try read(contentsOf: path, window: window, diagnostics: diagnostics, buffer: buffer, shells: nil,
                        splitFrom: SplitScan.threshold, standalone: standalone)
    }

    /// The size of the pieces `read(contentsOf:)` reads a file in (halved for a scan in
    /// two parts): small enough to stay in a core's cache between the kernel's copy and
    /// the scan (256 KiB: `conflicts` on 64 MB took 5% less time than with 4 MiB).
    public static let readBufferSize = 1 << 18

    /// `read(contentsOf:window:diagnostics:)` reading into `buffer`, which the caller
    /// reuses from file to file (a vdir's thousands of small files).
    /// `shells`, shared by the files of one vdir, answers for a kept text already parsed
    /// (`ParseCache`).
    public static func read(contentsOf path: String, window: TimeWindow, diagnostics: Diagnostics?,
                            buffer: UnsafeMutableRawBufferPointer, shells: ParseCache? = nil) throws -> ICalCalendar {
        try read(contentsOf: path, window: window, diagnostics: diagnostics, buffer: buffer, shells: shells,
                 splitFrom: SplitScan.threshold)
    }

    /// The file is scanned in two parts on two threads when it has `splitFrom` bytes or more.
    package static func read(contentsOf path: String, window: TimeWindow, diagnostics: Diagnostics?,
                     buffer: UnsafeMutableRawBufferPointer, shells: ParseCache?, splitFrom: Int,
                     standalone: Bool = false) throws -> ICalCalendar {
        let input = try InputFile.open(path, accepting: .regularFiles)
        // One scan: the pre-filter's line loop also gathers the file's shape.
        var filter = ICalPreFilter(window: window, shape: InputShape())
        (filter.revisionsByPlace, filter.overridesByPlace) = (standalone, standalone)
        note(try filter.feedAll(input, buffer: buffer, splitFrom: splitFrom), path, diagnostics)
        guard try (filter.shape ?? InputShape()).check(file: path) else { return ICalCalendar(zones: ZoneBook()) }
        let reading = rereading(input)
        guard let kept = try filter.finish(reading: reading) else {
            // Something the filter cannot bound (a series moved by RANGE=THISANDFUTURE,
            // a property name cut by a fold): parse the whole file.
            diagnostics?.note("\(path): full parse (the pre-filter cannot bound what reaches the window)")
            return try parse(try wholeFile(path), file: path)
        }
        diagnostics?.note("\(path): the pre-filter kept \(kept.count) of \(input.status.size) bytes for libical")
        // What the scan of a large file freed, handed back before libical parses what it kept.
        if standalone && input.status.size >= SplitScan.threshold { SystemCalls.returnFreedMemory() }
        var result: ICalCalendar
        if let shells, let known = shells[kept] {
            result = known
        } else {
            result = try parse(kept, file: path, whole: { try wholeFile(path) })
            shells?.keep(result, for: kept)
        }
        result.skippedRevisions = try skipped(filter, result, read: reading)
        return result
    }

    /// The scanned file's bytes from an offset, for what the scan read again by place
    /// (`RevisionsByPlace`, held overrides): from the descriptor scanned, since a file
    /// renamed over it meanwhile is not it.
    static func rereading(_ input: OpenInput) -> (Int, UnsafeMutableRawBufferPointer) throws -> Int {
        { at, buffer in try input.read(into: buffer, at: Int64(at)) }
    }

    /// What the read keeps of the dropped events' revisions: all of them, or, for a file
    /// read `standalone`, those of the UIDs of `result`'s events, read again through `read`
    /// where the scan recorded only their place (`RevisionsByPlace`).
    static func skipped(_ filter: ICalPreFilter, _ result: ICalCalendar,
                                read: (Int, UnsafeMutableRawBufferPointer) throws -> Int) throws -> ICalSkippedRevisions {
        guard filter.revisionsByPlace else { return filter.skippedRevisions }
        let uids = ICalSkippedRevisions.UIDs(Set(result.events.compactMap(\.uid)))
        return try RevisionsByPlace.revisions(of: uids, in: filter, reading: read)
    }

    /// The `-v` note of a scan in two parts.
    private static func note(_ scan: SplitScan, _ file: String, _ diagnostics: Diagnostics?) {
        switch scan {
        case .sequential: break
        case .split(let cut): diagnostics?.note("\(file): scanned in two parts on two threads (cut at byte \(cut))")
        case .fellBack(let cut):
            diagnostics?.note("\(file): scanned in one part: the state at byte \(cut) is not the one the second part assumed")
        }
    }

    /// Hands checked text to libical.
    /// libical is never handed more than this: it needs about 30 times the text in
    /// memory (620 MB for a 20 MB calendar) and time to match.
    public static let maxParseBytes = 64 << 20

    /// `whole` gives the whole file when `data` is what the pre-filter kept of it.
    static func parse(_ data: Data, file: String, whole: (() throws -> Data)? = nil) throws -> ICalCalendar {
        guard data.count <= maxParseBytes else {
            throw ICalError(file: file, message: "too large to read whole (\(data.count >> 20) MiB; at most \(maxParseBytes >> 20) MiB)")
        }
        let (text, warnings) = try ParseCaps.capped(data, file: file, whole: whole)
        var result = try parsed(text, file: file, inHalves: true)
        result.warnings = warnings + result.warnings
        return result
    }

    /// Checked `text` read: in two halves on two threads when it is large and shaped for it (`ParseInHalves`).
    package static func parsed(_ text: Data, file: String, inHalves: Bool) throws -> ICalCalendar {
        let halves = inHalves ? ParseInHalves.halves(text, file: file) : nil
        return try calendar(from: try halves?.head ?? OwnedComponent.checked(text, file: file), text: text, file: file, events: halves)
    }

    /// `events`: the VEVENTs of `root`'s one VCALENDAR, read already (`ParseInHalves`).
    private static func calendar(from root: OwnedComponent, text: Data, file: String, events: ParseInHalves.Halves? = nil) throws -> ICalCalendar {
        let vcalendars: [OpaquePointer]
        var looseEvents: [OpaquePointer] = []
        switch icalcomponent_isa(root.pointer) {
        case ICAL_VCALENDAR_COMPONENT:
            vcalendars = [root.pointer]
        case ICAL_XROOT_COMPONENT:
            vcalendars = ICalWalk.children(of: root.pointer, kind: ICAL_VCALENDAR_COMPONENT)
            looseEvents = ICalWalk.children(of: root.pointer, kind: ICAL_VEVENT_COMPONENT)
        case ICAL_VEVENT_COMPONENT:
            vcalendars = []
            looseEvents = [root.pointer]
        default:
            throw ICalError(file: file, message: "not an iCalendar file (no VCALENDAR)")
        }
        if vcalendars.isEmpty && looseEvents.isEmpty {
            throw ICalError(file: file, message: "not an iCalendar file (no VCALENDAR)")
        }
        var zones: [String: ZoneRules] = [:]
        // Only a file with zones is searched for malformed offsets.
        var malformed: Set<String>?
        var zoneWarnings: [String] = []
        for vcal in vcalendars {
            for vtz in ICalWalk.children(of: vcal, kind: ICAL_VTIMEZONE_COMPONENT) {
                if malformed == nil { malformed = ZoneChecks.zonesWithMalformedOffsets(in: text) }
                if let why = ZoneChecks.denseObservance(vtz) {
                    zoneWarnings.append("\(file): VTIMEZONE \(ZoneChecks.tzid(of: vtz)): \(why); the zone is ignored")
                    continue
                }
                guard ZoneChecks.plausible(vtz, malformed: malformed ?? []) else { continue }
                if let rules = VTimezoneRules.usable(vtz, file: file, warnings: &zoneWarnings), zones[rules.identifier] == nil {
                    zones[rules.identifier] = rules
                }
            }
        }
        var result = ICalCalendar(zones: ZoneBook(fileZones: zones))
        result.warnings = zoneWarnings
        for vcal in vcalendars {
            readCalendarProperties(vcal, into: &result)
            let answering = events?.answering ?? ICalWalk.answers(vcal)
            // Taken whole, not appended one by one (a large kept text's events, copied as the array grew).
            let read = events?.events ?? ICalWalk.children(of: vcal, kind: ICAL_VEVENT_COMPONENT).map(ICalEventReader.event(from:))
            if answering {
                if result.answers.isEmpty { result.answers = read } else { result.answers += read }
            } else {
                if result.events.isEmpty { result.events = read } else { result.events += read }
            }
        }
        result.events += looseEvents.map(ICalEventReader.event(from:))
        let badStarts = MalformedStart.all(in: text)
        if !badStarts.isEmpty { MalformedStart.reject(badStarts, in: &result.events) }
        result.warnings += endWarnings(result.events, file: file)
        return result
    }

    private static func readCalendarProperties(_ vcal: OpaquePointer, into calendar: inout ICalCalendar) {
        for prop in ICalWalk.properties(of: vcal) {
            guard let name = ICalWalk.copy(icalproperty_get_property_name(prop))?.uppercased() else { continue }
            let value = ICalWalk.copy(icalproperty_get_value_as_string(prop))
            switch name {
            case "X-WR-TIMEZONE":
                if calendar.zones.floatingZoneID == nil, let id = value?.trimmingCharacters(in: .whitespaces), !id.isEmpty {
                    calendar.zones.floatingZoneID = id
                }
            case "X-WR-CALNAME", "NAME":
                if calendar.name == nil { calendar.name = value }
            case "METHOD":
                if calendar.method == nil { calendar.method = value?.trimmingCharacters(in: .whitespaces).uppercased() }
            case "COLOR", "X-APPLE-CALENDAR-COLOR":
                if calendar.color == nil { calendar.color = value }
            default:
                break
            }
        }
    }
}
