import Foundation

/// `coolcal events [--from T] [--to T] CAL...`.
struct EventsCommand {
    let request: EventsRequest
    let settings: Settings
    let diagnostics: Diagnostics

    func run(_ out: TextSink) throws -> ExitStatus {
        let window = try self.window()
        let calendars = try settings.loadCalendars(try settings.calendars(request.calendars, command: "events"), window: window)
        let expander = OccurrenceExpander(options: settings.expansion(), diagnostics: diagnostics)
        let occurrences = expander.occurrences(in: window, calendars: calendars)
        if request.common.json {
            out.write(JSONWriter.string(JSONDocuments.events(window: window, occurrences: occurrences)))
        } else {
            out.write(EventsText(style: settings.style).render(window: window, occurrences: occurrences))
        }
        return .ok
    }

    private func window() throws -> TimeWindow {
        let zone = SystemZone(settings.zone)
        let start: Int64
        if let from = request.from {
            start = try instant(from, option: "from", zone: zone)
        } else {
            start = zone.utcSeconds(of: zone.localFields(ofUTC: Int64(settings.now.timeIntervalSince1970)).dateOnly)
        }
        let end: Int64
        if let to = request.to {
            end = try instant(to, option: "to", zone: zone)
        } else {
            end = zone.utcSeconds(of: zone.localFields(ofUTC: start).addingDays(1))
        }
        guard end > start else {
            throw UsageError("--to must be after --from", command: "events")
        }
        return TimeWindow(start: start, end: end)
    }

    private func instant(_ text: String, option: String, zone: SystemZone) throws -> Int64 {
        switch try? InviteDate.parse(text) {
        case .instant(let s)?: return s
        case .date(let d)?: return zone.utcSeconds(of: d)
        case nil:
            throw UsageError("--\(option) '\(text)' is not a date (2022-08-20) or a date-time with offset (2022-08-20T08:00:00Z)",
                             command: "events")
        }
    }
}
