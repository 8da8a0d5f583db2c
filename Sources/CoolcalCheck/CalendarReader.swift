import Foundation
import CoolcalCalDAV
import CoolcalCalendars
import CoolcalICal
import CoolcalModel
import CoolcalSupport

/// The main job's reading half: calendars at their locations → the occurrences in a
/// window. One path for every command that reads calendars.
package struct CalendarReader {
    package var options: ExpansionOptions
    /// `NETRC`, `HOME` and `COOLCAL_SERVER_TIMEOUT` for CalDAV.
    package var environment: [String: String]
    package var diagnostics: Diagnostics

    package init(options: ExpansionOptions, environment: [String: String], diagnostics: Diagnostics) {
        self.options = options
        self.environment = environment
        self.diagnostics = diagnostics
    }

    /// Every occurrence in `window` of the calendars at `locations`, sorted; only
    /// what may reach the window is parsed.
    package func occurrences(in window: TimeWindow, from locations: [CalendarLocation]) throws -> [Occurrence] {
        expand(try load(locations, window: window), in: window)
    }

    /// The occurrences in `window` of calendars already read.
    package func expand(_ calendars: [LoadedCalendar], in window: TimeWindow) -> [Occurrence] {
        noted(OccurrenceExpander(options: options, diagnostics: diagnostics).occurrences(in: window, calendars: calendars),
              window)
    }

    /// Calendars already read, made ready to expand in many windows (`merge`).
    package func prepare(_ calendars: [LoadedCalendar]) -> PreparedCalendars {
        OccurrenceExpander(options: options, diagnostics: diagnostics).prepare(calendars)
    }

    /// The occurrences in `window` of prepared calendars: what `expand` gives.
    package func expand(_ prepared: PreparedCalendars, in window: TimeWindow) -> [Occurrence] {
        noted(OccurrenceExpander(options: options, diagnostics: diagnostics).occurrences(in: window, prepared: prepared),
              window)
    }

    private func noted(_ occurrences: [Occurrence], _ window: TimeWindow) -> [Occurrence] {
        diagnostics.note("\(occurrences.count) occurrence\(occurrences.count == 1 ? "" : "s") in \(window.jsonString)")
        return occurrences
    }

    /// Reads calendars; with a `window`, only what may reach it is parsed. A directory
    /// with vdir subfolders (a tree) gives one calendar each.
    package func load(_ locations: [CalendarLocation], window: TimeWindow?) throws -> [LoadedCalendar] {
        try locations.flatMap { try calendars(at: $0, window: window) }
    }

    /// The calendars at one location: one, or each vdir of a tree (labelled
    /// `TOP/SUB`); a directory that holds entries but no calendars is an error (66).
    package func calendars(at location: CalendarLocation, window: TimeWindow?) throws -> [LoadedCalendar] {
        guard case .vdir(let path) = location else { return [try load(location, window: window)] }
        switch try Self.probe(path) {
        case .vdir:
            return [try load(location, window: window)]
        case .empty:
            diagnostics.note("\(path): an empty directory: an empty calendar")
            return [try load(location, window: window)]
        case .noCalendars:
            throw Self.noCalendars(path)
        case .tree(let subfolders):
            let names = subfolders.map { URL(fileURLWithPath: $0).lastPathComponent }
            diagnostics.note("\(path): no .ics files in it; \(subfolders.count) vdir subfolder\(subfolders.count == 1 ? "" : "s"), each a calendar: \(names.joined(separator: ", "))")
            return try zip(subfolders, names).map { sub, name in
                try readVdir(sub, label: location.name + "/" + name, folder: name, window: window)
            }
        }
    }

    /// What a directory holds (`CalendarDirectory`); one that cannot be listed is 66.
    package static func probe(_ path: String) throws -> CalendarDirectory {
        guard let kind = CalendarDirectory.probe(path) else {
            throw InputFileError(kind: .unreadable, path: path, reason: "cannot list directory")
        }
        return kind
    }

    /// The error for a directory with entries but neither `.ics` files nor vdir subfolders.
    package static func noCalendars(_ path: String) -> InputFileError {
        InputFileError(kind: .missing, path: path, reason: "no calendars here (no .ics files, no vdir subfolders)")
    }

    /// Reads a file, one vdir (not a tree: `calendars(at:)` tells them apart), or a
    /// CalDAV collection (`CalDAVCalendar`).
    private func load(_ location: CalendarLocation, window: TimeWindow?) throws -> LoadedCalendar {
        let calendar: LoadedCalendar
        switch location {
        case .remote(let url):
            calendar = try CalDAVCalendar.load(url, window: window, environment: environment, diagnostics: diagnostics)
        case .file(let path):
            guard FileManager.default.fileExists(atPath: path) else {
                throw InputFileError(kind: .missing, path: path, reason: "no such file or directory")
            }
            let file = try read(path, window: window)
            calendar = LoadedCalendar(name: location.name, color: file.color, files: [file])
        case .vdir(let path):
            calendar = try readVdir(path, label: location.name, folder: location.name, window: window)
        }
        diagnostics.note("read \(location.shown): \(describe(location, calendar))")
        return calendar
    }

    /// Every `*.ics` of a vdir (sorted; hidden files and anything but regular files
    /// skipped), with its `color` and `displayname` files.
    private func readVdir(_ path: String, label: String, folder: String, window: TimeWindow?) throws -> LoadedCalendar {
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw InputFileError(kind: .unreadable, path: path, reason: "cannot list directory")
        }
        let names = entries.filter(CalendarDirectory.isEventFile).sorted()
        // Only regular files (or links to them): a subdirectory, FIFO or device is skipped.
        // Read on every core, answered as if one after another (`readFiles`).
        let directory = path as NSString
        let files = try readFiles(names.map { directory.appendingPathComponent($0) }, window: window)
        let color = Self.metadata(path, "color") ?? files.lazy.compactMap(\.color).first
        return LoadedCalendar(name: label, color: color, files: files,
                              displayName: Self.metadata(path, "displayname") ?? folder)
    }

    private func describe(_ location: CalendarLocation, _ calendar: LoadedCalendar) -> String {
        let events = calendar.files.reduce(0) { $0 + $1.events.count }
        let what = "\(events) event\(events == 1 ? "" : "s") parsed"
        switch location {
        case .file: return what
        case .vdir: return "\(calendar.files.count) file\(calendar.files.count == 1 ? "" : "s"), " + what
        case .remote: return "\(calendar.files.count) resource\(calendar.files.count == 1 ? "" : "s"), " + what
        }
    }

    private func read(_ path: String, window: TimeWindow?) throws -> ICalCalendar {
        if let window { return try ICalReader.read(contentsOf: path, window: window, diagnostics: diagnostics, standalone: true) }
        return try ICalReader.read(ICalReader.wholeFile(path), file: path)
    }

    /// vdirsyncer keeps `color` and `displayname` files in a vdir.
    private static func metadata(_ directory: String, _ key: String) -> String? {
        let file = (directory as NSString).appendingPathComponent(key)
        // Through InputFile: a FIFO or device named `color` is never opened for reading.
        guard let data = try? InputFile.read(file, limit: 4096, accepting: .regularFiles) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty ? nil : value
    }
}

extension TimeWindow {
    /// `START/END` in UTC, for notes.
    package var jsonString: String {
        OccurrenceTime.instant(start).jsonString + "/" + OccurrenceTime.instant(end).jsonString
    }
}
