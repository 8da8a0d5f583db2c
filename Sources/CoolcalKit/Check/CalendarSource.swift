import Foundation

/// Loads calendars from paths.
public enum CalendarSource {
    /// Reads a file or every `*.ics` in a directory (sorted, hidden files skipped), or
    /// an `http(s)://` URL as a CalDAV collection (`CalDAVCalendar`; `environment`
    /// gives `NETRC`, `HOME` and `COOLCAL_SERVER_TIMEOUT`, `diagnostics` takes the
    /// netrc warnings). With a `window`, only what may reach it is parsed (see
    /// `ICalPreFilter`).
    public static func load(path: String, window: TimeWindow? = nil,
                            environment: [String: String] = ProcessInfo.processInfo.environment,
                            diagnostics: Diagnostics? = nil) throws -> LoadedCalendar {
        if CalDAVLocation.isURL(path) {
            return try CalDAVCalendar.load(path, window: window, environment: environment, diagnostics: diagnostics)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputFileError(kind: .missing, path: path, reason: "no such file or directory")
        }
        let name = displayName(path)
        if !isDirectory.boolValue {
            let calendar = try read(path, window: window)
            return LoadedCalendar(name: name, color: calendar.color, files: [calendar])
        }
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw InputFileError(kind: .unreadable, path: path, reason: "cannot list directory")
        }
        let files = entries.filter { $0.lowercased().hasSuffix(".ics") && !$0.hasPrefix(".") }.sorted()
        var calendars: [ICalCalendar] = []
        for file in files {
            let full = (path as NSString).appendingPathComponent(file)
            calendars.append(try read(full, window: window))
        }
        let color = metadata(path, "color") ?? calendars.lazy.compactMap(\.color).first
        return LoadedCalendar(name: name, color: color, files: calendars)
    }

    private static func read(_ path: String, window: TimeWindow?) throws -> ICalCalendar {
        if let window { return try ICalReader.read(contentsOf: path, window: window) }
        return try ICalReader.read(InputFile.read(path), file: path)
    }

    /// The name a calendar goes by in output: its file or directory base name, or a
    /// CalDAV collection's last path segment (never anything of its credentials).
    public static func displayName(_ path: String) -> String {
        if CalDAVLocation.isURL(path) {
            return (try? CalDAVLocation(path).name) ?? CalDAVLocation.redact(path)
        }
        return URL(fileURLWithPath: path).lastPathComponent
    }

    /// vdirsyncer keeps `color` and `displayname` files in a vdir.
    private static func metadata(_ directory: String, _ key: String) -> String? {
        let file = (directory as NSString).appendingPathComponent(key)
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty ? nil : value
    }
}
