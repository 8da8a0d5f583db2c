import CoolcalCalendars
import CoolcalICal
import CoolcalModel

/// Reads a CalDAV calendar collection into a `LoadedCalendar`, the way a vdir is
/// read: every resource is one calendar file, parsed by `ICalReader` under the name
/// `<collection URL>/<resource>` so that its warnings and errors say which one.
package enum CalDAVCalendar {
    /// Verifies the collection (learning its `schedule-calendar-transp` on the way: no
    /// request more), then fetches what may reach `window` (everything
    /// without one). Overlap is decided locally, exactly as for files.
    package static func load(_ text: String, window: TimeWindow?, environment: [String: String],
                     diagnostics: Diagnostics?) throws -> LoadedCalendar {
        let client = try CalDAVClient(calendar: text, environment: environment, diagnostics: diagnostics)
        let collection = try client.verify()
        var files: [ICalCalendar] = []
        for resource in try client.query(window: window) {
            files.append(try ICalReader.read(resource.data, file: client.location.resourceName(resource.href), window: window))
        }
        let color = collection.color ?? files.lazy.compactMap(\.color).first
        var calendar = LoadedCalendar(name: client.location.name, color: color, files: files)
        calendar.transparent = collection.transparent == true
        return calendar
    }
}
