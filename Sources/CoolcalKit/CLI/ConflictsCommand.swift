/// `coolcal conflicts INVITE CAL...`.
struct ConflictsCommand {
    let request: ConflictsRequest
    let settings: Settings
    let diagnostics: Diagnostics

    func run(_ out: TextSink) throws -> ExitStatus {
        let invite = try InviteLoader.load(request.invite, floatingZone: settings.zone)
        let finder = ConflictFinder(buffer: settings.buffer(request.buffer), zone: settings.zone)
        let window = finder.window(for: invite)
        let calendars = try settings.loadCalendars(request.calendars, window: window)
        let expander = OccurrenceExpander(options: settings.expansion(), diagnostics: diagnostics)
        let report = finder.report(for: invite, occurrences: expander.occurrences(in: window, calendars: calendars))
        if !request.quiet {
            if request.common.json {
                out.write(JSONWriter.string(JSONDocuments.conflicts(report)))
            } else {
                out.write(ConflictsText(style: settings.style).render(report))
            }
        }
        return report.free ? .ok : .busy
    }
}
